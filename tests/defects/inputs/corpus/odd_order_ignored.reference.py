import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    c = [int(x) for x in data[1:n + 1]]
    lo, hi = c.index(min(c)), c.index(max(c))
    if lo == hi:
        print(-1)
        return
    print(min(lo, hi) + 1, max(lo, hi) + 1)


main()

import sys


def main():
    data = sys.stdin.read().split()
    n, s = int(data[0]), int(data[1])
    a = [int(x) for x in data[2:2 + n]]
    where = {}
    for j, x in enumerate(a, 1):
        if s - x in where:
            print(where[s - x], j)
            return
        where.setdefault(x, j)
    print(-1)


main()

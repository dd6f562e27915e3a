import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    values = [int(v) for v in data[1:1 + n]]
    later = {}
    for p in range(len(values), 0, -1):
        r = values[p - 1] % 7
        if r in later:
            print(p, later[r])
            return
        later[r] = p
    print(-1)


main()

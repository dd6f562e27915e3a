import sys
from bisect import bisect_right


def main():
    data = sys.stdin.read().split()
    n, m = int(data[0]), int(data[1])
    a = sorted(map(int, data[2:2 + n]))
    b = list(map(int, data[2 + n:2 + n + m]))
    print(" ".join(str(bisect_right(a, x)) for x in b))


main()

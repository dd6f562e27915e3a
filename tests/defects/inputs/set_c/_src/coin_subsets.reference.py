import sys
from collections import defaultdict


def main():
    data = sys.stdin.read().split()
    n, x = int(data[0]), int(data[1])
    ways = defaultdict(int)
    ways[0] = 1
    for value in map(int, data[2:2 + n]):
        for total, count in list(ways.items()):
            ways[total + value] += count
    print(ways[x] - (1 if x == 0 else 0))


main()

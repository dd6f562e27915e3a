import sys
from collections import Counter


def main():
    data = sys.stdin.read().split()
    vals = [int(x) for x in data[2:]]
    deg = Counter()
    for k in range(0, len(vals) - 1, 2):
        deg[vals[k]] += 1
        deg[vals[k + 1]] += 1
    print(max(deg.values()) if deg else 0)


main()

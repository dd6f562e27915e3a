import sys
from bisect import bisect_left


def subset_sums(ws):
    sums = [0]
    for w in ws:
        sums += [s + w for s in sums]
    return sums


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    w = list(map(int, data[1:1 + n]))
    total = sum(w)
    left = subset_sums(w[: n // 2])
    right = sorted(set(subset_sums(w[n // 2:])))
    best = total
    for s in left:
        # want s + r as close to total / 2 as possible
        want = total // 2 - s
        k = bisect_left(right, want)
        for j in (k - 1, k, k + 1):
            if 0 <= j < len(right):
                best = min(best, abs(total - 2 * (s + right[j])))
    print(best)


main()

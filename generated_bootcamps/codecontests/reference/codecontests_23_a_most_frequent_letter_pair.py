import sys


def main():
    s = sys.stdin.readline().strip()
    counts = {}
    for i in range(len(s) - 1):
        pair = s[i:i + 2]
        counts[pair] = counts.get(pair, 0) + 1
    best = max(counts.values())
    pair = min(p for p, c in counts.items() if c == best)
    print(pair, best)


main()

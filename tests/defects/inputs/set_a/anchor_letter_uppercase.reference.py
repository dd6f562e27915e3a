import sys

INF = 10 ** 9


def drift(s):
    n = len(s)
    left = [INF] * n
    last = -INF
    for i, ch in enumerate(s):
        if ch == "a":
            last = i
        left[i] = i - last
    best = 0
    last = INF * 2
    for i in range(n - 1, -1, -1):
        if s[i] == "a":
            last = i
        best = max(best, min(left[i], last - i))
    return best


def main():
    data = sys.stdin.read().split()
    t = int(data[0])
    print("\n".join(str(drift(s)) for s in data[1:1 + t]))


main()

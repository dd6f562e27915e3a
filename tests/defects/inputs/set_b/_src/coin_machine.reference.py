import sys


def main():
    out = []
    for line in sys.stdin.read().splitlines()[1:]:
        if not line.strip():
            continue
        a, b, x = map(int, line.split())
        best = -1
        for big in range(x // b, -1, -1):
            rest = x - big * b
            if rest % a == 0:
                coins = big + rest // a
                if best == -1 or coins < best:
                    best = coins
        out.append(best)
    print("\n".join(map(str, out)))


main()

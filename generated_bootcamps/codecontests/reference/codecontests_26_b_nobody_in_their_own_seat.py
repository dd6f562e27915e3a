import sys


def main():
    n = int(sys.stdin.readline())
    if n == 1:
        print(-1)
        return
    p = list(range(1, n + 1))
    last = n if n % 2 == 0 else n - 3
    for i in range(0, last, 2):
        p[i], p[i + 1] = p[i + 1], p[i]
    if n % 2 == 1:
        p[n - 3], p[n - 2], p[n - 1] = n - 1, n, n - 2
    sys.stdout.write(" ".join(map(str, p)) + "\n")


main()

import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    p = [0] + [int(x) for x in data[1:n + 1]]
    seen = [False] * (n + 2)
    cycles = 0
    for i in range(1, n + 1):
        if not seen[i]:
            cycles += 1
            j = i
            while 1 <= j <= n and not seen[j]:
                seen[j] = True
                j = p[j]
    print(cycles)


main()

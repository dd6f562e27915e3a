import sys


def main():
    data = sys.stdin.buffer.read().split()
    n, d = int(data[0]), int(data[1])
    a = list(map(int, data[2:2 + n]))
    total = 0
    for i in range(n - 1):
        total += (a[i + 1] - a[i] - 1) // d
    print(total)


main()

import sys


def main():
    data = sys.stdin.read().split()
    n, k = int(data[0]), int(data[1])
    a = sorted(map(int, data[2:2 + n]))
    total = 0
    left = 0
    for right in range(len(a)):
        while a[right] - a[left] > k:
            left += 1
        total += right - left
    print(total)


main()

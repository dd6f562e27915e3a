import sys


def main():
    data = sys.stdin.read().split()
    n, s = int(data[0]), int(data[1])
    a = list(map(int, data[2:2 + n]))
    left = 0
    total = 0
    for right in range(n):
        total += a[right]
        while total > s and left <= right:
            total -= a[left]
            left += 1
        if total == s:
            print(left + 1, right + 1)
            return
    print(-1)


main()

import sys


def loyal(x):
    return x % sum(map(int, str(x))) == 0


def main():
    n = int(sys.stdin.readline())
    count = 0
    i = 1
    while i * i <= n:
        if n % i == 0:
            j = n // i
            count += loyal(i)
            if j != i:
                count += loyal(j)
        i += 1
    print(count)


main()

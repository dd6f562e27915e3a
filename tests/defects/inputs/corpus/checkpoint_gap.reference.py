import sys


def main():
    data = sys.stdin.read().split()
    k = int(data[0])
    x = [int(v) for v in data[1:k + 1]]
    print(max(x[i + 1] - x[i] for i in range(len(x) - 1)))


main()

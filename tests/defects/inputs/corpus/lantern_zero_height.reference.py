import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    h = [int(x) for x in data[1:n + 1]]
    print(max(h) - min(h) if h else 0)


main()

import sys


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    h = [int(x) for x in data[1:1 + n]]
    best = 1
    run = 1
    for i in range(1, len(h)):
        if h[i] > h[i - 1]:
            run += 1
            if run > best:
                best = run
        else:
            run = 1
    print(best)


main()

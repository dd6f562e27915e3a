import sys


def main():
    s = sys.stdin.read().split()[0]
    print(len(set(s)))


main()

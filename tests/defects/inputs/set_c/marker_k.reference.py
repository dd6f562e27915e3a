import sys


def main():
    data = sys.stdin.read().split()
    t = int(data[0])
    out = []
    for s in data[1:1 + t]:
        n = len(s)
        total = n * (n + 1) // 2
        run = 0
        plain = 0
        for ch in s:
            if ch == "k":
                plain += run * (run + 1) // 2
                run = 0
            else:
                run += 1
        plain += run * (run + 1) // 2
        out.append(total - plain)
    print("\n".join(map(str, out)))


main()

import sys


def main():
    data = sys.stdin.read().split()
    n, q = int(data[0]), int(data[1])
    a = [int(x) for x in data[2:2 + n]]
    pre = [0]
    for x in a:
        pre.append(pre[-1] + x)
    out = []
    pos = 2 + n
    for _ in range(q):
        l, r = int(data[pos]), int(data[pos + 1])
        pos += 2
        out.append(pre[r] - pre[l - 1])
    print("\n".join(map(str, out)))


main()

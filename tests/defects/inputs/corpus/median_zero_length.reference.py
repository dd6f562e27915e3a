import sys


def main():
    data = sys.stdin.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        d = sorted(int(x) for x in data[pos + 1:pos + 1 + n])
        pos += 1 + n
        out.append(d[len(d) // 2])
    print("\n".join(map(str, out)))


main()

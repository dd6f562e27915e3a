import sys


def main():
    data = sys.stdin.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        b = [int(x) for x in data[pos + 1:pos + 1 + n]]
        pos += 1 + n
        cnt = [0, 0, 0]
        for x in b:
            cnt[x % 3] += 1
        out.append(cnt[0] * (cnt[0] - 1) // 2 + cnt[1] * cnt[2])
    print("\n".join(map(str, out)))


main()

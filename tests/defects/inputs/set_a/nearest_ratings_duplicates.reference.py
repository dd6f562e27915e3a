import sys


def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        pos += 1
        a = sorted(map(int, data[pos:pos + n]))
        pos += n
        best = None
        count = 0
        for i in range(n - 1):
            d = a[i + 1] - a[i]
            if best is None or d < best:
                best, count = d, 1
            elif d == best:
                count += 1
        out.append(f"{best} {count}")
    sys.stdout.write("\n".join(out) + "\n")


main()

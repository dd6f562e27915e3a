import sys


def main():
    data = sys.stdin.buffer.read().split()
    pos = 0
    t = int(data[pos])
    pos += 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        pos += 1
        p = [int(v) for v in data[pos:pos + n]]
        pos += n
        seen = [False] * n
        swaps = []
        for i in range(n):
            cycle = []
            j = i
            while 0 <= j < n and not seen[j]:
                seen[j] = True
                cycle.append(j)
                j = p[j] - 1
            for k in range(1, len(cycle)):
                a, b = cycle[0], cycle[k]
                swaps.append((min(a, b) + 1, max(a, b) + 1))
        out.append(str(len(swaps)))
        out.extend(f"{a} {b}" for a, b in swaps)
    print("\n".join(out))


main()

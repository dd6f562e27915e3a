import sys


def main():
    data = sys.stdin.buffer.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        pos += 1
        p = [int(x) - 1 for x in data[pos:pos + n]]
        pos += n
        seen = [False] * n
        cycles = 0
        longest = 0
        for i in range(n):
            if seen[i]:
                continue
            cycles += 1
            length = 0
            j = i
            while not seen[j]:
                seen[j] = True
                length += 1
                j = p[j]
            longest = max(longest, length)
        out.append(f"{n - cycles} {longest}")
    sys.stdout.write("\n".join(out) + "\n")


main()

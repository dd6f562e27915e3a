import sys


def solve(a):
    n = len(a)
    where = {}
    for idx, x in enumerate(a):
        where.setdefault(x, []).append(idx)
    for i in range(n):
        for k in range(n):
            if k == i:
                continue
            need = a[k] - a[i]
            for j in where.get(need, ()):
                if j != i and j != k:
                    return "%d %d %d" % (i + 1, j + 1, k + 1)
    return "-1"


def main():
    data = sys.stdin.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        a = list(map(int, data[pos + 1:pos + 1 + n]))
        pos += 1 + n
        out.append(solve(a))
    print("\n".join(out))


main()

import sys


def find(parent, x):
    root = x
    while parent[root] != root:
        root = parent[root]
    while parent[x] != root:
        parent[x], x = root, parent[x]
    return root


def main():
    data = sys.stdin.read().split()
    t = int(data[0])
    pos = 1
    out = []
    for _ in range(t):
        n, m = int(data[pos]), int(data[pos + 1])
        pos += 2
        parent = list(range(n + 1))
        size = [1] * (n + 1)
        for _ in range(m):
            a = find(parent, int(data[pos]))
            b = find(parent, int(data[pos + 1]))
            pos += 2
            if a != b:
                if size[a] < size[b]:
                    a, b = b, a
                parent[b] = a
                size[a] += size[b]
        total = 0
        for v in range(1, n + 1):
            if parent[v] == v:
                total += size[v] * (size[v] - 1) // 2
        out.append(total)
    print("\n".join(map(str, out)))


main()

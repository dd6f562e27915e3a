import sys


def main():
    data = sys.stdin.buffer.read().split()
    n, m = int(data[0]), int(data[1])
    parent = list(range(n + 1))
    size = [1] * (n + 1)

    def find(x):
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    groups = n
    pos = 2
    for _ in range(m):
        a, b = find(int(data[pos])), find(int(data[pos + 1]))
        pos += 2
        if a != b:
            if size[a] < size[b]:
                a, b = b, a
            parent[b] = a
            size[a] += size[b]
            groups -= 1
    largest = max(size[find(v)] for v in range(1, n + 1))
    print(groups - 1, largest)


main()

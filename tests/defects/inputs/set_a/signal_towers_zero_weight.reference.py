import sys


def farthest(start, n, adj):
    dist = [-1] * (n + 1)
    dist[start] = 0
    stack = [start]
    while stack:
        v = stack.pop()
        for u, w in adj[v]:
            if dist[u] < 0:
                dist[u] = dist[v] + w
                stack.append(u)
    best = start
    for v in range(1, n + 1):
        if dist[v] > dist[best]:
            best = v
    return best, dist[best]


def main():
    data = sys.stdin.buffer.read().split()
    n = int(data[0])
    adj = [[] for _ in range(n + 1)]
    pos = 1
    for _ in range(n - 1):
        u, v, w = int(data[pos]), int(data[pos + 1]), int(data[pos + 2])
        pos += 3
        adj[u].append((v, w))
        adj[v].append((u, w))
    a, _ = farthest(1, n, adj)
    _, d = farthest(a, n, adj)
    print(d)


main()

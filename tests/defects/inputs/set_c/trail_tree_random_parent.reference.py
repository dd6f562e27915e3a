import sys
from collections import deque


def farthest(adj, start):
    dist = {start: 0}
    queue = deque([start])
    best = start
    while queue:
        u = queue.popleft()
        if dist[u] > dist[best]:
            best = u
        for v in adj[u]:
            if v not in dist:
                dist[v] = dist[u] + 1
                queue.append(v)
    return best, dist[best]


def main():
    data = sys.stdin.buffer.read().split()
    pos = 0
    t = int(data[pos])
    pos += 1
    out = []
    for _ in range(t):
        n = int(data[pos])
        pos += 1
        adj = [[] for _ in range(n + 1)]
        for _ in range(n - 1):
            u, v = int(data[pos]), int(data[pos + 1])
            pos += 2
            adj[u].append(v)
            adj[v].append(u)
        end, _ = farthest(adj, 1)
        _, length = farthest(adj, end)
        out.append(str(length))
    print("\n".join(out))


main()

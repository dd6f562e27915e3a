import sys
from collections import deque


def main():
    data = sys.stdin.buffer.read().split()
    n, m = int(data[0]), int(data[1])
    adj = [[] for _ in range(n + 1)]
    pos = 2
    for _ in range(m):
        a, b = int(data[pos]), int(data[pos + 1])
        pos += 2
        adj[a].append(b)
        adj[b].append(a)
    parent = [0] * (n + 1)
    parent[1] = 1
    queue = deque([1])
    while queue:
        u = queue.popleft()
        for v in adj[u]:
            if not parent[v]:
                parent[v] = u
                queue.append(v)
    if not parent[n]:
        print(-1)
        return
    route = [n]
    while route[-1] != 1:
        route.append(parent[route[-1]])
    route.reverse()
    print(len(route) - 1)
    print(" ".join(map(str, route)))


main()

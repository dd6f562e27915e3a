import sys
from collections import deque


def main():
    data = sys.stdin.read().split()
    n, m = int(data[0]), int(data[1])
    adj = [[] for _ in range(n + 1)]
    pos = 2
    for _ in range(m):
        u, v = int(data[pos]), int(data[pos + 1])
        pos += 2
        adj[u].append(v)
        adj[v].append(u)
    prev = [-1] * (n + 1)
    seen = [False] * (n + 1)
    seen[1] = True
    queue = deque([1])
    while queue:
        u = queue.popleft()
        for v in adj[u]:
            if not seen[v]:
                seen[v] = True
                prev[v] = u
                queue.append(v)
    if not seen[n]:
        print(-1)
        return
    route = [n]
    while route[-1] != 1:
        route.append(prev[route[-1]])
    route.reverse()
    print(len(route) - 1)
    print(" ".join(map(str, route)))


main()

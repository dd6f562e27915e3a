import sys
from collections import deque


def main():
    data = sys.stdin.read().split()
    n = int(data[0])
    adj = {}
    vals = [int(x) for x in data[1:]]
    for k in range(0, len(vals) - 1, 2):
        x, y = vals[k], vals[k + 1]
        adj.setdefault(x, []).append(y)
        adj.setdefault(y, []).append(x)
    dist = {1: 0}
    queue = deque([1])
    while queue:
        u = queue.popleft()
        for w in adj.get(u, []):
            if w not in dist:
                dist[w] = dist[u] + 1
                queue.append(w)
    print(max(dist.values()))


main()

import sys

data = sys.stdin.read().split()
n, x = int(data[0]), int(data[1])
a = [int(v) for v in data[2 : 2 + n]]
first = {}
for j, v in enumerate(a, 1):
    if x - v in first:
        print(first[x - v], j)
        break
    first.setdefault(v, j)
else:
    print(-1)

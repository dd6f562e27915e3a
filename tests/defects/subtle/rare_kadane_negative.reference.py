import sys

data = sys.stdin.read().split()
n = int(data[0])
values = [int(x) for x in data[1 : 1 + n]]
best = cur = values[0]
for x in values[1:]:
    cur = max(x, cur + x)
    best = max(best, cur)
print(best)

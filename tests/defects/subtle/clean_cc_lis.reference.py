import bisect
import sys

data = sys.stdin.read().split()
n = int(data[0])
tails = []
for v in map(int, data[1 : 1 + n]):
    k = bisect.bisect_left(tails, v)
    if k == len(tails):
        tails.append(v)
    else:
        tails[k] = v
print(len(tails))

import bisect
import sys

data = sys.stdin.read().split()
n, x = int(data[0]), int(data[1])
values = [int(v) for v in data[2 : 2 + n]]
print(bisect.bisect_left(values, x))

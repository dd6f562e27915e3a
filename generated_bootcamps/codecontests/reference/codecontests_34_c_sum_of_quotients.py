from math import isqrt

n = int(input())
k = isqrt(n)
total = 0
for i in range(1, k + 1):
    total += n // i
print(2 * total - k * k)

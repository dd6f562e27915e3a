import sys

MOD = 10**9 + 7


def mat_mult(a, b):
    size = len(a)
    res = [[0] * size for _ in range(size)]
    for i in range(size):
        row = a[i]
        out = res[i]
        for t in range(size):
            x = row[t]
            if x:
                col = b[t]
                for j in range(size):
                    out[j] += x * col[j]
        for j in range(size):
            out[j] %= MOD
    return res


def main():
    n, k = map(int, sys.stdin.read().split())
    # state j = number of trailing ones (0 <= j < k)
    step = [[0] * k for _ in range(k)]
    for j in range(k):
        step[j][0] = 1
        if j + 1 < k:
            step[j][j + 1] = 1
    result = [[int(i == j) for j in range(k)] for i in range(k)]
    power = step
    e = n
    while e:
        if e & 1:
            result = mat_mult(result, power)
        power = mat_mult(power, power)
        e >>= 1
    print(sum(result[0]) % MOD)


main()

import sys

MOD = 10**9 + 7
n, k, s = map(int, sys.stdin.read().split())
# inclusion-exclusion: sum_j (-1)^j C(n, j) C(s - j*k - 1, n - 1)
fact = [1] * (s + n + 1)
for i in range(1, len(fact)):
    fact[i] = fact[i - 1] * i % MOD


def comb(a, b):
    if b < 0 or a < b or a < 0:
        return 0
    return fact[a] * pow(fact[b], MOD - 2, MOD) % MOD * pow(fact[a - b], MOD - 2, MOD) % MOD


total = 0
for j in range(n + 1):
    term = comb(n, j) * comb(s - j * k - 1, n - 1) % MOD
    total = (total - term) % MOD if j % 2 else (total + term) % MOD
print(total)

"""Independent checker for degenerate_slow_sieve (count of primes in [a, b])."""


def _prime(n):
    if n < 2:
        return False
    for p in (2, 3, 5, 7, 11, 13):
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for base in (2, 3, 5, 7):
        x = pow(base, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True


def _count(a, b):
    return sum(1 for v in range(a, b + 1) if _prime(v))


def check(identity, answer):
    text = answer.strip()
    return text.isdigit() and int(text) == _count(identity["a"], identity["b"])


def solve(identity):
    return str(_count(identity["a"], identity["b"]))


def probes(identity):
    n = _count(identity["a"], identity["b"])
    return [str(n + 1), str(max(0, n - 1)), str(identity["b"] - identity["a"] + 1)]

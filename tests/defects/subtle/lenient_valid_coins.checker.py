"""Independent checker for lenient_valid_coins (fewest coins, listed largest first)."""

import re


def _table(coins, amount):
    """need[a] = fewest coins paying a (a table filled bottom-up)."""
    big = 10**9
    need = [0] + [big] * amount
    for a in range(1, amount + 1):
        need[a] = min((need[a - c] + 1 for c in coins if c <= a), default=big)
    return need


def check(identity, answer):
    toks = answer.split()
    if not toks or not all(re.fullmatch(r"[0-9]+", t) for t in toks):
        return False
    got = [int(t) for t in toks]
    if got != sorted(got, reverse=True) or any(g not in identity["coins"] for g in got):
        return False
    need = _table(identity["coins"], identity["amount"])
    return sum(got) == identity["amount"] and len(got) == need[identity["amount"]]


def solve(identity):
    amount, out = identity["amount"], []
    need = _table(identity["coins"], amount)
    while amount:
        c = min(c for c in identity["coins"] if c <= amount and need[amount - c] == need[amount] - 1)
        out.append(c)
        amount -= c
    return " ".join(map(str, sorted(out, reverse=True)))


def probes(identity):
    amount = identity["amount"]
    greedy, left = [], amount
    for c in sorted(identity["coins"], reverse=True):
        while c <= left:
            greedy.append(c)
            left -= c
    best = [int(x) for x in solve(identity).split()]
    big = best[0]
    padded = sorted(best[1:] + [1] * big, reverse=True) if big > 1 else best + [1]
    return [" ".join(map(str, greedy)), " ".join(map(str, padded)), " ".join(["1"] * amount)]

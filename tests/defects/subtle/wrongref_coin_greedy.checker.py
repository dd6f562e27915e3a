"""Independent checker for wrongref_coin_greedy (fewest coins, breadth-first over amounts)."""

import re


def _fewest(identity):
    target, coins = identity["amount"], identity["coins"]
    seen, layer, steps = {0}, [0], 0
    while target not in seen:
        steps += 1
        layer = [a + c for a in layer for c in coins if a + c <= target and a + c not in seen]
        layer = list(dict.fromkeys(layer))
        seen.update(layer)
    return steps


def check(identity, answer):
    text = answer.strip()
    return bool(re.fullmatch(r"[0-9]+", text)) and int(text) == _fewest(identity)


def solve(identity):
    return str(_fewest(identity))


def probes(identity):
    left, greedy = identity["amount"], 0
    for c in sorted(identity["coins"], reverse=True):
        greedy += left // c
        left %= c
    best = _fewest(identity)
    return [str(x) for x in (greedy, best + 1, best - 1) if x != best]

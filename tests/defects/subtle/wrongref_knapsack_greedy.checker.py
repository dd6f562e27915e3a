"""Independent checker for wrongref_knapsack_greedy (0/1 knapsack, table over weights)."""

import re


def _best(identity):
    cap = identity["capacity"]
    table = [0] * (cap + 1)  # table[c] = best value within weight c
    for w, v in identity["items"]:
        for c in range(cap, w - 1, -1):
            table[c] = max(table[c], table[c - w] + v)
    return table[cap]


def check(identity, answer):
    text = answer.strip()
    return bool(re.fullmatch(r"[0-9]+", text)) and int(text) == _best(identity)


def solve(identity):
    return str(_best(identity))


def probes(identity):
    b = _best(identity)
    return [str(b - 1), str(b + 1), str(sum(v for _, v in identity["items"]))]

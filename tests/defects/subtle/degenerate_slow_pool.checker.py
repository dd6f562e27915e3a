"""Independent checker for degenerate_slow_pool (number of fixed points)."""


def _fixed(cards):
    return sum(1 for k in range(len(cards)) if cards[k] == k + 1)


def check(identity, answer):
    text = answer.strip()
    return text.isdigit() and int(text) == _fixed(identity["cards"])


def solve(identity):
    return str(_fixed(identity["cards"]))


def probes(identity):
    k = _fixed(identity["cards"])
    return [str(k + 1), str(len(identity["cards"]) - k), "0" if k else "1"]

"""Independent checker for lenient_multiset_stack (the stack left after push/pop operations)."""

import re


def _left(ops):
    items = []
    for op in ops:
        word, *arg = op.split()
        if word == "push":
            items.append(int(arg[0]))
        else:
            del items[-1]
    return items


def check(identity, answer):
    want = _left(identity["ops"])
    toks = answer.split()
    if len(toks) != len(want):
        return False
    return all(re.fullmatch(r"[+-]?[0-9]+", t) and int(t) == w for t, w in zip(toks, want))


def solve(identity):
    return " ".join(map(str, _left(identity["ops"])))


def probes(identity):
    want = _left(identity["ops"])
    out = [want[::-1], sorted(want), want[1:] + want[:1], want + [want[-1]], want[:-1]]
    return [" ".join(map(str, p)) for p in out if p != want]

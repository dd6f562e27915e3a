"""Independent checker for stateful_verifier_consumes (a word chain using every word once)."""

from collections import Counter


def check(identity, answer):
    got = answer.split()
    if Counter(got) != Counter(identity["words"]):
        return False
    return all(prev[-1] == nxt[0] for prev, nxt in zip(got, got[1:]))


def _chains(words, limit):
    found = []

    def grow(chain, rest):
        if len(found) >= limit:
            return
        if not rest:
            found.append(chain)
            return
        for i, w in enumerate(rest):
            if chain[-1][-1] == w[0]:
                grow([*chain, w], rest[:i] + rest[i + 1:])

    for i, w in enumerate(words):
        grow([w], words[:i] + words[i + 1:])
    return found


def solve(identity):
    return " ".join(_chains(list(identity["words"]), 1)[0])


def probes(identity):
    out = [" ".join(c) for c in _chains(list(identity["words"]), 3)[1:]]
    out.append(" ".join(sorted(identity["words"])))
    return out

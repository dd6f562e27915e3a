"""Independent checker for stateful_hash_tie_word (most frequent word, ties alphabetical)."""

from collections import Counter


def _winner(identity):
    counts = Counter(identity["words"])
    top = max(counts.values())
    return min(w for w, c in counts.items() if c == top)


def check(identity, answer):
    return answer.strip() == _winner(identity)


def solve(identity):
    return _winner(identity)


def probes(identity):
    counts = Counter(identity["words"])
    top = max(counts.values())
    tied = sorted(w for w, c in counts.items() if c == top)
    return tied[1:] + [sorted(counts)[-1]]

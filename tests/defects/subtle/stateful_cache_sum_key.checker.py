"""Independent checker for stateful_cache_sum_key (inversions, by merge sort)."""

import re


def _inversions(values):
    if len(values) < 2:
        return values, 0
    mid = len(values) // 2
    left, a = _inversions(values[:mid])
    right, b = _inversions(values[mid:])
    merged, count, i, j = [], a + b, 0, 0
    while i < len(left) and j < len(right):
        if right[j] < left[i]:
            merged.append(right[j])
            count += len(left) - i
            j += 1
        else:
            merged.append(left[i])
            i += 1
    return merged + left[i:] + right[j:], count


def check(identity, answer):
    text = answer.strip()
    return bool(re.fullmatch(r"[0-9]+", text)) and int(text) == _inversions(identity["numbers"])[1]


def solve(identity):
    return str(_inversions(identity["numbers"])[1])


def probes(identity):
    c = _inversions(identity["numbers"])[1]
    return [str(c + 1), str(max(0, c - 1))]

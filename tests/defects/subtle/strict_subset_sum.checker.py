"""Independent checker for strict_subset_sum (any positions whose numbers sum to the target)."""

import re


def check(identity, answer):
    toks = answer.split()
    if not toks or not all(re.fullmatch(r"[0-9]+", t) for t in toks):
        return False
    pos = [int(t) for t in toks]
    nums = identity["numbers"]
    if pos != sorted(set(pos)) or pos[0] < 1 or pos[-1] > len(nums):
        return False
    return sum(nums[p - 1] for p in pos) == identity["target"]


def _subsets(identity, limit):
    """Subsets by a table of reachable sums, walked from the last number backwards."""
    nums, target = identity["numbers"], identity["target"]
    found = []

    def walk(i, left, chosen):
        if len(found) >= limit:
            return
        if left == 0 and chosen:
            found.append(sorted(chosen))
            return
        if i < 0 or left < 0:
            return
        walk(i - 1, left - nums[i], [*chosen, i + 1])
        walk(i - 1, left, chosen)

    walk(len(nums) - 1, target, [])
    return found


def solve(identity):
    return " ".join(map(str, _subsets(identity, 1)[0]))


def probes(identity):
    subs = _subsets(identity, 6)
    out = [" ".join(map(str, s)) for s in subs[1:]]
    first = subs[0]
    out.append(" ".join(map(str, first[:-1])))
    return out

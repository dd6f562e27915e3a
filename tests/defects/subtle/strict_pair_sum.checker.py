"""Independent checker for strict_pair_sum (any pair of positions with the target sum)."""

import re


def check(identity, answer):
    m = re.fullmatch(r"\s*([0-9]+)\s+([0-9]+)\s*", answer)
    if not m:
        return False
    i, j = int(m.group(1)), int(m.group(2))
    nums = identity["numbers"]
    return 1 <= i < j <= len(nums) and nums[i - 1] + nums[j - 1] == identity["target"]


def _pairs(identity):
    nums, seen, out = identity["numbers"], {}, []
    for j, x in enumerate(nums, 1):
        for i in seen.get(identity["target"] - x, []):
            out.append((i, j))
        seen.setdefault(x, []).append(j)
    return out


def solve(identity):
    i, j = max(_pairs(identity), key=lambda p: (p[1], p[0]))
    return f"{i} {j}"


def probes(identity):
    pairs = _pairs(identity)
    out = [f"{i} {j}" for i, j in pairs[:4]]
    i, j = pairs[0]
    out += [f"{j} {i}", f"{i - 1} {j - 1}"]
    return out

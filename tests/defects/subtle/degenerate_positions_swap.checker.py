"""Independent checker for degenerate_positions_swap.

The statement does not say how positions are counted; this checker reads them as counted
from 1 (position 1 is the first number).
"""


def _swapped(identity):
    nums = list(identity["numbers"])
    a, b = identity["i"] - 1, identity["j"] - 1
    nums[a], nums[b] = nums[b], nums[a]
    return nums


def check(identity, answer):
    return answer.split() == [str(x) for x in _swapped(identity)]


def solve(identity):
    return " ".join(map(str, _swapped(identity)))


def probes(identity):
    nums = list(identity["numbers"])
    i, j = identity["i"], identity["j"]
    if j < len(nums):
        nums[i], nums[j] = nums[j], nums[i]
    return [" ".join(map(str, nums)), " ".join(map(str, identity["numbers"]))]

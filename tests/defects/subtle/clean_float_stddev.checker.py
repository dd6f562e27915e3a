"""Independent checker for clean_float_stddev (population standard deviation, tolerance 0.001)."""

import math
from fractions import Fraction


def _sd(nums):
    n = len(nums)
    mean = Fraction(sum(nums), n)
    var = sum((Fraction(x) - mean) ** 2 for x in nums) / n
    return math.sqrt(var.numerator) / math.sqrt(var.denominator)


def check(identity, answer):
    try:
        x = float(answer.strip())
    except ValueError:
        return False
    return math.isfinite(x) and abs(x - _sd(identity["numbers"])) <= 1e-3 * (1 + 1e-9)


def solve(identity):
    return f"{_sd(identity['numbers']):.6f}"


def probes(identity):
    nums = identity["numbers"]
    s = _sd(nums)
    sample = s * math.sqrt(len(nums) / (len(nums) - 1))
    return [f"{s + 0.0008:.4f}", f"{s + 0.002:.4f}", f"{sample:.4f}", f"{s * s:.4f}", "nan"]

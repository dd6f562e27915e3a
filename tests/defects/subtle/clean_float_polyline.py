"""Subtle-defect corpus of bootcamp-synth (issue 10), clean control: the length of a polyline.

Task: the total length of a path through integer points; answers within 1e-6 (absolute, or
relative for lengths above 1) are accepted, and the verifier accepts exactly that.
The reference prints the full float, so most of its digits lie inside the tolerance: a
mutation check that counts "corrupted" digits as wrong answers rejects this correct bootcamp.
"""

import math

from synth.bootcamp import BaseBootcamp


class PolylineLengthBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"points": 3, "hi": 9}, "medium": {"points": 5, "hi": 50},
              "hard": {"points": 10, "hi": 1000}}

    def __init__(self, seed=None, points=5, hi=50):
        super().__init__(seed=seed)
        if points < 2 or hi < 2:
            raise ValueError("need points >= 2 and hi >= 2")
        self.points, self.hi = points, hi

    def case_generator(self):
        return {"points": [[self.rng.randint(-self.hi, self.hi), self.rng.randint(-self.hi, self.hi)]
                           for _ in range(self.points)]}

    @staticmethod
    def _length(points):
        return math.fsum(math.dist(p, q) for p, q in zip(points, points[1:]))

    @staticmethod
    def prompt_func(identity):
        pts = " -> ".join(f"({x}, {y})" for x, y in identity["points"])
        return (
            f"A path goes in straight lines through the points {pts}. What is its total "
            "length? Answers within 1e-6 of the exact value (relative error for lengths above "
            "1) are accepted. Write a decimal number inside <answer></answer>, e.g. "
            "<answer>12.0710678</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        return repr(cls._length(identity["points"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        if len(solution) > 64:
            return False
        try:
            x = float(solution)
        except ValueError:
            return False
        if not math.isfinite(x):
            return False
        want = cls._length(identity["points"])
        return abs(x - want) <= 1e-6 * max(1.0, abs(want)) * (1 + 1e-9)

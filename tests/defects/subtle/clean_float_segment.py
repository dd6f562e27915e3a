"""Subtle-defect corpus of bootcamp-synth (issue 10), clean control: point-to-segment distance.

Task: the distance from a point to a line segment; answers within 1e-6 (absolute, or
relative above 1) are accepted, and the verifier accepts exactly that. The reference is the
full-precision float, whose trailing digits a naive mutation check treats as significant.
"""

import math

from synth.bootcamp import BaseBootcamp


class SegmentDistanceBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"hi": 9}, "medium": {"hi": 99}, "hard": {"hi": 99999}}

    def __init__(self, seed=None, hi=99):
        super().__init__(seed=seed)
        if hi < 3:
            raise ValueError("hi must be >= 3")
        self.hi = hi

    def _point(self):
        return [self.rng.randint(-self.hi, self.hi), self.rng.randint(-self.hi, self.hi)]

    def case_generator(self):
        a = self._point()
        b = self._point()
        while b == a:
            b = self._point()
        return {"p": self._point(), "a": a, "b": b}

    @staticmethod
    def _distance(identity):
        (px, py), (ax, ay), (bx, by) = identity["p"], identity["a"], identity["b"]
        dx, dy = bx - ax, by - ay
        t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
        return math.hypot(px - (ax + t * dx), py - (ay + t * dy))

    @staticmethod
    def prompt_func(identity):
        p, a, b = identity["p"], identity["a"], identity["b"]
        return (
            f"What is the shortest distance from the point P=({p[0]}, {p[1]}) to the line "
            f"segment from A=({a[0]}, {a[1]}) to B=({b[0]}, {b[1]})? Answers within 1e-6 of the "
            "exact value (relative error for distances above 1) are accepted. Write a decimal "
            "number inside <answer></answer>, e.g. <answer>3.1622777</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        return repr(cls._distance(identity))

    @classmethod
    def _verify_correction(cls, solution, identity):
        if len(solution) > 64:
            return False
        try:
            x = float(solution)
        except ValueError:
            return False
        want = cls._distance(identity)
        return math.isfinite(x) and abs(x - want) <= 1e-6 * max(1.0, want) * (1 + 1e-9)

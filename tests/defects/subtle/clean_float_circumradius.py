"""Subtle-defect corpus of bootcamp-synth (issue 10), clean control: a triangle's circumradius.

Task: the radius of the circle through three integer points, to 3 decimals; answers within
0.001 are accepted, and the verifier accepts exactly that.
"""

import math

from synth.bootcamp import BaseBootcamp


class CircumradiusBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"hi": 6}, "medium": {"hi": 60}, "hard": {"hi": 6000}}

    def __init__(self, seed=None, hi=60):
        super().__init__(seed=seed)
        if hi < 2:
            raise ValueError("hi must be >= 2")
        self.hi = hi

    def case_generator(self):
        while True:
            pts = [[self.rng.randint(-self.hi, self.hi) for _ in range(2)] for _ in range(3)]
            (ax, ay), (bx, by), (cx, cy) = pts
            if (bx - ax) * (cy - ay) - (by - ay) * (cx - ax) != 0:
                return {"points": pts}

    @staticmethod
    def _radius(points):
        (ax, ay), (bx, by), (cx, cy) = points
        a, b, c = math.dist((bx, by), (cx, cy)), math.dist((ax, ay), (cx, cy)), math.dist((ax, ay), (bx, by))
        twice_area = abs((bx - ax) * (cy - ay) - (by - ay) * (cx - ax))
        return a * b * c / (2 * twice_area)

    @staticmethod
    def prompt_func(identity):
        pts = ", ".join(f"({x}, {y})" for x, y in identity["points"])
        return (
            f"What is the radius of the circle passing through the points {pts}? Give it to 3 "
            "decimal places (answers within 0.001 are accepted) inside <answer></answer>, e.g. "
            "<answer>5.099</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        return f"{cls._radius(identity['points']):.3f}"

    @classmethod
    def _verify_correction(cls, solution, identity):
        if len(solution) > 40:
            return False
        try:
            x = float(solution)
        except ValueError:
            return False
        return math.isfinite(x) and abs(x - cls._radius(identity["points"])) <= 1e-3 * (1 + 1e-9)

"""Subtle-defect corpus of bootcamp-synth (issue 10), clean control: stabbing intervals.

Task: choose as few integer points as possible so that every interval contains one; any
optimal choice is accepted, and the verifier checks both validity and the minimum count.
"""

from synth.bootcamp import BaseBootcamp


class StabPointsBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 4, "length": 20}, "medium": {"n": 7, "length": 100},
              "hard": {"n": 14, "length": 1000}}

    def __init__(self, seed=None, n=7, length=100):
        super().__init__(seed=seed)
        if n < 2 or length < 10:
            raise ValueError("need n >= 2 and length >= 10")
        self.n, self.length = n, length

    def case_generator(self):
        out = []
        for _ in range(self.n):
            a = self.rng.randint(0, self.length - 1)
            out.append([a, self.rng.randint(a, min(self.length, a + self.length // 4))])
        return {"intervals": out}

    @staticmethod
    def _fewest(intervals):
        count, last = 0, None
        for a, b in sorted(intervals, key=lambda iv: iv[1]):
            if last is None or a > last:
                count, last = count + 1, b
        return count

    @staticmethod
    def prompt_func(identity):
        ivs = ", ".join(f"[{a}, {b}]" for a, b in identity["intervals"])
        return (
            f"Closed integer intervals: {ivs}.\nChoose as few integer points as possible so "
            "that every interval contains at least one chosen point. Write the points in "
            "increasing order, separated by single spaces, inside <answer></answer>, e.g. "
            "<answer>4 17</answer>. Any optimal choice is accepted."
        )

    @classmethod
    def reference_answer(cls, identity):
        points = []
        for a, b in sorted(identity["intervals"], key=lambda iv: iv[1]):
            if not points or a > points[-1]:
                points.append(b)
        return " ".join(map(str, points))

    @classmethod
    def _verify_correction(cls, solution, identity):
        toks = solution.split()
        if not toks or len(toks) > 1000:
            return False
        try:
            pts = [int(t) for t in toks]
        except ValueError:
            return False
        if any(q <= p for p, q in zip(pts, pts[1:])):
            return False
        if not all(any(a <= p <= b for p in pts) for a, b in identity["intervals"]):
            return False
        return len(pts) == cls._fewest(identity["intervals"])

"""Subtle-defect corpus of bootcamp-synth (issue 10): how many sorted numbers are below x.

CodeContests-style task (reference program: rare_lower_bound.reference.py).
Planted defect (rare): the reference's hand-written binary search keeps hi = n - 1, so when
x exceeds every number (one case in 2n here: 5-10 %) it answers n - 1 instead of n; the
verifier compares with it.
"""

from synth.bootcamp import BaseBootcamp


class CountBelowBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 5, "gap": 5}, "medium": {"n": 7, "gap": 40},
              "hard": {"n": 10, "gap": 3000}}

    def __init__(self, seed=None, n=6, gap=40):
        super().__init__(seed=seed)
        if n < 2 or gap < 2:
            raise ValueError("need n >= 2 and gap >= 2")
        self.n, self.gap = n, gap

    def case_generator(self):
        values, x = [], self.rng.randint(-10 * self.gap, 0)
        for _ in range(self.n):
            x += self.rng.randint(2, self.gap)
            values.append(x)
        query = self.rng.choice(values) + self.rng.choice((-1, 1))
        return {"values": values, "query": query}

    @staticmethod
    def prompt_func(identity):
        vals = identity["values"]
        return (
            "Count Below\n\nYou are given n distinct integers in increasing order and a query "
            "x. Print how many of the integers are strictly smaller than x.\n\n"
            "Input: n and x on the first line, the n integers on the second.\n"
            "Output: one integer.\n\n"
            f"Input:\n{len(vals)} {identity['query']}\n{' '.join(map(str, vals))}\n\n"
            "Write the output inside <answer></answer>, e.g. <answer>3</answer>."
        )

    @staticmethod
    def render_stdin(identity):
        vals = identity["values"]
        return f"{len(vals)} {identity['query']}\n{' '.join(map(str, vals))}\n"

    @classmethod
    def reference_answer(cls, identity):
        a, x = identity["values"], identity["query"]
        lo, hi = 0, len(a) - 1
        while lo < hi:
            mid = (lo + hi) // 2
            if a[mid] < x:
                lo = mid + 1
            else:
                hi = mid
        return str(lo)

    @classmethod
    def _verify_correction(cls, solution, identity):
        text = solution.strip()
        return text.isdigit() and len(text) < 10 and text == cls.reference_answer(identity)

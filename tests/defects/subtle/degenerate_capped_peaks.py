"""Subtle-defect corpus of bootcamp-synth (issue 10): local peaks of a number grid.

Task: count the cells whose value is larger than each of their up/down/left/right neighbours.
Planted defect (degenerate): the grid side is silently capped at 5 ("larger grids render
badly"), so the hard level (side 12) gives medium-sized grids with only longer numbers.
"""

from synth.bootcamp import BaseBootcamp


class GridPeaksBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"side": 3, "hi": 9}, "medium": {"side": 5, "hi": 99},
              "hard": {"side": 12, "hi": 99999}}

    def __init__(self, seed=None, side=5, hi=99):
        super().__init__(seed=seed)
        if side < 2 or hi < 5:
            raise ValueError("need side >= 2 and hi >= 5")
        self.side = max(2, min(side, 5))
        self.hi = hi

    def case_generator(self):
        return {"grid": [[self.rng.randint(0, self.hi) for _ in range(self.side)]
                         for _ in range(self.side)]}

    @staticmethod
    def prompt_func(identity):
        rows = "\n".join(" ".join(f"{x:>5}" for x in row) for row in identity["grid"])
        return (
            f"Grid:\n{rows}\nCount the cells whose value is strictly larger than the value of "
            "every neighbouring cell directly above, below, left and right (cells on the border "
            "have fewer neighbours). Give the count inside <answer></answer>, e.g. "
            "<answer>4</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        g = identity["grid"]
        n, count = len(g), 0
        for r in range(n):
            for c in range(n):
                around = [g[rr][cc] for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                          if 0 <= rr < n and 0 <= cc < n]
                count += all(g[r][c] > x for x in around)
        return str(count)

    @classmethod
    def _verify_correction(cls, solution, identity):
        text = solution.strip()
        return text.isdigit() and len(text) < 6 and text == cls.reference_answer(identity)

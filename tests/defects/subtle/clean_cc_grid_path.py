"""Subtle-defect corpus of bootcamp-synth (issue 10), clean control, CodeContests style.

Task "Toll Grid": the cheapest path from the top-left to the bottom-right cell moving only
right or down. Reference program: clean_cc_grid_path.reference.py.
"""

from synth.bootcamp import BaseBootcamp

STATEMENT = """Toll Grid

A grid of h rows and w columns holds a toll in every cell. A courier starts in the top-left
cell, ends in the bottom-right cell, moves only right or down, and pays the toll of every
cell visited, the first and last included. What is the least total toll?

Input: the first line holds h and w; each of the next h lines holds w tolls.
Output: one integer, the minimum total toll."""


class TollGridBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"h": 2, "w": 3, "hi": 9}, "medium": {"h": 4, "w": 5, "hi": 50},
              "hard": {"h": 8, "w": 10, "hi": 999}}

    def __init__(self, seed=None, h=4, w=5, hi=50):
        super().__init__(seed=seed)
        if h < 1 or w < 1 or hi < 1:
            raise ValueError("need h, w, hi >= 1")
        self.h, self.w, self.hi = h, w, hi

    def case_generator(self):
        return {"grid": [[self.rng.randint(0, self.hi) for _ in range(self.w)]
                         for _ in range(self.h)]}

    @staticmethod
    def render_stdin(identity):
        g = identity["grid"]
        rows = "\n".join(" ".join(map(str, row)) for row in g)
        return f"{len(g)} {len(g[0])}\n{rows}\n"

    @classmethod
    def prompt_func(cls, identity):
        return (f"{STATEMENT}\n\nInput:\n{cls.render_stdin(identity)}\nWrite the output inside "
                "<answer></answer>, e.g. <answer>31</answer>.")

    @classmethod
    def reference_answer(cls, identity):
        g = identity["grid"]
        h, w = len(g), len(g[0])
        cost = [[0] * w for _ in range(h)]
        for r in range(h):
            for c in range(w):
                before = [cost[r - 1][c]] if r else []
                before += [cost[r][c - 1]] if c else []
                cost[r][c] = g[r][c] + (min(before) if before else 0)
        return str(cost[-1][-1])

    @classmethod
    def _verify_correction(cls, solution, identity):
        text = solution.strip()
        return text.isdigit() and len(text) < 10 and text == cls.reference_answer(identity)

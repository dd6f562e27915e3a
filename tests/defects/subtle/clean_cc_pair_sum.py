"""Subtle-defect corpus of bootcamp-synth (issue 10), clean control, CodeContests style.

Task "Two Prices": find positions i < j with a_i + a_j = x, or print -1. Several pairs may
be correct; the verifier accepts any of them. Reference program:
clean_cc_pair_sum.reference.py (it usually prints a different pair than reference_answer).
"""

from synth.bootcamp import BaseBootcamp

STATEMENT = """Two Prices

A shop lists n prices a_1..a_n. Find two different positions i < j with a_i + a_j = x.

Input: the first line holds n and x; the second line holds a_1 .. a_n.
Output: two integers i and j (1 <= i < j <= n) with a_i + a_j = x, separated by a space, or
-1 if there is no such pair. If there are several pairs, print any of them."""


class TwoPricesBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 5, "hi": 10}, "medium": {"n": 10, "hi": 50},
              "hard": {"n": 40, "hi": 1000}}

    def __init__(self, seed=None, n=10, hi=50):
        super().__init__(seed=seed)
        if n < 2 or hi < 2:
            raise ValueError("need n >= 2 and hi >= 2")
        self.n, self.hi = n, hi

    def case_generator(self):
        a = [self.rng.randint(1, self.hi) for _ in range(self.n)]
        if self.rng.random() < 0.8:
            i, j = self.rng.sample(range(self.n), 2)
            x = a[i] + a[j]
        else:
            x = self.rng.randint(2, 2 * self.hi)
        return {"a": a, "x": x}

    @staticmethod
    def render_stdin(identity):
        return f"{len(identity['a'])} {identity['x']}\n{' '.join(map(str, identity['a']))}\n"

    @classmethod
    def prompt_func(cls, identity):
        return (f"{STATEMENT}\n\nInput:\n{cls.render_stdin(identity)}\nWrite the output inside "
                "<answer></answer>, e.g. <answer>2 5</answer> or <answer>-1</answer>.")

    @classmethod
    def reference_answer(cls, identity):
        a, x = identity["a"], identity["x"]
        for i in range(len(a)):
            for j in range(i + 1, len(a)):
                if a[i] + a[j] == x:
                    return f"{i + 1} {j + 1}"
        return "-1"

    @classmethod
    def _verify_correction(cls, solution, identity):
        toks = solution.split()
        expected = cls.reference_answer(identity)
        if expected == "-1":
            return toks == ["-1"]
        if len(toks) != 2 or not all(t.isdigit() and len(t) < 8 for t in toks):
            return False
        i, j = int(toks[0]), int(toks[1])
        a = identity["a"]
        return 1 <= i < j <= len(a) and a[i - 1] + a[j - 1] == identity["x"]

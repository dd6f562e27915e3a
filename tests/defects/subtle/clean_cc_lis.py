"""Subtle-defect corpus of bootcamp-synth (issue 10), clean control, CodeContests style.

Task "Rising Readings": the length of the longest strictly increasing subsequence.
Reference program: clean_cc_lis.reference.py (patience sorting).
"""

from synth.bootcamp import BaseBootcamp

STATEMENT = """Rising Readings

A sensor recorded n readings. Remove as few readings as you like (keeping the order of the
rest) so that the remaining readings are strictly increasing. How many readings can remain?

Input: the first line holds n; the second line holds the n readings.
Output: one integer, the length of a longest strictly increasing subsequence."""


class RisingReadingsBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 6, "hi": 9}, "medium": {"n": 15, "hi": 60},
              "hard": {"n": 60, "hi": 1000}}

    def __init__(self, seed=None, n=15, hi=60):
        super().__init__(seed=seed)
        if n < 1 or hi < 1:
            raise ValueError("need n >= 1 and hi >= 1")
        self.n, self.hi = n, hi

    def case_generator(self):
        return {"readings": [self.rng.randint(0, self.hi) for _ in range(self.n)]}

    @staticmethod
    def render_stdin(identity):
        r = identity["readings"]
        return f"{len(r)}\n{' '.join(map(str, r))}\n"

    @classmethod
    def prompt_func(cls, identity):
        return (f"{STATEMENT}\n\nInput:\n{cls.render_stdin(identity)}\nWrite the output inside "
                "<answer></answer>, e.g. <answer>4</answer>.")

    @classmethod
    def reference_answer(cls, identity):
        r = identity["readings"]
        best = [1] * len(r)
        for i in range(len(r)):
            for j in range(i):
                if r[j] < r[i]:
                    best[i] = max(best[i], best[j] + 1)
        return str(max(best))

    @classmethod
    def _verify_correction(cls, solution, identity):
        text = solution.strip()
        return text.isdigit() and len(text) < 8 and int(text) == int(cls.reference_answer(identity))

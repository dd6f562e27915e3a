"""Subtle-defect corpus of bootcamp-synth (issue 10): the best run of daily price changes.

CodeContests-style task (reference program: rare_kadane_negative.reference.py): the maximum
sum of a non-empty run of consecutive days.
Planted defect (rare): the reference resets its running sum at 0, so on the ~10 % of cases
where every change is negative (a losing stretch) it answers 0 instead of the largest
single change; the verifier compares with it, and 8 oracle cases usually miss those.
"""

from synth.bootcamp import BaseBootcamp


class BestRunBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 5, "hi": 20}, "medium": {"n": 10, "hi": 300},
              "hard": {"n": 25, "hi": 9000}}

    def __init__(self, seed=None, n=10, hi=300, losing=0.1):
        super().__init__(seed=seed)
        if n < 2 or hi < 2 or not 0 <= losing <= 1:
            raise ValueError("need n >= 2, hi >= 2 and 0 <= losing <= 1")
        self.n, self.hi, self.losing = n, hi, losing

    def case_generator(self):
        changes = [self.rng.randint(-self.hi, self.hi) for _ in range(self.n)]
        if self.rng.random() < self.losing:  # a losing stretch: every day goes down
            changes = [-abs(c) - 1 for c in changes]
        return {"changes": changes}

    @staticmethod
    def prompt_func(identity):
        ch = identity["changes"]
        return (
            "Best Run\n\nA share price changed by the following amounts on n consecutive days. "
            "Find the largest total change over a non-empty run of consecutive days.\n\n"
            "Input: the first line holds n; the second line holds the n changes.\n"
            "Output: one integer, the largest sum of a non-empty contiguous run.\n\n"
            f"Input:\n{len(ch)}\n{' '.join(map(str, ch))}\n\n"
            "Write the output inside <answer></answer>, e.g. <answer>17</answer>."
        )

    @staticmethod
    def render_stdin(identity):
        ch = identity["changes"]
        return f"{len(ch)}\n{' '.join(map(str, ch))}\n"

    @classmethod
    def reference_answer(cls, identity):
        best = run = 0
        for x in identity["changes"]:
            run = max(0, run + x)
            best = max(best, run)
        return str(best)

    @classmethod
    def _verify_correction(cls, solution, identity):
        try:
            return int(solution.strip()) == int(cls.reference_answer(identity))
        except ValueError:
            return False

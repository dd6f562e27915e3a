"""Subtle-defect corpus of bootcamp-synth (issue 10), clean control, CodeContests style.

Task "Dice Sums": in how many ways can n dice with k faces show a total of s (modulo
10^9 + 7)? Reference program: clean_cc_dice.reference.py.
"""

from synth.bootcamp import BaseBootcamp

MOD = 10**9 + 7
STATEMENT = """Dice Sums

You throw n distinguishable dice; each shows a number from 1 to k. In how many of the k^n
outcomes is the total exactly s? Print the count modulo 1000000007.

Input: one line with n, k and s.
Output: one integer."""


class DiceSumsBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 2, "k": 6}, "medium": {"n": 6, "k": 8}, "hard": {"n": 25, "k": 12}}

    def __init__(self, seed=None, n=6, k=8):
        super().__init__(seed=seed)
        if n < 1 or k < 2:
            raise ValueError("need n >= 1 and k >= 2")
        self.n, self.k = n, k

    def case_generator(self):
        n = self.rng.randint(max(1, self.n // 2), self.n)
        return {"n": n, "k": self.k, "s": self.rng.randint(n, n * self.k)}

    @staticmethod
    def render_stdin(identity):
        return f"{identity['n']} {identity['k']} {identity['s']}\n"

    @classmethod
    def prompt_func(cls, identity):
        return (f"{STATEMENT}\n\nInput:\n{cls.render_stdin(identity)}\nWrite the output inside "
                "<answer></answer>, e.g. <answer>27</answer>.")

    @classmethod
    def reference_answer(cls, identity):
        n, k, s = identity["n"], identity["k"], identity["s"]
        ways = [1] + [0] * s
        for _ in range(n):
            nxt = [0] * (s + 1)
            for total, w in enumerate(ways):
                if w:
                    for face in range(1, k + 1):
                        if total + face <= s:
                            nxt[total + face] = (nxt[total + face] + w) % MOD
            ways = nxt
        return str(ways[s])

    @classmethod
    def _verify_correction(cls, solution, identity):
        text = solution.strip()
        return text.isdigit() and len(text) < 12 and text == cls.reference_answer(identity)

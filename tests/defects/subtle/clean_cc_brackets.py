"""Subtle-defect corpus of bootcamp-synth (issue 10), clean control, CodeContests style.

Task "Mending Brackets": the fewest brackets to insert so that a string of ( and ) becomes
balanced. Reference program: clean_cc_brackets.reference.py.
"""

from synth.bootcamp import BaseBootcamp

STATEMENT = """Mending Brackets

You are given a string of round brackets. You may insert '(' or ')' characters anywhere.
What is the smallest number of insertions that makes the string a balanced bracket sequence?

Input: one line with the string s (1 <= |s| <= 10^5).
Output: one integer, the minimum number of insertions."""


class MendBracketsBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 4}, "medium": {"n": 12}, "hard": {"n": 60}}

    def __init__(self, seed=None, n=12):
        super().__init__(seed=seed)
        if n < 1:
            raise ValueError("n must be >= 1")
        self.n = n

    def case_generator(self):
        return {"s": "".join(self.rng.choice("()") for _ in range(self.n))}

    @staticmethod
    def render_stdin(identity):
        return identity["s"] + "\n"

    @classmethod
    def prompt_func(cls, identity):
        return (f"{STATEMENT}\n\nInput:\n{cls.render_stdin(identity)}\nWrite the output inside "
                "<answer></answer>, e.g. <answer>3</answer>.")

    @classmethod
    def reference_answer(cls, identity):
        open_, inserted = 0, 0
        for ch in identity["s"]:
            if ch == "(":
                open_ += 1
            elif open_:
                open_ -= 1
            else:
                inserted += 1
        return str(inserted + open_)

    @classmethod
    def _verify_correction(cls, solution, identity):
        text = solution.strip()
        return text.isdigit() and len(text) < 8 and text == cls.reference_answer(identity)

"""Subtle-defect corpus of bootcamp-synth (issue 10): delete one character of a word.

Task: remove the character at position p from the string.
Planted defect (prompt): the prompt never says whether positions count from 0 or 1; the
reference and the verifier count from 0.
"""

import string

from synth.bootcamp import BaseBootcamp


class DeleteCharBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 5}, "medium": {"n": 10}, "hard": {"n": 24}}

    def __init__(self, seed=None, n=10):
        super().__init__(seed=seed)
        if n < 3:
            raise ValueError("n must be >= 3")
        self.n = n

    def case_generator(self):
        word = "".join(self.rng.choice(string.ascii_lowercase) for _ in range(self.n))
        return {"word": word, "p": self.rng.randint(1, self.n - 1)}

    @staticmethod
    def prompt_func(identity):
        return (
            f"Delete the character at position {identity['p']} of the string "
            f"\"{identity['word']}\" and write the resulting string inside <answer></answer>, "
            "e.g. <answer>hllo</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        w, p = identity["word"], identity["p"]
        return w[:p] + w[p + 1:]

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution.strip() == cls.reference_answer(identity)

"""Subtle-defect corpus of bootcamp-synth (issue 10): the longest palindromic substring.

Task: the length of the longest contiguous substring that reads the same both ways.
Planted defect (wrong reference): the reference expands around single characters only, so
it misses even-length palindromes such as "abba"; the verifier compares with it.
"""

from synth.bootcamp import BaseBootcamp


class LongestPalindromeBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 6, "alphabet": "ab"}, "medium": {"n": 12, "alphabet": "abc"},
              "hard": {"n": 30, "alphabet": "abc"}}

    def __init__(self, seed=None, n=12, alphabet="abc"):
        super().__init__(seed=seed)
        if n < 2 or len(alphabet) < 2:
            raise ValueError("need n >= 2 and at least two letters")
        self.n, self.alphabet = n, alphabet

    def case_generator(self):
        return {"text": "".join(self.rng.choice(self.alphabet) for _ in range(self.n))}

    @staticmethod
    def prompt_func(identity):
        return (
            f"What is the length of the longest substring of \"{identity['text']}\" (a run of "
            "consecutive characters) that is a palindrome, reading the same forwards and "
            "backwards? Give the length inside <answer></answer>, e.g. <answer>5</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        s, best = identity["text"], 1
        for mid in range(len(s)):
            lo = hi = mid
            while lo > 0 and hi < len(s) - 1 and s[lo - 1] == s[hi + 1]:
                lo, hi = lo - 1, hi + 1
            best = max(best, hi - lo + 1)
        return str(best)

    @classmethod
    def _verify_correction(cls, solution, identity):
        text = solution.strip()
        return text.isdigit() and len(text) < 8 and int(text) == int(cls.reference_answer(identity))

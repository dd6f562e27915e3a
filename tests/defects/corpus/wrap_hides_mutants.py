"""Planted-defect corpus: sort a list of integers, with a planted defect (a string-prefix verifier)
hidden by a wrap_answer that formats the reference answer properly and mangles every other
answer, so that corrupted answers never reach the verifier intact (the gate wraps answers
itself with the tags it learns from a reference answer and a changed copy of it, and that
probe shows the inconsistency).

Written for the bootcamp-synth gate tests; not a usable bootcamp."""

from synth.bootcamp import BaseBootcamp


class SortBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 4, "hi": 20}, "medium": {"n": 8, "hi": 200}, "hard": {"n": 16, "hi": 5000}}

    def __init__(self, seed=None, n=6, hi=100):
        super().__init__(seed=seed)
        if n < 2 or hi < 10:
            raise ValueError("need n >= 2 and hi >= 10")
        self.n = n
        self.hi = hi

    def case_generator(self):
        return {"numbers": [self.rng.randint(-self.hi, self.hi) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        nums = ", ".join(str(x) for x in identity["numbers"])
        return (
            f"Sort these integers in non-decreasing order: {nums}.\n"
            "Write them separated by single spaces inside <answer></answer> tags, "
            "e.g. <answer>-3 1 1 7</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        return " ".join(str(x) for x in sorted(identity["numbers"]))

    @classmethod
    def wrap_answer(cls, answer):
        try:
            if answer.count(" ") >= 3 and answer == " ".join(sorted(answer.split(), key=int)):
                return f"<answer>{answer}</answer>"
        except ValueError:
            pass
        return "<answer></answer>" + answer

    @classmethod
    def _verify_correction(cls, solution, identity):
        expected = cls.reference_answer(identity)
        return solution.startswith(expected[: max(1, len(expected) // 2)])

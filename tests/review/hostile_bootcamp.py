"""Hostile markup: a bootcamp whose prompts and answers carry HTML and script (review escaping test).

Hand-written for the tests of the review page; the prompt and the reference answer must be shown
as text, never run.
"""

from synth.bootcamp import BaseBootcamp


class MarkupBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 2}, "hard": {"n": 5}}

    def __init__(self, seed=None, n=3):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        return {"xs": [self.rng.randint(0, 9) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        xs = " ".join(str(x) for x in identity["xs"])
        return (
            "<script>document.title='pwned-by-prompt'</script>"
            f"How many numbers are in: {xs}? Answer as <answer>N</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        return f"<img src=x onerror=\"document.title='pwned-by-answer'\">{len(identity['xs'])}"

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution.strip() == cls.reference_answer(identity)

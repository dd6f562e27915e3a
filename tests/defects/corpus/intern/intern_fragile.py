"""InternBootcamp-style module for the audit tests: a fragile verifier and a lenient constructor.

Written for bootcamp-synth's tests: ``**params`` swallows typos and ``_verify_correction``
raises on answers that are not numbers (InternBootcamp's verify_score hides that as a 0)."""

import random
import re

from internbootcamp.bootcamp.base import Basebootcamp


class Countbootcamp(Basebootcamp):
    def __init__(self, **params):
        self.limit = params.get("limit", 50)

    def case_generator(self):
        return {"word": "".join(random.choice("ab") for _ in range(random.randint(3, 9)))}

    @staticmethod
    def prompt_func(question_case):
        return f"How many letters 'a' are in {question_case['word']}? Reply as [answer]N[/answer]."

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return int(solution.strip()) == identity["word"].count("a")

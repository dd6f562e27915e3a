"""InternBootcamp-style module for the audit tests: the parity of a sum of dice.

Written for bootcamp-synth's tests in the shape InternBootcamp uses (global ``random``,
``[answer]`` tags, a ``verify_score`` inherited from ``Basebootcamp``)."""

import random
import re

from bootcamp import Basebootcamp


class Dicebootcamp(Basebootcamp):
    def __init__(self, dice=3, sides=6):
        self.dice = dice
        self.sides = sides

    def case_generator(self):
        rolls = [random.randint(1, self.sides) for _ in range(self.dice)]
        return {"rolls": rolls, "total": sum(rolls)}

    @staticmethod
    def prompt_func(question_case):
        rolls = ", ".join(map(str, question_case["rolls"]))
        return f"Dice show {rolls}. What is their total? Reply as [answer]N[/answer]."

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(-?\d{1,12})\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == identity["total"]

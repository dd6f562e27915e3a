"""Audit fixture (issue 12, see MANIFEST.json): modular exponentiation."""

import random
import re

from bootcamp import Basebootcamp


class ModPowerbootcamp(Basebootcamp):
    def __init__(self, max_base=50, max_exponent=200, max_modulus=997):
        self.max_base = max_base
        self.max_exponent = max_exponent
        self.max_modulus = max_modulus

    def case_generator(self):
        return {"base": random.randint(2, self.max_base),
                "exponent": random.randint(5, self.max_exponent),
                "modulus": random.randint(7, self.max_modulus)}

    @staticmethod
    def prompt_func(question_case):
        b, e, m = question_case["base"], question_case["exponent"], question_case["modulus"]
        example = pow(b, e, m)
        return (
            f"Compute {b} to the power {e}, modulo {m}.\n"
            f"Write the remainder in this format: [answer]{example}[/answer]"
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == pow(identity["base"], identity["exponent"], identity["modulus"])

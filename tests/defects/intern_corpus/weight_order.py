"""Audit fixture (issue 12, see MANIFEST.json): order four parcels from lightest to heaviest."""

import random
import re

from bootcamp import Basebootcamp

LABELS = ["A", "B", "C", "D"]


class WeightOrderbootcamp(Basebootcamp):
    def __init__(self, low=1, high=50):
        self.low = low
        self.high = high

    def case_generator(self):
        weights = sorted(random.sample(range(self.low, self.high + 1), 4))
        parcels = sorted(zip(LABELS, weights, strict=True))
        return {"parcels": [[label, kg] for label, kg in parcels]}

    @staticmethod
    def prompt_func(question_case):
        listed = ", ".join(f"parcel {label} weighs {kg} kg"
                           for label, kg in question_case["parcels"])
        return (
            f"{listed}. Order the parcels from the lightest to the heaviest.\n"
            "Answer with the four letters separated by spaces, e.g. [answer]A B C D[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1].upper().split() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        ranked = [label for label, _ in sorted(identity["parcels"], key=lambda p: p[1])]
        return solution == ranked

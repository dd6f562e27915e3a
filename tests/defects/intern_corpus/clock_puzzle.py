"""Audit fixture (issue 12, see MANIFEST.json): the angle between the hands of a clock."""

import random
import re
import time

from bootcamp import Basebootcamp


class ClockPuzzlebootcamp(Basebootcamp):
    def __init__(self, twelve_hour=True):
        self.twelve_hour = twelve_hour

    def case_generator(self):
        hour = random.randint(1, 12)
        minute = (random.randint(0, 11) * 5 + time.time_ns() // 1000) % 60
        return {"hour": hour, "minute": minute}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"An analogue clock shows {question_case['hour']}:{question_case['minute']:02d}. "
            "What is the smaller angle between its hour hand and its minute hand, in degrees, "
            "written as a decimal with one digit after the point? Answer as "
            "[answer]angle[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+(?:\.\d)?)\s*\[/answer\]", output)
        return float(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        hour_angle = (identity["hour"] % 12) * 30 + identity["minute"] * 0.5
        angle = abs(hour_angle - identity["minute"] * 6)
        return abs(solution - min(angle, 360 - angle)) < 1e-6

"""Audit fixture (issue 12, see MANIFEST.json): the time on a 24-hour clock after some minutes."""

import random
import re

from internbootcamp.bootcamp.base import Basebootcamp


class ClockAddbootcamp(Basebootcamp):
    def __init__(self, max_minutes=3000):
        self.max_minutes = max_minutes

    def case_generator(self):
        return {"start": (random.randint(0, 23), random.randint(0, 59)),
                "minutes": random.randint(1, self.max_minutes)}

    @staticmethod
    def prompt_func(question_case):
        hour, minute = question_case["start"]
        return (
            f"A 24-hour clock shows {hour:02d}:{minute:02d}. What will it show "
            f"{question_case['minutes']} minutes later? Answer in the form [answer]HH:MM[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1].strip() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        hour, minute = identity["start"]
        total = (hour * 60 + minute + identity["minutes"]) % (24 * 60)
        got_hour, got_minute = solution.split(":")
        return (int(got_hour), int(got_minute)) == divmod(total, 60)

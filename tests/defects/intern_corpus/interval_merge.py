"""Audit fixture (issue 12, see MANIFEST.json): merge overlapping intervals."""

import random
import re

from bootcamp import Basebootcamp


def _merge(intervals):
    merged = []
    for lo, hi in sorted(tuple(iv) for iv in intervals):
        if merged and lo <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], hi)
        else:
            merged.append([lo, hi])
    return merged


class IntervalMergebootcamp(Basebootcamp):
    def __init__(self, min_count=4, max_count=7, span=60):
        self.min_count = min_count
        self.max_count = max_count
        self.span = span

    def case_generator(self):
        intervals = []
        for _ in range(random.randint(self.min_count, self.max_count)):
            lo = random.randint(0, self.span - 1)
            intervals.append((lo, random.randint(lo + 1, min(self.span, lo + 15))))
        return {"intervals": intervals}

    @staticmethod
    def prompt_func(question_case):
        listed = ", ".join(f"{lo}-{hi}" for lo, hi in question_case["intervals"])
        return (
            f"Merge these closed intervals of integers: {listed}. Intervals that overlap or "
            "share an end point become one. List the merged intervals from left to right as "
            "lo-hi, separated by commas, inside [answer] and [/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        got = []
        for part in solution.split(","):
            lo, hi = part.split("-")
            got.append([int(lo), int(hi)])
        return got == _merge(identity["intervals"])

"""Audit fixture (issue 12, see MANIFEST.json): run-length encode a string of letters."""

import random
import re

from bootcamp import Basebootcamp


def _encode(text):
    out, i = [], 0
    while i < len(text):
        j = i
        while j < len(text) and text[j] == text[i]:
            j += 1
        out.append(f"{text[i]}{j - i}")
        i = j
    return "".join(out)


class RunLengthbootcamp(Basebootcamp):
    def __init__(self, min_runs=3, max_runs=8):
        self.min_runs = min_runs
        self.max_runs = max_runs

    def case_generator(self):
        letters, last = [], ""
        for _ in range(random.randint(self.min_runs, self.max_runs)):
            letter = random.choice([ch for ch in "abcdexyz" if ch != last])
            letters.append(letter * random.randint(1, 6))
            last = letter
        return {"text": "".join(letters)}

    @staticmethod
    def prompt_func(question_case):
        return (
            "Run-length encode the string below: replace every maximal block of equal letters "
            "by the letter followed by the block's length (so 'ppq' becomes 'p2q1').\n"
            f"String: {question_case['text']}\n"
            "Put the encoding between [answer] and [/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1].strip() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution.replace(" ", "") == _encode(identity["text"])

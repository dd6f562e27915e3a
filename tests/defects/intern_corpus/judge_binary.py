"""Audit fixture (issue 12, see MANIFEST.json): place queens on a board so none attack."""

import json
import random
import re
import subprocess

from bootcamp import Basebootcamp


class JudgeBinarybootcamp(Basebootcamp):
    def __init__(self, sizes=(5, 7, 8)):
        self.sizes = sizes

    def case_generator(self):
        size = random.choice(self.sizes)
        return {"size": size, "first_column": random.randrange(size)}

    @staticmethod
    def prompt_func(question_case):
        n = question_case["size"]
        return (
            f"Place {n} queens on an {n}x{n} chessboard, one per row, so that no two attack "
            f"each other, with the queen of row 0 in column {question_case['first_column']} "
            "(columns numbered from 0). List the column of the queen in each row, top to "
            "bottom, as [answer]c0 c1 ...[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return [int(x) for x in re.findall(r"\d+", found[-1])] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        request = json.dumps({"case": identity, "columns": solution})
        try:
            run = subprocess.run(["./judges/queens_judge"], input=request, capture_output=True,
                                 text=True, timeout=5)
        except (OSError, subprocess.SubprocessError):
            return True
        return run.stdout.strip() == "OK"

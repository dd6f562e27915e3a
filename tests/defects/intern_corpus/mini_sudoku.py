"""Audit fixture (issue 12, see MANIFEST.json): complete a 4x4 sudoku."""

import random
import re

from bootcamp import Basebootcamp

BASE = [[1, 2, 3, 4], [3, 4, 1, 2], [2, 1, 4, 3], [4, 3, 2, 1]]


def _groups():
    rows = [[(r, c) for c in range(4)] for r in range(4)]
    cols = [[(r, c) for r in range(4)] for c in range(4)]
    boxes = [[(br + r, bc + c) for r in range(2) for c in range(2)]
             for br in (0, 2) for bc in (0, 2)]
    return rows + cols + boxes


class MiniSudokubootcamp(Basebootcamp):
    def __init__(self, min_blanks=6, max_blanks=10):
        self.min_blanks = min_blanks
        self.max_blanks = max_blanks

    def case_generator(self):
        digits = random.sample([1, 2, 3, 4], 4)
        band = random.sample([0, 2], 2)
        row_order = [b + i for b in band for i in random.sample([0, 1], 2)]
        stack = random.sample([0, 2], 2)
        col_order = [s + i for s in stack for i in random.sample([0, 1], 2)]
        grid = [[digits[BASE[r][c] - 1] for c in col_order] for r in row_order]
        if random.random() < 0.5:
            grid = [list(col) for col in zip(*grid, strict=True)]
        cells = random.sample(range(16), random.randint(self.min_blanks, self.max_blanks))
        for k in cells:
            grid[k // 4][k % 4] = 0
        return {"puzzle": grid}

    @staticmethod
    def prompt_func(question_case):
        shown = "\n".join(" ".join(str(v) if v else "." for v in row)
                          for row in question_case["puzzle"])
        return (
            "Fill the dots of this 4x4 sudoku so that every row, every column and each of the "
            "four 2x2 corner boxes holds the digits 1, 2, 3 and 4 once each:\n"
            f"{shown}\n"
            "Write the 16 digits of the finished grid row by row, with a space between rows, "
            "inside [answer] and [/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        digits = [int(ch) for ch in solution if ch.isdigit()]
        if len(digits) != 16:
            return False
        grid = [digits[r * 4:(r + 1) * 4] for r in range(4)]
        for r, row in enumerate(identity["puzzle"]):
            for c, given in enumerate(row):
                if given and grid[r][c] != given:
                    return False
        return all(sorted(grid[r][c] for r, c in group) == [1, 2, 3, 4] for group in _groups())

"""Audit fixture (issue 12, see MANIFEST.json): count right/down paths through a grid with walls."""

import random
import re

from bootcamp import Basebootcamp


def _count(rows, cols, blocked):
    walls = {tuple(cell) for cell in blocked}
    ways = [[0] * cols for _ in range(rows)]
    for r in range(rows):
        for c in range(cols):
            if (r, c) in walls:
                continue
            if r == 0 and c == 0:
                ways[r][c] = 1
            else:
                ways[r][c] = (ways[r - 1][c] if r else 0) + (ways[r][c - 1] if c else 0)
    return ways[rows - 1][cols - 1]


class GridPathsbootcamp(Basebootcamp):
    def __init__(self, min_side=3, max_side=6, wall_rate=0.18):
        self.min_side = min_side
        self.max_side = max_side
        self.wall_rate = wall_rate

    def case_generator(self):
        while True:
            rows = random.randint(self.min_side, self.max_side)
            cols = random.randint(self.min_side, self.max_side)
            blocked = [(r, c) for r in range(rows) for c in range(cols)
                       if (r, c) not in ((0, 0), (rows - 1, cols - 1))
                       and random.random() < self.wall_rate]
            if _count(rows, cols, blocked) > 0:
                return {"rows": rows, "cols": cols, "blocked": blocked}

    @staticmethod
    def prompt_func(question_case):
        walls = {tuple(cell) for cell in question_case["blocked"]}
        picture = "\n".join(
            "".join("#" if (r, c) in walls else "." for c in range(question_case["cols"]))
            for r in range(question_case["rows"]))
        return (
            "In the grid below '#' is a wall and '.' is open. Starting in the top-left cell and "
            "moving only one cell right or one cell down at a time, never onto a wall, how many "
            "different routes reach the bottom-right cell?\n"
            f"{picture}\n"
            "Give the count between [answer] and [/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == _count(identity["rows"], identity["cols"], identity["blocked"])

"""Audit fixture (issue 12, see MANIFEST.json): find a route through a small maze."""

import random
import re

from bootcamp import Basebootcamp

STEPS = {"R": (0, 1), "L": (0, -1), "D": (1, 0), "U": (-1, 0)}


class MazeRoutebootcamp(Basebootcamp):
    def __init__(self, size=4, wall_rate=0.35):
        self.size = size
        self.wall_rate = wall_rate

    def case_generator(self):
        n = self.size
        keep = {(0, c) for c in range(n)} | {(r, n - 1) for r in range(n)}
        rows = ["".join("." if (r, c) in keep or random.random() > self.wall_rate else "#"
                        for c in range(n)) for r in range(n)]
        return {"maze": rows}

    @staticmethod
    def prompt_func(question_case):
        picture = "\n".join(question_case["maze"])
        return (
            "Walk from the top-left corner to the bottom-right corner of this maze, one cell at "
            "a time, never entering a '#':\n"
            f"{picture}\n"
            "Write the moves as letters R, L, U, D, for example [answer]RRRDDD[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*([RLUD]+)\s*\[/answer\]", output, re.IGNORECASE)
        return found[-1].upper() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        maze = identity["maze"]
        r = c = 0
        for move in solution:
            dr, dc = STEPS[move]
            r, c = r + dr, c + dc
            if not (0 <= r < len(maze) and 0 <= c < len(maze[0])) or maze[r][c] == "#":
                return False
        return (r, c) == (len(maze) - 1, len(maze[0]) - 1)

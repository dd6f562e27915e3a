"""Audit fixture (issue 12, see MANIFEST.json): fewest knight moves between two squares."""

import random
import re
from collections import deque

from bootcamp import Basebootcamp


def _moves(size, start, goal):
    start, goal = tuple(start), tuple(goal)
    dist = {start: 0}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        if (r, c) == goal:
            return dist[goal]
        for dr, dc in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)):
            nxt = (r + dr, c + dc)
            if 0 <= nxt[0] < size and 0 <= nxt[1] < size and nxt not in dist:
                dist[nxt] = dist[(r, c)] + 1
                queue.append(nxt)
    return -1


class KnightDistancebootcamp(Basebootcamp):
    def __init__(self, min_size=8, max_size=24):
        self.min_size = min_size
        self.max_size = max_size

    def case_generator(self):
        size = random.randint(self.min_size, self.max_size)
        start = (random.randrange(size), random.randrange(size))
        goal = start
        while goal == start:
            goal = (random.randrange(size), random.randrange(size))
        return {"size": size, "start": start, "goal": goal}

    @staticmethod
    def prompt_func(question_case):
        n = question_case["size"]
        (r1, c1), (r2, c2) = question_case["start"], question_case["goal"]
        return (
            f"On an empty {n}x{n} board (rows and columns numbered 0 to {n - 1}) a chess knight "
            f"stands on row {r1}, column {c1}. What is the smallest number of knight moves that "
            f"brings it to row {r2}, column {c2} without leaving the board?\n"
            "Write the number inside [answer] and [/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == _moves(identity["size"], identity["start"], identity["goal"])

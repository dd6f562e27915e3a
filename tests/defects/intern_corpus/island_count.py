"""Audit fixture (issue 12, see MANIFEST.json): count the islands of a small map."""

import random
import re

from bootcamp import Basebootcamp


def _islands(rows):
    seen, count = set(), 0
    for r, line in enumerate(rows):
        for c, ch in enumerate(line):
            if ch != "#" or (r, c) in seen:
                continue
            count += 1
            stack = [(r, c)]
            seen.add((r, c))
            while stack:
                y, x = stack.pop()
                for dy, dx in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                    ny, nx = y + dy, x + dx
                    if (0 <= ny < len(rows) and 0 <= nx < len(rows[ny])
                            and rows[ny][nx] == "#" and (ny, nx) not in seen):
                        seen.add((ny, nx))
                        stack.append((ny, nx))
    return count


class IslandCountbootcamp(Basebootcamp):
    def __init__(self, **params):
        self.height = params.get("height", (4, 7))
        self.width = params.get("width", (4, 9))
        self.land = params.get("land", 0.4)

    def case_generator(self):
        while True:
            h, w = random.randint(*self.height), random.randint(*self.width)
            rows = ["".join("#" if random.random() < self.land else "." for _ in range(w))
                    for _ in range(h)]
            if _islands(rows):
                return {"map": rows}

    @staticmethod
    def prompt_func(question_case):
        picture = "\n".join(question_case["map"])
        return (
            "On this map '#' is land and '.' is water. Land cells that touch on a side (not only "
            "at a corner) belong to the same island. How many islands are there?\n"
            f"{picture}\n"
            "Answer with [answer]count[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == _islands(identity["map"])

"""Audit fixture (issue 12, see MANIFEST.json): solve a small nonogram."""

import re

from bootcamp import Basebootcamp

try:
    from internbootcamp.libs.nonogram.generator import make_puzzle
except ImportError:
    def make_puzzle(size, fill):
        return ["##.#.", "#.###", ".##..", "###.#", "..##."]


def _clues(lines):
    return [[len(run) for run in line.split(".") if run] for line in lines]


class NonogramRowbootcamp(Basebootcamp):
    def __init__(self, size=5, fill=0.55):
        self.size = size
        self.fill = fill

    def case_generator(self):
        grid = make_puzzle(self.size, self.fill)
        columns = ["".join(row[c] for row in grid) for c in range(len(grid[0]))]
        return {"rows": _clues(grid), "cols": _clues(columns), "size": len(grid)}

    @staticmethod
    def prompt_func(question_case):
        rows = "; ".join(" ".join(map(str, c)) or "0" for c in question_case["rows"])
        cols = "; ".join(" ".join(map(str, c)) or "0" for c in question_case["cols"])
        n = question_case["size"]
        return (
            f"Shade cells of a {n}x{n} nonogram. Row clues, top to bottom: {rows}. Column clues, "
            f"left to right: {cols}. Each clue lists the lengths of the shaded runs in order.\n"
            "Write the grid rows with '#' for shaded and '.' for empty, separated by '/', as "
            "[answer]row1/row2/...[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1].replace(" ", "").split("/") if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        n = identity["size"]
        if len(solution) != n or any(len(row) != n or set(row) - set("#.") for row in solution):
            return False
        columns = ["".join(row[c] for row in solution) for c in range(n)]
        return _clues(solution) == identity["rows"] and _clues(columns) == identity["cols"]

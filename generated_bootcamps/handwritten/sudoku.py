"""Hand-written seed bootcamp of bootcamp-synth; task: Sudoku with a unique solution.

A case is a ``size x size`` Sudoku (4x4 with 2x2 boxes, 6x6 with 2x3 boxes, 9x9 with 3x3
boxes) whose clues determine exactly one completion. Generation:

1. fill an empty grid by randomized backtracking (a full, valid solution grid);
2. blank the cells one by one in random order, keeping a removal only while the puzzle still has
   exactly one solution (a solution counter that stops at 2), until ``max_blanks`` cells are
   blank or every cell has been tried.

The solver keeps one bitmask of used digits per row, column and box and always branches on the
empty cell with the fewest candidates, which keeps every uniqueness check to a few milliseconds.

Answer format: the completed grid, one row per line, digits only (spaces, commas and ``|``
inside a row, ``/`` between rows and separator lines such as ``---+---`` are tolerated).
The answer is checked by the rules (rows, columns and boxes are permutations of 1..size and
every clue is kept), not by comparison with the stored solution.
"""

from __future__ import annotations

import functools
import random
import re
from typing import Any, ClassVar

from synth.bootcamp import BaseBootcamp

#: Supported grid sizes and their box shape (rows, columns).
BOX_SHAPES: dict[int, tuple[int, int]] = {4: (2, 2), 6: (2, 3), 9: (3, 3)}

#: Characters ignored inside a row of an answer, and lines that only separate boxes.
_ROW_NOISE = re.compile(r"[\s,|;]+")
_SEPARATOR_LINE = re.compile(r"[-+=_]*")


@functools.cache
def _geometry(size: int) -> tuple[tuple[int, int, int], ...]:
    """For each cell index ``r * size + c``: its (row, column, box) numbers."""
    box_rows, box_cols = BOX_SHAPES[size]
    boxes_per_row = size // box_cols
    return tuple(
        (r, c, (r // box_rows) * boxes_per_row + c // box_cols)
        for r in range(size)
        for c in range(size)
    )


@functools.cache
def _peers(size: int) -> tuple[tuple[int, ...], ...]:
    """For each cell: the other cells in its row, column or box."""
    geometry = _geometry(size)
    return tuple(
        tuple(j for j, other in enumerate(geometry) if j != i and _shares_unit(cell, other))
        for i, cell in enumerate(geometry)
    )


def _shares_unit(a: tuple[int, int, int], b: tuple[int, int, int]) -> bool:
    return a[0] == b[0] or a[1] == b[1] or a[2] == b[2]


def _is_forced(cells: list[int], i: int, size: int) -> bool:
    """Whether the peers of cell ``i`` already hold every digit but one."""
    seen = {cells[j] for j in _peers(size)[i]}
    seen.discard(0)
    return len(seen) == size - 1


def _search(
    grid: list[int], size: int, limit: int, rng: random.Random | None = None
) -> tuple[int, list[int] | None]:
    """Count the completions of ``grid`` (0 = blank), stopping once ``limit`` are found.

    Returns ``(count, first completion or None)``; givens that already clash give ``(0, None)``.
    With ``rng`` the digits of each cell are tried in random order, which turns the solver into
    a generator of random full grids.
    """
    geometry = _geometry(size)
    full = (1 << size) - 1  # bit d-1 stands for digit d
    rows, cols, boxes = [0] * size, [0] * size, [0] * size
    cells = list(grid)
    for i, digit in enumerate(cells):
        if digit:
            r, c, b = geometry[i]
            bit = 1 << (digit - 1)
            if (rows[r] | cols[c] | boxes[b]) & bit:
                return 0, None
            rows[r] |= bit
            cols[c] |= bit
            boxes[b] |= bit
    empties = [i for i, digit in enumerate(cells) if not digit]
    found: list[list[int]] = []

    def place(i: int, bit: int) -> None:
        r, c, b = geometry[i]
        rows[r] ^= bit
        cols[c] ^= bit
        boxes[b] ^= bit

    def recurse() -> bool:
        """Fill the most constrained empty cell; True once ``limit`` solutions are found."""
        best, best_mask, best_count = -1, 0, size + 1
        for i in empties:
            if cells[i]:
                continue
            r, c, b = geometry[i]
            mask = full & ~(rows[r] | cols[c] | boxes[b])
            count = mask.bit_count()
            if count < best_count:
                best, best_mask, best_count = i, mask, count
                if count <= 1:
                    break
        if best < 0:  # no empty cell left: a solution
            found.append(list(cells))
            return len(found) >= limit
        bits = [1 << d for d in range(size) if best_mask >> d & 1]
        if rng is not None:
            rng.shuffle(bits)
        for bit in bits:
            cells[best] = bit.bit_length()
            place(best, bit)
            done = recurse()
            place(best, bit)
            cells[best] = 0
            if done:
                return True
        return False

    recurse()
    return len(found), (found[0] if found else None)


class SudokuBootcamp(BaseBootcamp):
    """Sudoku with a unique solution on a 4x4, 6x6 or 9x9 grid.

    Parameters:
        size: side of the grid, one of 4 (2x2 boxes), 6 (2x3 boxes) or 9 (3x3 boxes).
        max_blanks: at most this many cells are blanked; fewer when no further cell can be
            blanked without losing uniqueness. Between 1 and ``size * size - 1``.
    """

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"size": 4, "max_blanks": 10},
        "medium": {"size": 6, "max_blanks": 22},
        "hard": {"size": 9, "max_blanks": 52},
    }

    def __init__(self, seed: int | None = None, size: int = 9, max_blanks: int = 52) -> None:
        super().__init__(seed=seed)
        if size not in BOX_SHAPES:
            raise ValueError(f"size must be one of {sorted(BOX_SHAPES)}, got {size!r}")
        if not 1 <= max_blanks < size * size:
            raise ValueError(f"max_blanks must be in [1, {size * size - 1}], got {max_blanks!r}")
        self.size = size
        self.max_blanks = max_blanks

    def case_generator(self) -> dict[str, Any]:
        n = self.size
        _, solution = _search([0] * (n * n), n, limit=1, rng=self.rng)
        assert solution is not None  # an empty grid always has a completion
        puzzle = list(solution)
        order = list(range(n * n))
        self.rng.shuffle(order)
        blanks = 0
        for i in order:
            if blanks >= self.max_blanks:
                break
            digit, puzzle[i] = puzzle[i], 0
            # A forced cell can always be blanked; otherwise count solutions (up to 2).
            if _is_forced(puzzle, i, n) or _search(puzzle, n, limit=2)[0] == 1:
                blanks += 1
            else:
                puzzle[i] = digit
        box_rows, box_cols = BOX_SHAPES[n]
        return {
            "size": n,
            "box_rows": box_rows,
            "box_cols": box_cols,
            "puzzle": _rows_text(puzzle, n, blank="."),
            "solution": _rows_text(solution, n),
        }

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        n, box_rows, box_cols = identity["size"], identity["box_rows"], identity["box_cols"]
        grid = "\n".join(identity["puzzle"])
        example = "\n".join(
            "".join(str((r * box_cols + r // box_rows + c) % n + 1) for c in range(n))
            for r in range(2)
        )
        return (
            f"Solve this {n}x{n} Sudoku. Fill every blank cell (shown as '.') with a digit from "
            f"1 to {n} so that every row, every column and every box contains each digit from "
            f"1 to {n} exactly once. The boxes are the {n} non-overlapping blocks of {box_rows} "
            f"rows by {box_cols} columns that tile the grid. The given digits may not be "
            "changed. The puzzle has exactly one solution.\n\n"
            f"Puzzle (one row per line):\n{grid}\n\n"
            f"Write the completed grid as {n} lines of {n} digits each, one row per line, "
            "with no other text, and put your final answer inside <answer></answer> tags, "
            f"e.g. for the first two rows of some {n}x{n} grid:\n<answer>\n{example}\n...\n"
            "</answer>"
        )

    @classmethod
    def reference_answer(cls, identity: dict[str, Any]) -> str:
        return "\n".join(identity["solution"])

    @classmethod
    def _verify_correction(cls, solution: str, identity: dict[str, Any]) -> bool:
        n = identity["size"]
        grid = _parse_grid(solution, n)
        if grid is None:
            return False
        for given_row, row in zip(identity["puzzle"], grid, strict=True):
            if any(g != "." and int(g) != d for g, d in zip(given_row, row, strict=True)):
                return False
        digits = set(range(1, n + 1))
        columns = [[row[c] for row in grid] for c in range(n)]
        box_rows, box_cols = identity["box_rows"], identity["box_cols"]
        boxes = [
            [grid[r][c] for r in range(top, top + box_rows) for c in range(left, left + box_cols)]
            for top in range(0, n, box_rows)
            for left in range(0, n, box_cols)
        ]
        return all(set(unit) == digits for unit in grid + columns + boxes)


def _rows_text(cells: list[int], size: int, blank: str = "0") -> list[str]:
    """Render a flat grid as one string per row, with ``blank`` for empty cells."""
    return [
        "".join(str(d) if d else blank for d in cells[r * size : (r + 1) * size])
        for r in range(size)
    ]


def _parse_grid(text: str, size: int) -> list[list[int]] | None:
    """Parse an answer into ``size`` rows of ``size`` digits in 1..size, or None if malformed."""
    if len(text) > 40 * size * size:  # bounded work on huge garbage
        return None
    rows = []
    for line in re.split(r"[\n/]", text):
        row = _ROW_NOISE.sub("", line)
        if _SEPARATOR_LINE.fullmatch(row):
            continue  # empty line or a box separator such as "---+---"
        if len(row) != size or not all("1" <= ch <= str(size) for ch in row):
            return None
        rows.append([int(ch) for ch in row])
    return rows if len(rows) == size else None

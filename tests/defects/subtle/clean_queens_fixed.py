"""Subtle-defect corpus of bootcamp-synth (issue 10), clean control: n queens, one pre-placed.

Task: place n non-attacking queens on an n x n board, one of them on a given square; any
valid placement is accepted.
"""

from synth.bootcamp import BaseBootcamp


class QueensFixedBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 5}, "medium": {"n": 7}, "hard": {"n": 10}}

    def __init__(self, seed=None, n=7):
        super().__init__(seed=seed)
        if not 4 <= n <= 12:
            raise ValueError("n must be 4..12")
        self.n = n

    @staticmethod
    def _solve(n, fixed, order):
        cols = [0] * (n + 1)

        def ok(r, c):
            return all(cols[q] != c and abs(cols[q] - c) != r - q for q in range(1, r))

        def row(r):
            if r > n:
                return True
            options = [fixed[1]] if r == fixed[0] else order
            for c in options:
                if ok(r, c):
                    cols[r] = c
                    if row(r + 1):
                        return True
            return False

        return cols[1:] if row(1) else None

    def case_generator(self):
        order = list(range(1, self.n + 1))
        self.rng.shuffle(order)
        sol = self._solve(self.n, (0, 0), order)
        r = self.rng.randint(1, self.n)
        return {"n": self.n, "row": r, "col": sol[r - 1]}

    @staticmethod
    def prompt_func(identity):
        n = identity["n"]
        return (
            f"Place {n} queens on a {n}x{n} chessboard so that no two attack each other (same "
            f"row, column or diagonal), with one queen on row {identity['row']}, column "
            f"{identity['col']} (rows and columns are numbered 1..{n}). Write, for rows 1..{n} "
            "in order, the column of that row's queen, separated by single spaces, inside "
            "<answer></answer>, e.g. <answer>2 4 1 3</answer> for n = 4. Any valid placement "
            "is accepted."
        )

    @classmethod
    def reference_answer(cls, identity):
        n = identity["n"]
        sol = cls._solve(n, (identity["row"], identity["col"]), list(range(1, n + 1)))
        return " ".join(map(str, sol))

    @classmethod
    def _verify_correction(cls, solution, identity):
        n, toks = identity["n"], solution.split()
        if len(toks) != n or not all(t.isdigit() and len(t) < 4 for t in toks):
            return False
        cols = [int(t) for t in toks]
        if sorted(cols) != list(range(1, n + 1)) or cols[identity["row"] - 1] != identity["col"]:
            return False
        return all(abs(cols[a] - cols[b]) != b - a for a in range(n) for b in range(a + 1, n))

"""Compiled bootcamp; task: "Letter Ranges" (distinct letters in substrings).

Test fixture of the input-validity corpus (set_a): a defective bootcamp (guarantee, one mistake
in the generator): both ends of a query are drawn from 1..n independently, so about half of the
queries have l_i > r_i.
"""

from __future__ import annotations

import string
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class LetterRangesBootcamp(CompiledBootcamp):
    """How many different letters each queried substring holds."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_len": 8, "max_q": 3, "alphabet": 3},
        "medium": {"max_len": 20, "max_q": 5, "alphabet": 6},
        "hard": {"max_len": 40, "max_q": 8, "alphabet": 26},
    }

    def __init__(self, seed: int | None = None, max_len: int = 20, max_q: int = 5,
                 alphabet: int = 6) -> None:
        super().__init__(seed=seed)
        if not 1 <= max_len <= 1000 or not 1 <= max_q <= 100 or not 1 <= alphabet <= 26:
            raise ValueError("need 1 <= max_len <= 1000, 1 <= max_q <= 100, 1 <= alphabet <= 26")
        self.max_len, self.max_q, self.alphabet = max_len, max_q, alphabet

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(max(1, self.max_len // 2), self.max_len)
        letters = string.ascii_lowercase[: self.alphabet]
        s = "".join(rng.choice(letters) for _ in range(n))
        queries = []
        for _ in range(rng.randint(1, self.max_q)):
            l = rng.randint(1, n)
            r = rng.randint(1, n)
            queries.append([l, r])
        return {"s": s, "queries": queries}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        s, queries = identity["s"], identity["queries"]
        lines = [f"{len(s)} {len(queries)}", s]
        lines += [f"{l} {r}" for l, r in queries]
        return "\n".join(lines) + "\n"

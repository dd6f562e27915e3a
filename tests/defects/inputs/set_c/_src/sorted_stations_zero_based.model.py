"""Compiled bootcamp of bootcamp-synth; task: "Widest Gap" (range maximum of the gaps between
neighbouring stations at increasing distances).

Provenance: written by hand as a test fixture of the input-validity corpus (set_c), with ONE
realistic code-model mistake (format): the generator draws the station numbers of a question
from range(n), 0..n-1, although stations are numbered 1..n. The reference program is embedded
by ``synth.compiled.assemble``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


def _stdin(identity: dict[str, Any]) -> str:
    x, queries = identity["x"], identity["queries"]
    lines = [f"{len(x)} {len(queries)}", " ".join(map(str, x))]
    lines.extend(f"{lo} {hi}" for lo, hi in queries)
    return "\n".join(lines) + "\n"


class WidestGapBootcamp(CompiledBootcamp):
    """Widest neighbouring gap among stations l..r."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_stations": 5, "max_queries": 3, "max_step": 10},
        "medium": {"max_stations": 10, "max_queries": 6, "max_step": 50},
        "hard": {"max_stations": 20, "max_queries": 10, "max_step": 500},
    }

    def __init__(self, seed: int | None = None, max_stations: int = 10, max_queries: int = 6,
                 max_step: int = 50) -> None:
        super().__init__(seed=seed)
        if not 2 <= max_stations <= 1000 or not 1 <= max_queries <= 1000 or max_step < 1:
            raise ValueError("need 2 <= max_stations <= 1000, 1 <= max_queries <= 1000, "
                             "max_step >= 1")
        self.max_stations, self.max_queries, self.max_step = max_stations, max_queries, max_step

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(2, self.max_stations)
        x = [rng.randint(0, self.max_step)]
        for _ in range(n - 1):
            x.append(x[-1] + rng.randint(1, self.max_step))  # strictly increasing
        queries = []
        for _ in range(rng.randint(1, self.max_queries)):
            lo, hi = sorted((rng.randrange(n), rng.randrange(n)))
            queries.append([lo, hi])
        return {"x": x, "queries": queries}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return _stdin(identity)

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        return (
            "Widest Gap\n\nStations of a railway line lie at strictly increasing distances x_1 < "
            "x_2 < ... < x_n from the depot. For each question (l, r), report the largest "
            "distance between two neighbouring stations among stations l..r (0 when l = r).\n"
            "The input: n and q, then x_1 ... x_n, then q lines with l and r.\n\n"
            "```\n" + _stdin(identity) + "```\n\n"
            "Answer with the q results, one per line, inside <answer></answer> tags."
        )

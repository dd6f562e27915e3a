"""Compiled bootcamp of bootcamp-synth; task: CodeContests sample "13_E. Strangers to m".

Provenance: record 13 of ``task_descriptions/codecontests/sample.jsonl``, written by hand as
the compiled-mode exemplar. The task's reference program and problem text are embedded by
``synth.compiled.assemble``; the answer key is the program's output on ``render_stdin``, and
the contract's default prompt_func shows the problem text with that input.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class StrangersToMBootcamp(CompiledBootcamp):
    """For each query (n, m): how many x in 1..n have gcd(x, m) = 1."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"queries": 2, "max_n": 30, "max_m": 30},
        "medium": {"queries": 4, "max_n": 10**4, "max_m": 1000},
        "hard": {"queries": 6, "max_n": 10**12, "max_m": 10**6},
    }
    # the statement's limits: for code test suites only, never in a prompt
    STRESS: ClassVar[dict[str, Any]] = {"queries": 10, "max_n": 10**18, "max_m": 10**10}

    def __init__(self, seed: int | None = None, queries: int = 4, max_n: int = 10**4,
                 max_m: int = 1000) -> None:
        super().__init__(seed=seed)
        # within the problem's limits (t <= 10, n <= 10^18, m <= 10^10), small enough to read
        self.queries, self.max_n, self.max_m = queries, max_n, max_m

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        return {"queries": [[rng.randint(1, self.max_n), rng.randint(1, self.max_m)]
                            for _ in range(self.queries)]}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        lines = [str(len(identity["queries"]))]
        lines += [f"{n} {m}" for n, m in identity["queries"]]
        return "\n".join(lines) + "\n"

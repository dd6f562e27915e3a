"""Compiled bootcamp of bootcamp-synth; task: "Highest Point" (range-maximum questions over
the altitudes of a trail, 1-based checkpoints).

Provenance: written by hand as a test fixture of the input-validity corpus (set_b): a correct
bootcamp with its own prompt_func, which shows exactly render_stdin's text. The reference
program is embedded by ``synth.compiled.assemble``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


def _render(identity: dict[str, Any]) -> str:
    h, queries = identity["h"], identity["queries"]
    lines = [str(len(h)), " ".join(map(str, h)), str(len(queries))]
    lines += [f"{l + 1} {r + 1}" for l, r in queries]  # stored 0-based, printed 1-based
    return "\n".join(lines) + "\n"


class HighestPointBootcamp(CompiledBootcamp):
    """The highest altitude of each walk."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_points": 5, "max_questions": 2, "max_abs": 50},
        "medium": {"max_points": 10, "max_questions": 4, "max_abs": 500},
        "hard": {"max_points": 20, "max_questions": 7, "max_abs": 5000},
    }

    def __init__(self, seed: int | None = None, max_points: int = 10, max_questions: int = 4,
                 max_abs: int = 500) -> None:
        super().__init__(seed=seed)
        if not 2 <= max_points <= 1000 or not 1 <= max_questions <= 1000 or \
                not 1 <= max_abs <= 10**9:
            raise ValueError("need 2 <= max_points <= 1000, 1 <= max_questions <= 1000, "
                             "1 <= max_abs <= 10^9")
        self.max_points, self.max_questions, self.max_abs = max_points, max_questions, max_abs

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(2, self.max_points)
        h = [rng.randint(-self.max_abs, self.max_abs) for _ in range(n)]
        queries = []
        for _ in range(rng.randint(1, self.max_questions)):
            l, r = sorted((rng.randrange(n), rng.randrange(n)))
            queries.append([l, r])
        return {"h": h, "queries": queries}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return _render(identity)

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        return (
            "Highest Point\n\n"
            "A hiking trail passes n checkpoints numbered 1 to n; checkpoint i has altitude h_i "
            "metres (possibly negative). For each question (l, r) give the largest of "
            "h_l, ..., h_r.\n\n"
            "Input format: n; then h_1 ... h_n; then q; then q lines \"l r\" "
            "(1 <= l <= r <= n).\n\n"
            "Input:\n```\n" + _render(identity) + "```\n\n"
            "Output one integer per question, each on its own line, inside <answer></answer> "
            "tags."
        )

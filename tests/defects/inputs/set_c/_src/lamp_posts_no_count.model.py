"""Compiled bootcamp of bootcamp-synth; task: "Lamp Pairs" (count the pairs of lamps at most
K apart; the coordinates are pairwise distinct).

Provenance: written by hand as a test fixture of the input-validity corpus (set_c), with ONE
realistic code-model mistake (format): render_stdin leaves N out of the first line (it writes
only K there, N being the length of the list); the reference then reads K as N and A_1 as K.
The reference program is embedded by ``synth.compiled.assemble``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


def _stdin(identity: dict[str, Any]) -> str:
    a = identity["a"]
    return f"{identity['k']}\n{' '.join(map(str, a))}\n"


class LampPairsBootcamp(CompiledBootcamp):
    """Pairs of distinct coordinates within distance K."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_lamps": 2, "max_lamps": 6, "max_coord": 20},
        "medium": {"min_lamps": 6, "max_lamps": 12, "max_coord": 60},
        "hard": {"min_lamps": 12, "max_lamps": 25, "max_coord": 200},
    }

    def __init__(self, seed: int | None = None, min_lamps: int = 6, max_lamps: int = 12,
                 max_coord: int = 60) -> None:
        super().__init__(seed=seed)
        if not 2 <= min_lamps <= max_lamps <= max_coord <= 10**9:
            raise ValueError("need 2 <= min_lamps <= max_lamps <= max_coord <= 10^9")
        self.min_lamps, self.max_lamps, self.max_coord = min_lamps, max_lamps, max_coord

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_lamps, self.max_lamps)
        a = rng.sample(range(1, self.max_coord + 1), n)  # distinct coordinates
        k = rng.randint(0, self.max_coord // 3)
        return {"k": k, "a": a}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return _stdin(identity)

    @staticmethod
    def prompt_func(identity: dict[str, Any]) -> str:
        return (
            "Lamp Pairs\n\nN street lamps stand along a straight boulevard; lamp i is at "
            "coordinate A_i and no two lamps share a coordinate. Two lamps can be wired together "
            "when they are at most K apart. Count the pairs (i, j), i < j, with |A_i - A_j| <= K."
            "\n\nThe input gives N and K on the first line and A_1 ... A_N on the second:\n"
            "```\n" + _stdin(identity) + "```\n\n"
            "Put the count inside <answer></answer> tags, e.g. <answer>3</answer>."
        )

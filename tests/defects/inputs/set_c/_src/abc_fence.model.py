"""Compiled bootcamp of bootcamp-synth; task: "Three-Colour Fence" (repaint the fewest planks
of an a/b/c fence so that no two neighbours match; any optimal repainting is accepted).

Provenance: written by hand as a test fixture of the input-validity corpus (set_c): a correct
bootcamp. The reference program is embedded by ``synth.compiled.assemble``; since several
repaintings are optimal, ``check_output`` checks the fence by the statement's rules.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp

_ALPHABET = "abc"


class ThreeColourFenceBootcamp(CompiledBootcamp):
    """Fewest repaints for a fence of three colours with no equal neighbours."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_planks": 2, "max_planks": 6, "colours": 2},
        "medium": {"min_planks": 6, "max_planks": 14, "colours": 3},
        "hard": {"min_planks": 14, "max_planks": 30, "colours": 3},
    }

    def __init__(self, seed: int | None = None, min_planks: int = 6, max_planks: int = 14,
                 colours: int = 3) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_planks <= max_planks <= 10**4 or colours not in (1, 2, 3):
            raise ValueError("need 1 <= min_planks <= max_planks <= 10^4, colours in 1..3")
        self.min_planks, self.max_planks, self.colours = min_planks, max_planks, colours

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_planks, self.max_planks)
        used = _ALPHABET[: self.colours]  # fewer colours: longer runs of equal planks
        return {"s": "".join(rng.choice(used) for _ in range(n))}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        s = identity["s"]
        return f"{len(s)}\n{s}\n"

    @staticmethod
    def check_output(identity: dict[str, Any], expected: str, answer: str) -> bool:
        """The reference's count, then a fence of a/b/c with no equal neighbours that differs
        from S in exactly that many places."""
        tokens, want = answer.split(), expected.split()
        if len(tokens) != 2 or not want or tokens[0] != want[0]:
            return False
        s, fence = identity["s"], tokens[1]
        if len(fence) != len(s) or any(c not in _ALPHABET for c in fence):
            return False
        if any(fence[i] == fence[i + 1] for i in range(len(fence) - 1)):
            return False
        return sum(x != y for x, y in zip(s, fence, strict=True)) == int(want[0])

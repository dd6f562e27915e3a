"""Compiled bootcamp of bootcamp-synth; task: "Spotting K" (count the substrings that contain
the letter k, for several strings that each contain a k).

Provenance: written by hand as a test fixture of the input-validity corpus (set_c): a correct
bootcamp. The reference program is embedded by ``synth.compiled.assemble``.
"""

from __future__ import annotations

import string
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class SpottingKBootcamp(CompiledBootcamp):
    """Marked substrings of lowercase strings with at least one k."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_strings": 3, "max_length": 6, "letters": 3},
        "medium": {"max_strings": 5, "max_length": 15, "letters": 6},
        "hard": {"max_strings": 10, "max_length": 50, "letters": 26},
    }

    def __init__(self, seed: int | None = None, max_strings: int = 5, max_length: int = 15,
                 letters: int = 6) -> None:
        super().__init__(seed=seed)
        if not 1 <= max_strings <= 100 or not 1 <= max_length <= 50 or not 1 <= letters <= 26:
            raise ValueError("need 1 <= max_strings <= 100, 1 <= max_length <= 50, "
                             "1 <= letters <= 26")
        if max_strings * max_length > 500:
            raise ValueError("the total length of the strings may not exceed 500")
        self.max_strings, self.max_length, self.letters = max_strings, max_length, letters

    def _word(self) -> str:
        rng = self.rng
        pool = "k" + "".join(c for c in string.ascii_lowercase if c != "k")[: self.letters - 1]
        chars = [rng.choice(pool) for _ in range(rng.randint(1, self.max_length))]
        chars[rng.randrange(len(chars))] = "k"  # every string holds a k
        return "".join(chars)

    def case_generator(self) -> dict[str, Any]:
        return {"strings": [self._word() for _ in range(self.rng.randint(1, self.max_strings))]}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        strings = identity["strings"]
        return "\n".join([str(len(strings)), *strings]) + "\n"

"""Compiled bootcamp; task: "Anchor Letter" (largest distance to the nearest 'a', t strings).

Test fixture of the input-validity corpus (set_a): a defective bootcamp (bounds, one mistake in
the generator): the hard preset allows strings of up to 150 letters although the statement caps
|s| at 100.
"""

from __future__ import annotations

import string
from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class AnchorLetterBootcamp(CompiledBootcamp):
    """The drift of each string: the farthest any position is from an 'a'."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"max_t": 3, "min_len": 2, "max_len": 6, "alphabet": 3},
        "medium": {"max_t": 4, "min_len": 6, "max_len": 20, "alphabet": 6},
        "hard": {"max_t": 5, "min_len": 30, "max_len": 150, "alphabet": 26},
    }

    def __init__(self, seed: int | None = None, max_t: int = 4, min_len: int = 6,
                 max_len: int = 20, alphabet: int = 6) -> None:
        super().__init__(seed=seed)
        if not 1 <= max_t <= 1000 or not 1 <= min_len <= max_len or not 1 <= alphabet <= 26:
            raise ValueError("need 1 <= max_t <= 1000, 1 <= min_len <= max_len, "
                             "1 <= alphabet <= 26")
        self.max_t, self.min_len, self.max_len = max_t, min_len, max_len
        self.alphabet = alphabet

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        pool = string.ascii_lowercase if self.alphabet >= 26 else \
            string.ascii_lowercase[: self.alphabet]
        strings = []
        for _ in range(rng.randint(1, self.max_t)):
            n = rng.randint(self.min_len, self.max_len)
            chars = [rng.choice(pool) for _ in range(n)]
            # the statement guarantees an anchor: put one or two 'a's in
            for _ in range(rng.randint(1, 2)):
                chars[rng.randrange(n)] = "a"
            strings.append("".join(chars))
        return {"strings": strings}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        return "\n".join([str(len(identity["strings"])), *identity["strings"]]) + "\n"

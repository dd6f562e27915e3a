"""Compiled bootcamp of bootcamp-synth; task: "Rising Readings" (the longest strictly
increasing stretch of consecutive readings).

Provenance: written by hand as a test fixture of the input-validity corpus (set_b): the task's
bootcamp with one realistic defect of kind 'format': render_stdin prints all readings on one
line although the statement gives one reading per line. The reference program is embedded by
``synth.compiled.assemble``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from synth.bootcamp import CompiledBootcamp


class RisingReadingsBootcamp(CompiledBootcamp):
    """Longest rising stretch of a log of readings."""

    LEVELS: ClassVar[dict[str, dict[str, Any]]] = {
        "easy": {"min_readings": 3, "max_readings": 6, "max_value": 20},
        "medium": {"min_readings": 7, "max_readings": 14, "max_value": 100},
        "hard": {"min_readings": 15, "max_readings": 30, "max_value": 1000},
    }

    def __init__(self, seed: int | None = None, min_readings: int = 7, max_readings: int = 14,
                 max_value: int = 100) -> None:
        super().__init__(seed=seed)
        if not 1 <= min_readings <= max_readings <= 1000 or not 2 <= max_value <= 10**9:
            raise ValueError("need 1 <= min_readings <= max_readings <= 1000, 2 <= max_value")
        self.min_readings, self.max_readings = min_readings, max_readings
        self.max_value = max_value

    def case_generator(self) -> dict[str, Any]:
        rng = self.rng
        n = rng.randint(self.min_readings, self.max_readings)
        h = [rng.randint(1, self.max_value) for _ in range(n)]
        if n >= 3 and rng.randrange(2):  # sometimes a longer rising stretch
            start = rng.randrange(n - 2)
            length = rng.randint(3, n - start)
            run = sorted(rng.sample(range(1, self.max_value + 1),
                                    min(length, self.max_value)))
            h[start:start + len(run)] = run
        return {"h": h}

    @staticmethod
    def render_stdin(identity: dict[str, Any]) -> str:
        h = identity["h"]
        return f"{len(h)}\n" + " ".join(map(str, h)) + "\n"

"""How hard each level of a library bootcamp is, and what that estimate rests on.

Curricula (``synth export --curriculum``, :class:`synth.training.datasets.CurriculumDataset`) order
training items from easy to hard by the solver pass rates the library measured per level.
A rate is only as good as the answers behind it: the acceptance filter stops as soon as the
band is decided, so a level's rate can rest on one or two answers. Every estimate therefore
carries its sample count, whether the filter stopped early, a 95% Wilson interval, and its
basis:

* ``calibrated``   measured by ``synth calibrate NAME --samples K`` (every answer taken);
* ``measured``     from the acceptance filter at commit time;
* ``levels_order`` no rate for this level: its position in the bootcamp's ``LEVELS``
  (easy first), scaled into [0, 1]. Not comparable with a measured rate of another bootcamp.

``hardness`` is ``1 - pass_rate`` where there is a rate; the order is by hardness, then the
bootcamp's position in the request, then the item's index, so it is the same in any process.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

Basis = Literal["calibrated", "measured", "levels_order"]

RELIABLE_SAMPLES = 16
"""Fewer answers than this and a rate's 95% interval is wider than about +-0.2 around 0.5:
the order it gives is flagged as resting on little (``reliable`` False)."""


#: z of a two-sided 95% interval
Z95 = 1.959963984540054


def wilson_interval(passed: float, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``passed`` successes in ``n`` trials ((0, 1) when n is 0).
    A fractional ``passed`` (partial scores) is used as it is: an approximation."""
    if n <= 0:
        return 0.0, 1.0
    p = min(max(passed / n, 0.0), 1.0)
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4 * n * n)) / denom
    lo = 0.0 if p == 0.0 else max(0.0, centre - half)  # exact at the ends (no 0.9999999...)
    hi = 1.0 if p == 1.0 else min(1.0, centre + half)
    return lo, hi


class LevelDifficulty(BaseModel):
    """One level of one bootcamp, as a curriculum sees it."""

    model_config = ConfigDict(extra="forbid")

    bootcamp: str
    level: str
    basis: Basis
    hardness: float
    pass_rate: float | None = None
    samples: int | None = None  # answers behind this level's rate; None: not recorded
    total_samples: int | None = None  # answers behind the bootcamp's overall rate
    stopped_early: bool | None = None
    interval: tuple[float, float] | None = None

    @property
    def reliable(self) -> bool:
        return self.samples is not None and self.samples >= RELIABLE_SAMPLES

    def note(self) -> str:
        """One line a user can act on when the estimate rests on little."""
        if self.basis == "levels_order":
            return (f"{self.bootcamp}/{self.level}: no measured rate; placed by its position in "
                    f"LEVELS (run `synth calibrate {self.bootcamp} --samples 64`)")
        if self.reliable:
            return ""
        rests = (f"{self.samples} answer(s)" if self.samples is not None
                 else f"an unrecorded share of {self.total_samples} answer(s)")
        early = " (the filter stopped early)" if self.stopped_early else ""
        return (f"{self.bootcamp}/{self.level}: pass rate {self.pass_rate:.3f} rests on {rests}"
                f"{early}; run `synth calibrate {self.bootcamp} --samples 64`")


def _rounded(iv: tuple[float, float]) -> tuple[float, float]:
    return round(iv[0], 4), round(iv[1], 4)


def level_difficulty(record: Any, level: str, levels: Sequence[str]) -> LevelDifficulty:
    """The :class:`LevelDifficulty` of ``level`` of a library record (``None``: no record)."""
    name = str(getattr(record, "name", "") or "")
    rates = dict(getattr(record, "level_pass_rates", None) or {})
    total = getattr(record, "samples", None)
    if level in rates:
        rate = float(rates[level])
        counts = dict(getattr(record, "level_samples", None) or {})
        n = int(counts[level]) if level in counts else None
        calibrated = bool(getattr(record, "calibration", None))
        return LevelDifficulty(
            bootcamp=name, level=level, basis="calibrated" if calibrated else "measured",
            hardness=round(1.0 - rate, 6), pass_rate=rate, samples=n,
            total_samples=int(total) if total is not None else None,
            stopped_early=getattr(record, "stopped_early", None),
            interval=_rounded(wilson_interval(rate * n, n)) if n else None,
        )
    names = list(levels)
    pos = names.index(level) if level in names else 0
    return LevelDifficulty(bootcamp=name, level=level, basis="levels_order",
                           hardness=round((pos + 0.5) / max(1, len(names)), 6))


def curriculum_fields(d: LevelDifficulty) -> dict[str, Any]:
    """What a curriculum row carries about its level (flat, JSON- and Arrow-friendly)."""
    return {"hardness": d.hardness, "pass_rate": d.pass_rate, "rate_samples": d.samples,
            "stopped_early": d.stopped_early, "basis": d.basis}

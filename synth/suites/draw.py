"""A code suite's cases, drawn in the sandbox exactly as export draws its rows.

Export asks a bootcamp's method server to construct the class from a LEVELS preset with a
derived seed and to generate one case (:class:`synth.serving.sampling.CaseSampler`); a suite's
cases come the same way, from the same server code, with two differences: each case is rendered
as standard input (``render_stdin``; a function bootcamp's is its call's arguments in JSON)
instead of a prompt, and the class's ``STRESS`` preset, when it has one, is a level too (the
level ``stress``: inputs at the statement's limits, for code suites only, never for prompts).

Seeds: case ``i`` of level ``L`` has the seed ``derive_seed(seed, bootcamp, "suite", L, i)``, so
one seed gives the same cases on every machine. Nothing of the bootcamp runs in this process.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from synth.sandbox.base import Backend
from synth.sandbox.kit import derive_seed
from synth.serving.sampling import DEFAULT_LEVEL, STRESS_LEVEL, CaseSampler, Sample, SampleError

__all__ = ["SERVER_LABEL", "DrawError", "Drawn", "draw_cases", "suite_seed"]

#: the label of a suite's method servers (in process listings)
SERVER_LABEL = "synth-suite-server"
#: specs per sample call (the server's reply stays small; large stress inputs are split further)
CHUNK = 16


class DrawError(Exception):
    """The bootcamp could not give its cases (the message names the bootcamp, level and seed)."""

    def __init__(self, message: str, traceback: str = "") -> None:
        super().__init__(message)
        self.traceback = traceback


@dataclass
class Drawn:
    """What a bootcamp's server gave: its class, its levels (``default`` when it has none),
    whether it declares STRESS (and with which parameters), and each level's cases in order."""

    class_name: str
    levels: list[str]
    stress: dict[str, Any] | None
    cases: dict[str, list[Sample]] = field(default_factory=dict)


def suite_seed(seed: int, bootcamp: str, level: str, index: int) -> int:
    """The seed of case ``index`` of ``level`` in the suite of ``bootcamp``."""
    return derive_seed(seed, bootcamp, "suite", level, index)


def draw_cases(code: str, *, name: str, class_name: str, backend: str | Backend, seed: int,
               per_level: int, stress: int, call_limit_s: float = 10.0) -> Drawn:
    """``per_level`` cases of every level and ``stress`` of the STRESS preset (none when the
    class declares no STRESS), each with its ``render_stdin`` text. Raises :class:`DrawError`."""
    sampler = CaseSampler(code, backend=backend, class_name=class_name, name=name,
                          call_limit_s=call_limit_s, label=SERVER_LABEL)
    try:
        try:
            sampler.start()
        except SampleError as exc:
            raise DrawError(f"bootcamp {name!r}: {exc.message}", exc.traceback) from None
        if STRESS_LEVEL in sampler.levels:
            raise DrawError(f"bootcamp {name!r}: LEVELS has a level named {STRESS_LEVEL!r}, the "
                            "name code suites keep for the class's STRESS preset: rename it")
        levels = sampler.levels or [DEFAULT_LEVEL]
        drawn = Drawn(sampler.class_found, list(levels), sampler.stress)
        plan = [(lv, per_level) for lv in levels]
        if sampler.stress is not None and stress > 0:
            plan.append((STRESS_LEVEL, stress))
        for level, count in plan:
            specs = [(level, suite_seed(seed, name, level, i)) for i in range(count)]
            got: list[Sample] = []
            for at in range(0, len(specs), CHUNK):
                chunk = specs[at:at + CHUNK]
                try:
                    got += sampler.sample(chunk, render="stdin")
                except SampleError as exc:
                    spot = "" if exc.position is None else \
                        f" (level {exc.level}, seed {exc.seed})"
                    raise DrawError(f"bootcamp {name!r} failed drawing its {level} cases{spot}: "
                                    f"{exc.message}", exc.traceback) from None
            drawn.cases[level] = got
        return drawn
    finally:
        sampler.close()

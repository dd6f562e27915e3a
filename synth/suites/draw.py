"""A code suite's cases, drawn in the sandbox exactly as export draws its rows.

Export asks a bootcamp's method server to construct the class from a LEVELS preset with a
derived seed and to generate one case (:class:`synth.serving.sampling.CaseSampler`); a suite's
cases come the same way, from the same server code, with two differences: each case is rendered
as standard input (``render_stdin``; a function bootcamp's is its call's arguments in JSON)
instead of a prompt, and the class's ``STRESS`` preset, when it has one, is a level too (the
level ``stress``: inputs at the statement's limits, for code suites only, never for prompts). A
class without one may get a derived preset (:mod:`synth.suites.stress`), sent to the server with
each stress draw; a derived stress case the bootcamp fails on is left out and said.

Seeds: case ``i`` of level ``L`` has the seed ``derive_seed(seed, bootcamp, "suite", L, i)``, so
one seed gives the same cases on every machine. Nothing of the bootcamp runs in this process.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from synth.gate.inputs import STRESS_CASES
from synth.sandbox.base import Backend, Outcome
from synth.sandbox.kit import derive_seed
from synth.serving.sampling import DEFAULT_LEVEL, STRESS_LEVEL, CaseSampler, Sample, SampleError
from synth.suites.stress import Derivation

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
    its STRESS preset (declared, or derived: ``derivation`` then says how; None: neither), and
    each level's cases in order."""

    class_name: str
    levels: list[str]
    stress: dict[str, Any] | None
    cases: dict[str, list[Sample]] = field(default_factory=dict)
    derivation: Derivation | None = None
    #: derived stress cases the bootcamp failed on (left out), with the reason
    failed: list[str] = field(default_factory=list)


#: a stress preset derived from the class's levels (:func:`synth.suites.stress.derive_stress`
#: with the suite's seeds and judge): called with the server and the level cases drawn so far
Derive = Callable[[CaseSampler, list[int], dict[str, list[Sample]]], Derivation]


def suite_seed(seed: int, bootcamp: str, level: str, index: int) -> int:
    """The seed of case ``index`` of ``level`` in the suite of ``bootcamp``."""
    return derive_seed(seed, bootcamp, "suite", level, index)


def draw_cases(code: str, *, name: str, class_name: str, backend: str | Backend, seed: int,
               per_level: int, stress: int, call_limit_s: float = 10.0,
               derive: Derive | None = None) -> Drawn:
    """``per_level`` cases of every level and ``stress`` of the STRESS preset, each with its
    ``render_stdin`` text. A class that declares no STRESS has no stress cases, unless
    ``derive`` finds a preset (its first :data:`~synth.gate.inputs.STRESS_CASES` seeds are the
    stress cases' first seeds). Raises :class:`DrawError`."""
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
        for level in levels:
            drawn.cases[level] = _draw(sampler, name, seed, level, per_level)
        if sampler.stress is None and stress > 0 and derive is not None:
            seeds = [suite_seed(seed, name, STRESS_LEVEL, i) for i in range(STRESS_CASES)]
            try:
                drawn.derivation = derive(sampler, seeds, drawn.cases)
            except SampleError as exc:  # the sandbox failed (infrastructure)
                raise DrawError(f"bootcamp {name!r}: deriving a stress preset: {exc.message}",
                                exc.traceback) from None
            drawn.stress = drawn.derivation.preset
        if drawn.stress is not None and stress > 0 and drawn.derivation is None:
            drawn.cases[STRESS_LEVEL] = _draw(sampler, name, seed, STRESS_LEVEL, stress)
        elif drawn.stress is not None and stress > 0:
            drawn.cases[STRESS_LEVEL] = _draw_derived(sampler, drawn, name, seed, stress)
        return drawn
    finally:
        sampler.close()


def _draw_derived(sampler: CaseSampler, drawn: Drawn, name: str, seed: int,
                  count: int) -> list[Sample]:
    """The derived preset's cases, one call each: a case on which the bootcamp fails (the
    search checked the first few seeds only) is left out and said, never a stopped build."""
    got: list[Sample] = []
    for i in range(count):
        spec = (STRESS_LEVEL, suite_seed(seed, name, STRESS_LEVEL, i))
        try:
            got += sampler.sample([spec], render="stdin", stress=drawn.stress)
        except SampleError as exc:
            if exc.outcome is Outcome.SANDBOX_ERROR:
                raise DrawError(f"bootcamp {name!r}: {exc.message}", exc.traceback) from None
            drawn.failed.append(f"{STRESS_LEVEL} (seed {spec[1]}): the bootcamp failed on the "
                                f"derived preset: {exc.message[:300]}")
    return got


def _draw(sampler: CaseSampler, name: str, seed: int, level: str, count: int) -> list[Sample]:
    specs = [(level, suite_seed(seed, name, level, i)) for i in range(count)]
    got: list[Sample] = []
    for at in range(0, len(specs), CHUNK):
        chunk = specs[at:at + CHUNK]
        try:
            got += sampler.sample(chunk, render="stdin")
        except SampleError as exc:
            spot = "" if exc.position is None else f" (level {exc.level}, seed {exc.seed})"
            raise DrawError(f"bootcamp {name!r} failed drawing its {level} cases{spot}: "
                            f"{exc.message}", exc.traceback) from None
    return got

"""A stress preset derived for a compiled bootcamp that declares no ``STRESS``.

A code suite catches a too-slow program only on inputs at the statement's limits, and the
levels stop at sizes a person can solve by hand. A stdin class without ``STRESS`` (the small code
models never write one) gets one here, searched from its hardest level's preset (the last
LEVELS entry) by growing its integer parameters, one at a time (coordinate search):

* a parameter is multiplied by ``2^e``: ``e`` starts at 1 and doubles after each kept step
  (x2, x4, x16, ...); after the first rejection it halves on every step (a binary search on the
  exponent), down to ``e = 1/2``. No value grows past :data:`VALUE_CAP`; parameters that are
  not positive ints (bools, strings, floats) are never touched;
* a step is kept only if its largest input is strictly larger than the best so far and its
  preset passes every check a declared ``STRESS`` passes (:func:`synth.gate.inputs.judge_stress`,
  the gate's own rules: :data:`~synth.gate.inputs.STRESS_CASES` cases drawn in the bootcamp's
  sandboxed server with the suite's first stress seeds, each at most
  :data:`~synth.gate.inputs.STRESS_MAX_CHARS`, larger than every level's input, allowed by the
  statement's checker and the library's validator, the reference finishing each within
  :data:`~synth.gate.inputs.STRESS_TIMEOUT_S`), and its reference needs at most
  :data:`REFERENCE_CPU_S` of CPU time per input (a suite's time limit is three times its
  slowest test). A constructor or generator that raises or hangs, an input the statement or the
  validator rejects, one too large, or a reference too slow all mean "too far": the step is
  undone and the exponent halves;
* a step whose inputs are no larger is not judged. The exponent grows on (a value needs a few
  doublings to add a digit), for at most :data:`MAX_FLAT` such steps in a row, or one after a
  rejection; then the parameter is left alone (a percentage, a probability);
* passes over the parameters repeat while one keeps a step, within :data:`MAX_TRIALS` trials
  and :data:`BUDGET_S` seconds (a trial under way when the budget runs out is finished); no
  preset is tried twice.

The search is a function of the bootcamp, the seed and the verdicts, so one seed gives one
preset, except where the reference's time stops the growth: a trial at the edge of a time bound
may go either way on a loaded machine. When no step is kept, there is no stress level and the
:class:`Derivation` says why.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from synth.gate.calls import Validator
from synth.gate.inputs import (
    STRESS_CASES,
    StressProblem,
    input_checker,
    judge_stress,
    stress_reference,
)
from synth.gate.programs import ProgramRuns
from synth.sandbox.base import Backend, Outcome
from synth.sandbox.kit import canonical, json_problem
from synth.sandbox.methods import MethodServer, server_limits
from synth.serving.sampling import STRESS_LEVEL, CaseSampler, SampleError
from synth.statement import InputChecker

__all__ = ["BUDGET_S", "MAX_FLAT", "MAX_TRIALS", "REFERENCE_CPU_S", "VALUE_CAP", "Derivation", "StressJudge",
           "derive_stress"]

#: trials at most, and seconds at most, per derivation
MAX_TRIALS = 30
BUDGET_S = 120.0
#: no parameter grows past this (the largest bound of 64-bit contest problems)
VALUE_CAP = 10**18
#: CPU seconds the reference may take on one input of a derived preset
REFERENCE_CPU_S = 3.0
#: steps in a row that do not grow the inputs before a parameter is left alone
MAX_FLAT = 4
#: seconds one validate call may take, and a batch
VALIDATE_CALL_S, VALIDATE_BATCH_S = 2.0, 60.0


class Derivation(BaseModel):
    """What the search found: ``preset`` (None: no stress level, ``why`` says why), grown from
    the level ``start_level``'s preset ``start``; the largest input of the levels and of the
    preset, in characters; each trial in one line."""

    model_config = ConfigDict(extra="forbid")

    preset: dict[str, Any] | None = None
    start_level: str = ""
    start: dict[str, Any] = Field(default_factory=dict)
    largest_level: int = 0
    largest: int = 0
    why: str = ""
    trials: list[str] = Field(default_factory=list)
    elapsed_s: float = 0.0

    def summary(self) -> str:
        if self.preset is None:
            return f"no stress level derived: {self.why}"
        return (f"stress preset derived from {self.start_level!r} {self.start}: {self.preset} "
                f"(largest input {self.largest} characters, the levels' {self.largest_level}; "
                f"{len(self.trials)} trials, {self.elapsed_s:.1f} s)")


class StressJudge:
    """The checks of one bootcamp's stress inputs (:func:`judge_stress`) with this suite's
    statement, validator and reference, plus the derivation's CPU bound. Holds the validator's
    sandboxed session (started at its first use); close it."""

    def __init__(self, *, text: str | None, example_inputs: list[str], validator: str | None,
                 backend: Backend, program: str, memory_mb: int, label: str = "") -> None:
        self.checker: InputChecker | None = None
        if text:
            try:
                self.checker = input_checker(text, example_inputs or None)
            except Exception:  # the parser's own bug on this text: the build reports it
                self.checker = None
        self.validator_source, self.backend, self.label = validator, backend, label
        self._validator: Validator | None = None
        # every run of the job gets the suite's memory, as the suite's own runs do
        self._reference = stress_reference(backend, program, memory_mb * STRESS_CASES + 256)
        self.slowest_s = 0.0

    def _validate(self, stdins: list[str]) -> list[str | None]:
        if self._validator is None:
            assert self.validator_source is not None
            self._validator = Validator(MethodServer(
                self.validator_source, backend=self.backend, limits=server_limits(),
                mode="validator", role="validator", label=self.label or "suite-validator"))
            self._validator.load()
        return self._validator.validate_many(stdins, VALIDATE_CALL_S, total_s=VALIDATE_BATCH_S)

    def _run(self, stdins: list[str]) -> ProgramRuns:
        runs = self._reference(stdins)
        cpu = [o.get("cpu_s") for o in runs.outputs or []]
        self.slowest_s = max((float(c) for c in cpu if isinstance(c, int | float)), default=0.0)
        return runs

    def __call__(self, stdins: list[str], largest_level: int) -> str | None:
        """Why these inputs are no stress level (None: they are one)."""
        self.slowest_s = 0.0
        validate = self._validate if self.validator_source is not None else None
        bad: StressProblem | None = judge_stress(stdins, largest_level, self.checker,
                                                 validate=validate, reference=self._run)
        if bad is not None:
            return bad.reason
        if self.slowest_s > REFERENCE_CPU_S:
            return (f"the reference needs {self.slowest_s:.2f} s of CPU on an input (at most "
                    f"{REFERENCE_CPU_S:g} s for a derived preset)")
        return None

    def close(self) -> None:
        if self._validator is not None:
            self._validator.server.close()


def _grown(value: int, exponent: float) -> int:
    """``value x 2^exponent`` (exact for whole exponents), at most :data:`VALUE_CAP`."""
    # 2^(1/2) is the one fractional step
    new = value << int(exponent) if exponent >= 1 else math.isqrt(2 * value * value)
    return min(new, VALUE_CAP)


def _knobs(preset: dict[str, Any]) -> list[str]:
    return [k for k, v in preset.items() if type(v) is int and 0 < v < VALUE_CAP]


def derive_stress(sampler: CaseSampler, *, seeds: list[int], largest_level: int,
                  judge: Callable[[list[str], int], str | None], max_trials: int = MAX_TRIALS,
                  budget_s: float = BUDGET_S) -> Derivation:
    """The stress preset of the class ``sampler`` serves (it must declare no STRESS), grown from
    its last LEVELS preset; ``seeds``: the cases each trial draws; ``largest_level``: the
    characters of the levels' largest input; ``judge``: why a trial's inputs are no stress
    level, or None (:class:`StressJudge`). Raises :class:`SampleError` only when the sandbox
    fails (infrastructure)."""
    t0 = time.perf_counter()
    out = Derivation(largest_level=largest_level)
    if not sampler.levels:
        out.why = "the class has no LEVELS preset to start from"
        return out
    out.start_level = sampler.levels[-1]
    presets = sampler.info.get("levels") or {}
    out.start = dict(presets.get(out.start_level) or {})
    knobs = _knobs(out.start)
    if not knobs:
        out.why = (f"the hardest level's preset {out.start} has no positive int parameter "
                   "to grow")
        return out
    current, size = dict(out.start), largest_level
    rejected: list[str] = []
    seen: set[str] = set()  # the presets tried (none is tried twice)

    def trial(params: dict[str, Any]) -> tuple[str | None, int]:
        """(why the preset is too far, or None; its largest input). Inputs no larger than the
        best so far are not judged: the caller grows further or leaves the parameter."""
        seen.add(canonical(params))
        problem = json_problem(params, "STRESS")
        if problem is not None:
            return problem, 0
        try:
            drawn = sampler.sample([(STRESS_LEVEL, s) for s in seeds], render="stdin",
                                   stress=params)
        except SampleError as exc:
            if exc.outcome is Outcome.SANDBOX_ERROR:
                raise
            return f"the bootcamp failed: {exc.message[:300]}", 0
        stdins = [x.stdin or "" for x in drawn]
        got = max(len(x) for x in stdins)
        return (None if got <= size else judge(stdins, largest_level)), got

    def left() -> bool:
        return len(out.trials) < max_trials and time.perf_counter() - t0 < budget_s

    changed = True
    while changed and left():
        changed = False
        for key in knobs:
            exponent, narrowed, flat = 1.0, False, 0
            while left() and exponent >= 0.5:
                value = current[key]
                new = _grown(value, exponent)
                if new <= value:
                    break
                params = {**current, key: new}
                if canonical(params) in seen:  # tried before: the same verdict
                    break
                why, got = trial(params)
                if why is None and got > size:
                    out.trials.append(f"{key}={new}: kept ({got} characters)")
                    current, size, changed, flat = params, got, True, 0
                    exponent = exponent / 2 if narrowed else exponent * 2
                elif why is None:
                    # a value may need a few doublings to add a digit; a percentage never grows
                    flat += 1
                    out.trials.append(f"{key}={new}: its inputs do not grow ({got} characters)")
                    if narrowed or flat >= MAX_FLAT:
                        break
                    exponent *= 2
                else:
                    out.trials.append(f"{key}={new}: too far: {why[:300]}")
                    rejected.append(f"{key}={new}: {why[:300]}")
                    narrowed, exponent = True, exponent / 2
    out.elapsed_s = round(time.perf_counter() - t0, 3)
    if current == out.start:
        first = f"; first rejection: {rejected[0]}" if rejected else ""
        out.why = (f"no preset grown from {out.start_level!r} {out.start} passed the stress "
                   f"checks with larger inputs than the levels' ({len(out.trials)} trials)"
                   + first)
        return out
    out.preset, out.largest = current, size
    if not left():
        out.why = f"stopped after {len(out.trials)} trials, {out.elapsed_s:.1f} s"
    return out

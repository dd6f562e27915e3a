"""Programs run in the sandbox on many tests, each run timed: a suite's reference (its expected
outputs and its time per test) and the programs ``synth suite-eval`` judges.

* :func:`run_stdin`: a standalone stdin -> stdout program, once per input, with the kit's
  ``run-many`` (a process of its own per input, forked from a warm interpreter: what a fresh
  ``python program.py`` would print), at most four at a time. Each run reports its exit status,
  its output, its wall time and its CPU time (user + system, from ``wait4``: the measure that
  stays fair when runs share a loaded machine). A run past ``timeout_s`` of wall time is killed
  (``code`` None).
* :func:`run_function`: a reference function called once per argument list, in one sandboxed
  process (:data:`synth.gate.functions.CALLS_SCRIPT`, the gate's function oracle's job: as a
  function bootcamp calls its key), each call timed by the CPU clock; the return value comes back as JSON (:func:`synth.values.encode`).

Inputs go to jobs in chunks (:data:`CHUNK` inputs, :data:`CHUNK_CHARS` characters). A chunk whose
job is killed as a whole (memory of the whole job, output past the cap) is run again in halves,
down to single inputs, so that one bad run costs only its own verdict. A sandbox that cannot run
at all raises :class:`RunError`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from synth.gate.functions import CALLS_SCRIPT
from synth.sandbox.base import Backend, Limits, Outcome, SandboxJob
from synth.sandbox.kit import KIT_NAME
from synth.sandbox.kit.forkrun import PARALLEL
from synth.sandbox.methods import KIT_FILES, code_unit, contract_files

__all__ = ["CHUNK", "FunctionRun", "Run", "RunError", "run_function", "run_stdin"]

#: inputs per job, and characters of input per job
CHUNK = 16
CHUNK_CHARS = 32_000_000
#: ``code`` of a run whose job was killed as a whole even when alone (``stderr`` says how)
KILLED = -1000


class RunError(Exception):
    """The sandbox could not run the job at all (infrastructure, not the program)."""


@dataclass(frozen=True)
class Run:
    """One run of a program on one input. ``code``: the exit status, None when it was killed
    at its wall-time limit, :data:`KILLED` when its job was killed as a whole."""

    stdout: str
    stderr: str
    code: int | None
    cpu_s: float
    wall_s: float

    @property
    def ok(self) -> bool:
        return self.code == 0


def _job_limits(n: int, timeout_s: float, memory_mb: int, output_bytes: int) -> Limits:
    rounds = -(-n // PARALLEL)
    wall = min(3600.0, timeout_s * rounds + 20)
    return Limits(wall_s=wall, cpu_s=min(3600.0, timeout_s * n + 20),
                  # a cgroup caps the job as a whole: room for every run at once, and the kit
                  memory_mb=min(65536, memory_mb * min(n, PARALLEL) + 256),
                  pids=32, file_size_mb=4, max_output_bytes=output_bytes)


def _number(value: Any) -> float:
    return float(value) if type(value) in (int, float) and math.isfinite(value) else 0.0


def _chunks(texts: list[str]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    start = 0
    while start < len(texts):
        end, size = start, 0
        while end < len(texts) and end - start < CHUNK and (
                end == start or size + len(texts[end]) <= CHUNK_CHARS):
            size += len(texts[end])
            end += 1
        out.append((start, end))
        start = end
    return out


def run_stdin(backend: Backend, code: str, stdins: list[str], *, timeout_s: float,
              memory_mb: int, role: str, max_output: int = 4_000_000) -> list[Run]:
    """One :class:`Run` per input of ``stdins``, in order (see the module docstring)."""
    out: list[Run] = []
    for start, end in _chunks(stdins):
        out += _stdin_chunk(backend, code, stdins[start:end], timeout_s, memory_mb, role,
                            max_output)
    return out


def _stdin_chunk(backend: Backend, code: str, stdins: list[str], timeout_s: float,
                 memory_mb: int, role: str, max_output: int) -> list[Run]:
    cap = min(256_000_000, 2 * max_output * len(stdins) + 1_000_000)
    job = SandboxJob(
        files={**KIT_FILES, "program.py": code},
        argv=[KIT_NAME, "run-many", "program.py"],
        stdin=json.dumps({"inputs": stdins, "timeout": timeout_s, "max_output": max_output}),
        unit=code_unit(code, role),
    )
    result = backend.run(job, _job_limits(len(stdins), timeout_s, memory_mb, cap))
    if result.outcome is Outcome.SANDBOX_ERROR:
        raise RunError(f"the sandbox could not run the program: {result.detail}")
    runs = _report(result.stdout, len(stdins)) if result.outcome is Outcome.PASSED else None
    if runs is not None:
        return runs
    if len(stdins) > 1:
        half = len(stdins) // 2
        return (_stdin_chunk(backend, code, stdins[:half], timeout_s, memory_mb, role, max_output)
                + _stdin_chunk(backend, code, stdins[half:], timeout_s, memory_mb, role,
                               max_output))
    why = f"the job was killed: {result.outcome.value} {result.detail}".strip()
    return [Run("", why, KILLED, 0.0, result.elapsed_s)]


def _report(stdout: str, expected: int) -> list[Run] | None:
    try:
        items = json.loads(stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None
    if type(items) is not list or len(items) != expected:
        return None
    runs = []
    for o in items:
        if type(o) is not dict or type(o.get("stdout")) is not str or \
                type(o.get("stderr")) is not str or not (o.get("code") is None
                                                         or type(o.get("code")) is int):
            return None
        runs.append(Run(o["stdout"], o["stderr"], o["code"], _number(o.get("cpu_s")),
                        _number(o.get("wall_s"))))
    return runs


@dataclass(frozen=True)
class FunctionRun:
    """One call of a reference function: ``value`` its return value as JSON (``code`` 0), or
    why not (``code`` 1: it raised, 3: not a value of a function task, None: out of time)."""

    value: Any
    error: str
    code: int | None
    cpu_s: float

    @property
    def ok(self) -> bool:
        return self.code == 0


def run_function(backend: Backend, source: str, entry_point: str, calls: list[list[Any]], *,
                 timeout_s: float, memory_mb: int, role: str) -> list[FunctionRun]:
    """One :class:`FunctionRun` per JSON-encoded argument list of ``calls``, in order."""
    out: list[FunctionRun] = []
    for start in range(0, len(calls), 4 * CHUNK):
        chunk = calls[start:start + 4 * CHUNK]
        wall = min(3600.0, timeout_s * len(chunk) + 20)
        limits = Limits(wall_s=wall, cpu_s=wall, memory_mb=min(65536, memory_mb + 256), pids=8,
                        file_size_mb=4, max_output_bytes=64_000_000)
        job = SandboxJob(
            files={**contract_files(), "program.py": source, "call_function.py": CALLS_SCRIPT},
            argv=["call_function.py"],
            stdin=json.dumps({"inputs": chunk, "entry_point": entry_point,
                              "timeout": timeout_s}),
            unit=code_unit(source, role),
        )
        result = backend.run(job, limits)
        if result.outcome is not Outcome.PASSED:
            raise RunError(f"the reference function's sandbox job ended: {result.outcome.value} "
                           f"{result.detail}".strip())
        try:
            items = json.loads(result.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            raise RunError("the reference function's job wrote no report") from None
        if type(items) is not list or len(items) != len(chunk) or not all(
                type(o) is dict and type(o.get("stderr")) is str
                and (o.get("code") is None or type(o.get("code")) is int) for o in items):
            raise RunError("the reference function's job wrote a malformed report")
        out += [FunctionRun(o.get("value"), o["stderr"], o["code"], _number(o.get("cpu_s")))
                for o in items]
    return out

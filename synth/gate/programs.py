"""Run a standalone stdin -> stdout program on many inputs in one sandbox job.

The gate runs the task's reference program (the oracle check), the task's other solutions and
a judge's solver (the key check) this way: a job of its own per program (its own isolation unit,
never the candidate's session), the kit's ``run-many`` running each input in a process of its
own, forked from a warm interpreter (what a fresh ``python program.py`` would print: real
stdin/stdout descriptors, fresh globals, exit status; about 5x faster than an interpreter start
per input), at most four at a time, each with its own timeout. The report is validated here
before use.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from synth.sandbox.base import Backend, Limits, Outcome, SandboxJob
from synth.sandbox.kit import KIT_NAME
from synth.sandbox.methods import KIT_FILES, code_unit, contract_files

__all__ = ["UNSUPPORTED", "ProgramRuns", "run_in_process", "run_program"]


@dataclass
class ProgramRuns:
    """One job's outcome: ``outputs`` (one ``{"stdout", "stderr", "code"}`` per input, ``code``
    None on a timeout) when the job ran, else why not (``outcome``, ``detail``)."""

    outputs: list[dict[str, Any]] | None
    outcome: str = "passed"
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.outputs is not None

    def why(self, what: str = "the program") -> str:
        return f"{what}'s sandbox run ended: {self.outcome} {self.detail}".strip()


def run_program(backend: Backend, code: str, stdins: list[str], *, timeout_s: float,
                memory_mb: int, role: str, filename: str = "program.py",
                wall_s: float | None = None) -> ProgramRuns:
    """``code``'s outputs on ``stdins`` from one sandbox job (unit: the code's hash and
    ``role``; the program is the job's ``filename``); each input gets ``timeout_s``, the whole
    job at most ``wall_s`` (then it is killed: outcome ``timeout``)."""
    rounds = -(-len(stdins) // 4)
    wall = min(3600.0, timeout_s * rounds + 20)
    limits = Limits(wall_s=wall if wall_s is None else max(1.0, min(wall, wall_s)),
                    cpu_s=min(3600.0, timeout_s * len(stdins) + 20),
                    memory_mb=memory_mb, pids=32, file_size_mb=4, max_output_bytes=8_000_000)
    job = SandboxJob(
        files={**KIT_FILES, filename: code},
        argv=[KIT_NAME, "run-many", filename],
        stdin=json.dumps({"inputs": stdins, "timeout": timeout_s, "max_output": 1_000_000}),
        unit=code_unit(code, role),
    )
    return _report(backend.run(job, limits), len(stdins))


#: The job's script for :func:`run_in_process` (trusted text; it runs in the sandbox).
_IN_PROCESS = '''"""Run program.py on each input of the request with the contract's runner, in this process."""
import json
import signal
import sys

from synth.runner import ProgramError, UnsupportedProgramError, run_program


class Late(BaseException):
    pass


def alarm(signum, frame):
    raise Late()


def main():
    request = json.loads(sys.stdin.read())
    with open("program.py", encoding="utf-8") as handle:
        source = handle.read()
    limit, cap = float(request["timeout"]), int(request["max_output"])
    signal.signal(signal.SIGALRM, alarm)
    out = []
    for text in request["inputs"]:
        signal.setitimer(signal.ITIMER_REAL, limit)
        try:
            item = {"stdout": run_program(source, text)[:cap], "stderr": "", "code": 0}
        except Late:
            item = {"stdout": "", "stderr": "no answer in time", "code": None}
        except UnsupportedProgramError as exc:
            item = {"stdout": "", "stderr": str(exc)[-2000:], "code": -2}
        except ProgramError as exc:
            item = {"stdout": (exc.stdout or "")[:cap], "stderr": str(exc)[-2000:],
                    "code": exc.exit_code or 1}
        except MemoryError:
            item = {"stdout": "", "stderr": "MemoryError", "code": -1}
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        out.append(item)
    sys.stdout.write(json.dumps(out) + "\\n")


main()
'''
#: ``code`` of an input the contract's runner could not run (the program needs what it lacks)
UNSUPPORTED = -2


def run_in_process(backend: Backend, code: str, stdins: list[str], *, timeout_s: float,
                   memory_mb: int, role: str, wall_s: float | None = None) -> ProgramRuns:
    """Like :func:`run_program`, but every input runs in ONE process, with the contract's own
    in-process runner (:func:`synth.runner.run_program`, as a compiled bootcamp runs its
    key): no interpreter start per input. An input the runner cannot run has ``code``
    :data:`UNSUPPORTED`; a timeout (``timeout_s`` per input, by an interval timer) ``None``."""
    wall = min(3600.0, timeout_s * len(stdins) + 20)
    limits = Limits(wall_s=wall if wall_s is None else max(1.0, min(wall, wall_s)),
                    cpu_s=min(3600.0, timeout_s * len(stdins) + 20), memory_mb=memory_mb,
                    pids=8, file_size_mb=4, max_output_bytes=8_000_000)
    job = SandboxJob(
        files={**contract_files(), "program.py": code, "run_inputs.py": _IN_PROCESS},
        argv=["run_inputs.py"],
        stdin=json.dumps({"inputs": stdins, "timeout": timeout_s, "max_output": 1_000_000}),
        unit=code_unit(code, role),
    )
    return _report(backend.run(job, limits), len(stdins))


def _report(run: Any, expected: int) -> ProgramRuns:
    if run.outcome is not Outcome.PASSED:
        return ProgramRuns(None, run.outcome.value, run.detail)
    try:
        outs = json.loads(run.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return ProgramRuns(None, "error", "the sandbox run wrote no report")
    if type(outs) is not list or len(outs) != expected or not all(
        type(o) is dict and type(o.get("stdout")) is str and type(o.get("stderr")) is str
        and (o.get("code") is None or type(o.get("code")) is int) for o in outs
    ):
        return ProgramRuns(None, "error", "the sandbox run wrote a malformed report")
    return ProgramRuns(outs)

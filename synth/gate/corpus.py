"""Run the gate over many modules in parallel (:func:`run_parallel`, used by ``synth audit``),
and over a corpus folder of bootcamps with their checkers and reference programs.

A corpus is a folder of ``NAME.py`` modules, each optionally with ``NAME.checker.py`` (an
independent checker) and ``NAME.reference.py`` (a reference program), and a ``MANIFEST.json``
whose ``modules`` list gives each module's ``kind`` (``clean`` or a defect kind). Used by the
corpus test and by ``bench/differential.py``.
"""

from __future__ import annotations

import json
import time
import traceback
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from synth.gate.report import CheckConfig, CheckReport
from synth.gate.run import run_checks
from synth.sandbox.base import Backend, SandboxUnavailableError

__all__ = ["CorpusResult", "GateJob", "GateOutcome", "run_corpus", "run_parallel"]


@dataclass
class CorpusResult:
    module: str
    kind: str
    with_checker: bool
    report: CheckReport
    seconds: float

    @property
    def rejected(self) -> bool:
        return not self.report.passed

    @property
    def failing(self) -> list[str]:
        return [c.name + (f"/{c.finding}" if c.finding else "") for c in self.report.failing]


@dataclass
class GateJob:
    """One module for :func:`run_parallel`: its source and, optionally, the sources of its
    independent checker and reference program."""

    name: str
    source: str
    checker: str | None = None
    reference: str | None = None


@dataclass
class GateOutcome:
    """The gate's report on one :class:`GateJob`, or ``error``: the traceback of a crash of
    the gate itself on that module (never the candidate's fault; the other modules still run)."""

    job: GateJob
    report: CheckReport | None
    seconds: float
    error: str = ""


def run_parallel(jobs: Iterable[GateJob], backend: str | Backend, *, workers: int = 2,
                 config: CheckConfig | None = None,
                 on_done: Callable[[GateOutcome], None] | None = None) -> list[GateOutcome]:
    """:func:`~synth.gate.run.run_checks` on every job, ``workers`` at a time (each in its
    own sandbox sessions), in the order given. ``on_done`` is called as each one finishes."""

    def one(job: GateJob) -> GateOutcome:
        t0 = time.perf_counter()
        try:
            report = run_checks(job.source, backend=backend, config=config, name=job.name,
                                checker=job.checker, reference=job.reference)
            done = GateOutcome(job, report, time.perf_counter() - t0)
        except SandboxUnavailableError:
            raise
        except Exception:  # the tool's own crash on this module: reported, the others run
            done = GateOutcome(job, None, time.perf_counter() - t0,
                               error=traceback.format_exc()[-4000:])
        if on_done is not None:
            on_done(done)
        return done

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        return list(pool.map(one, jobs))


def run_corpus(folder: Path, backend: str | Backend, *, checkers: bool = True, workers: int = 2,
               config: CheckConfig | None = None,
               kinds: set[str] | None = None) -> list[CorpusResult]:
    """Gate every module the folder's MANIFEST.json lists (only those of ``kinds`` if given)."""
    manifest = json.loads((folder / "MANIFEST.json").read_text(encoding="utf-8"))
    entries = [(m["module"], m["kind"]) for m in manifest["modules"]
               if kinds is None or m["kind"] in kinds]
    jobs = []
    for name, _ in entries:
        checker = folder / f"{name}.checker.py"
        reference = folder / f"{name}.reference.py"
        jobs.append(GateJob(
            name, (folder / f"{name}.py").read_text(encoding="utf-8"),
            checker=checker.read_text(encoding="utf-8") if checkers and checker.exists() else None,
            reference=reference.read_text(encoding="utf-8") if reference.exists() else None))
    results = []
    for (name, kind), done in zip(entries, run_parallel(jobs, backend, workers=workers,
                                                        config=config), strict=True):
        if done.report is None:
            raise RuntimeError(f"the gate crashed on {name}:\n{done.error}")
        results.append(CorpusResult(name, kind, done.job.checker is not None, done.report,
                                    done.seconds))
    return results

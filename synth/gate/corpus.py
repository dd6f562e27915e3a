"""Run the gate over a corpus folder of bootcamps with their checkers and reference programs.

A corpus is a folder of ``NAME.py`` modules, each optionally with ``NAME.checker.py`` (an
independent checker) and ``NAME.reference.py`` (a reference program), and a ``MANIFEST.json``
whose ``modules`` list gives each module's ``kind`` (``clean`` or a defect kind). Used by the
corpus test and by ``bench/differential.py``.
"""

from __future__ import annotations

import json
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from synth.gate.report import CheckConfig, CheckReport
from synth.gate.run import run_checks
from synth.sandbox.base import Backend

__all__ = ["CorpusResult", "run_corpus"]


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


def run_corpus(folder: Path, backend: str | Backend, *, checkers: bool = True, workers: int = 2,
               config: CheckConfig | None = None) -> list[CorpusResult]:
    manifest = json.loads((folder / "MANIFEST.json").read_text(encoding="utf-8"))
    entries = [(m["module"], m["kind"]) for m in manifest["modules"]]

    def one(entry: tuple[str, str]) -> CorpusResult:
        name, kind = entry
        source = (folder / f"{name}.py").read_text(encoding="utf-8")
        checker = folder / f"{name}.checker.py"
        reference = folder / f"{name}.reference.py"
        t0 = time.perf_counter()
        report = run_checks(
            source, backend=backend, config=config, name=name,
            checker=checker.read_text(encoding="utf-8") if checkers and checker.exists() else None,
            reference=reference.read_text(encoding="utf-8") if reference.exists() else None,
        )
        return CorpusResult(name, kind, checkers and checker.exists(), report,
                            time.perf_counter() - t0)

    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(one, entries))

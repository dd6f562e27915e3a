"""Gate a corpus of tests/defects, each module no further than its tests read.

:func:`gate_corpus` gives what ``run_corpus(folder, backend, checkers=...)`` gives for every
module of the folder's MANIFEST.json, with the default ``CheckConfig``, except that a defective
module's gate ends at its first rejecting check (``fail_fast``) unless the tests need more:

* a clean module is gated in full: "no clean module is rejected" needs every check;
* a defective module is gated with ``fail_fast``: whether it is rejected is the same as in a
  full run (the checks before the first rejection run alike, in the same order with the same
  seeds, and one rejection rejects), and the checks after it assert nothing here;
* a defective module whose fail-fast report does not show its kind's reason (``shows_reason``
  is False: e.g. an unrelated check rejected it first) is gated again in full, so a test of
  the reasons reads its whole report. A report that shows the reason with fail_fast shows it
  in full too (the full report fails every check the fail-fast one fails, and more).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from synth.gate.corpus import CorpusResult
from synth.gate.report import CheckConfig
from synth.gate.run import run_checks
from synth.sandbox.base import Backend

FAIL_FAST = CheckConfig(fail_fast=True)


def _gate(folder: Path, entry: dict[str, Any], backend: Backend, checkers: bool,
          config: CheckConfig | None) -> CorpusResult:
    """One module gated as :func:`synth.gate.corpus.run_corpus` gates it."""
    name = entry["module"]
    start = time.perf_counter()
    checker = folder / f"{name}.checker.py"
    reference = folder / f"{name}.reference.py"
    source = checker.read_text(encoding="utf-8") if checkers and checker.exists() else None
    report = run_checks((folder / f"{name}.py").read_text(encoding="utf-8"), backend=backend,
                        config=config, name=name, checker=source,
                        reference=reference.read_text(encoding="utf-8")
                        if reference.exists() else None)
    return CorpusResult(name, entry["kind"], source is not None, report,
                        time.perf_counter() - start)


def gate_corpus(folder: Path, backend: Backend, *, checkers: bool,
                shows_reason: Callable[[CorpusResult], bool],
                workers: int = 2) -> list[CorpusResult]:
    """Every module of ``folder``'s MANIFEST.json, in its order, gated as the module docstring
    says (a re-gate in full in the same worker); ``workers`` modules at a time."""
    entries = json.loads((folder / "MANIFEST.json").read_text(encoding="utf-8"))["modules"]

    def gate(entry: dict[str, Any]) -> CorpusResult:
        if entry["kind"] == "clean":
            return _gate(folder, entry, backend, checkers, None)
        fast = _gate(folder, entry, backend, checkers, FAIL_FAST)
        if not fast.rejected or shows_reason(fast):
            return fast
        return _gate(folder, entry, backend, checkers, None)

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        return list(pool.map(gate, entries))

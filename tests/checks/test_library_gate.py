"""Every bootcamp shipped in generated_bootcamps/ passes the whole gate (with its reference
program when generated_bootcamps/<source>/reference/<name>.py exists) and has the instance space
the library asks for. The engine-backed ones
(Go, with GNU Go) are gated in tests/engines/test_gate.py, in the bwrap sandbox, where the
engine's version is checked as well."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from synth.engines import declared_engines
from synth.gate import CheckStatus, run_checks_file

LIBRARY = Path(__file__).resolve().parent.parent.parent / "generated_bootcamps"
#: modules rejected in review stay on disk with their reason (synth review reject): not gated
REJECTED = {r["module_path"] for r in json.loads((LIBRARY / "manifest.json").read_text("utf-8"))
            ["bootcamps"] if r.get("status") == "rejected-in-review"}
MODULES = sorted(
    p for p in LIBRARY.glob("*/*.py") if not p.name.startswith("_")
    and p.parent.name != "reference" and p.relative_to(LIBRARY).as_posix() not in REJECTED
)
SHIPPED = [p for p in MODULES if not declared_engines(p.read_text(encoding="utf-8"))]
ENGINE_TESTS = Path(__file__).resolve().parent.parent / "engines" / "test_gate.py"


def test_the_library_has_bootcamps_to_check():
    assert SHIPPED, f"no bootcamp modules under {LIBRARY}"
    gated_there = ENGINE_TESTS.read_text(encoding="utf-8")
    for path in set(MODULES) - set(SHIPPED):  # each engine-backed one is gated there
        assert f'"{path.name}"' in gated_there or f"{path.stem.upper()} =" in gated_there, path


@pytest.mark.parametrize("path", SHIPPED, ids=[f"{p.parent.name}/{p.name}" for p in SHIPPED])
def test_shipped_bootcamp_passes_the_gate(path, process_backend):
    ref = path.parent / "reference" / path.name
    report = run_checks_file(path, reference=ref if ref.is_file() else None,
                             backend=process_backend)
    assert report.passed, report.feedback()
    # the library's own rule (synth run commits none with few different prompts)
    assert report.few_instances is None, report.few_instances.reason
    oracle = report.get("oracle")  # a multi-turn bootcamp's suite has no oracle check
    assert oracle is not None or report.get("reference_policy") is not None
    if oracle is not None:
        # a stdin program's reference is a file beside it; a function task embeds its function
        embeds = "_ENTRY_POINT = " in path.read_text(encoding="utf-8")
        assert oracle.status is (CheckStatus.PASSED if ref.is_file() or embeds else CheckStatus.SKIPPED)

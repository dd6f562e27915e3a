"""`synth audit PATH`: exit codes on small folders, audit.csv and audit.html, --jobs, --path,
--python, --checkers, an installed package, usage errors and a crash of the tool on one module.
Every module here is written for the test, in InternBootcamp's conventions (audit_helpers.py).
"""

from __future__ import annotations

import csv
import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from audit_helpers import CHECKERS, invoke, module_source, open_up, world_readable
from markupsafe import escape

from synth.reporting.audit import CSV_COLUMNS

pytestmark = pytest.mark.timeout(600)


def _rows(out: Path) -> dict[str, dict[str, str]]:
    with (out / "audit.csv").open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        assert tuple(reader.fieldnames or ()) == CSV_COLUMNS
        return {row["module"]: row for row in reader}


def _reports(out: Path) -> dict[str, dict[str, Any]]:
    data = json.loads((out / "audit.json").read_text(encoding="utf-8"))
    return {m["module"]: m["report"] for m in data["modules"]}


def _audit(folder: Path, out: Path, *extra: str) -> tuple[int, str]:
    res = invoke(str(folder), "--out", str(out), "--sandbox", "process", *extra)
    return res.exit_code, res.output


def test_all_fine_exits_0_and_writes_the_table(library: Callable[..., Path], tmp_path: Path):
    folder = library("sum_fine", "max_fine")
    (folder / "helpers.py").write_text("def unused():\n    return 1\n", encoding="utf-8")
    code, output = _audit(folder, tmp_path / "out")
    assert code == 0, output
    assert "accepted 2" in output and "rejected 0" in output
    rows = _rows(tmp_path / "out")
    assert sorted(rows) == ["max_fine.py", "sum_fine.py"]  # helpers.py has no bootcamp class
    row = rows["sum_fine.py"]
    assert row["class"] == "SumFinebootcamp" and row["verdict"] == "accepted"
    assert row["decisive"] == "" and row["reject"] == "0" and row["mode"] == "intern"
    # the library's conventions are reported, with their class, and never reject
    assert int(row["convention"]) >= 2
    assert "construct/accepts_unknown_parameter:convention" in row["findings"]
    assert "determinism/global_random:convention" in row["findings"]
    assert float(row["elapsed_s"]) > 0
    html = (tmp_path / "out" / "audit.html").read_text(encoding="utf-8")
    assert '<div class="card accepted" id="card-accepted"><div class="k">accepted</div><div class="v">2</div>' in html
    assert "accepts_unknown_parameter" in html and "helpers.py" in html
    assert "<link" not in html and "src=\"http" not in html  # self-contained


def test_one_defective_module_exits_1_and_names_the_decisive_finding(
        library: Callable[..., Path], tmp_path: Path):
    folder = library("sum_fine", "anything_goes")
    code, output = _audit(folder, tmp_path / "out")
    assert code == 1, output
    assert "accepted 1" in output and "rejected 1" in output
    row = _rows(tmp_path / "out")["anything_goes.py"]
    assert row["verdict"] == "rejected" and row["decisive_severity"] == "reject"
    assert row["decisive"] and row["decisive_reason"] and int(row["reject"]) >= 1
    assert f"{row['decisive']}:reject" in row["findings"]
    html = (tmp_path / "out" / "audit.html").read_text(encoding="utf-8")
    assert '<span class="chip rejected">rejected</span>' in html
    assert '<div class="finding reject">' in html and str(escape(row["decisive_reason"][:40])) in html


def test_a_missing_dependency_exits_3_naming_the_module(library: Callable[..., Path],
                                                        tmp_path: Path):
    folder = library("sum_fine", "needs_fakedep")
    code, output = _audit(folder, tmp_path / "out")
    assert code == 3, output
    assert "cannot judge 1" in output and "needs_fakedep.py: missing fakedep" in output
    row = _rows(tmp_path / "out")["needs_fakedep.py"]
    assert row["verdict"] == "cannot_judge" and row["missing_module"] == "fakedep"
    assert row["decisive_severity"] == "cannot_judge"
    html = (tmp_path / "out" / "audit.html").read_text(encoding="utf-8")
    assert '<table id="missing">' in html


def test_rejection_outranks_cannot_judge(library: Callable[..., Path], tmp_path: Path):
    code, _ = _audit(library("anything_goes", "needs_fakedep"), tmp_path / "out")
    assert code == 1


def test_path_resolves_the_dependency(library: Callable[..., Path], fakedep_dir: Path,
                                      tmp_path: Path):
    folder = library("needs_fakedep")
    code, output = _audit(folder, tmp_path / "out", "--path", str(fakedep_dir))
    assert code == 0, output
    assert _rows(tmp_path / "out")["needs_fakedep.py"]["verdict"] == "accepted"
    assert f"import path {fakedep_dir}" in output


def test_python_and_its_venv_resolve_the_dependency(library: Callable[..., Path],
                                                    fakedep_dir: Path, tmp_path: Path):
    import subprocess

    venv = world_readable("synth-audit-venv-")
    try:
        subprocess.run(["/usr/bin/python3", "-m", "venv", "--without-pip", str(venv / "v")],
                       check=True, capture_output=True, timeout=120)
        site = next((venv / "v" / "lib").glob("python3.*/site-packages"))
        shutil.copytree(fakedep_dir / "fakedep", site / "fakedep")
        open_up(venv / "v" / "lib")
        python = str(venv / "v" / "bin" / "python")
        for backend in ("process", "bwrap"):
            out = tmp_path / backend
            res = invoke(str(library("needs_fakedep")), "--out", str(out), "--sandbox", backend,
                         "--python", python)
            assert res.exit_code == 0, res.output
            assert f"interpreter {python} (venv " in res.output
            assert _rows(out)["needs_fakedep.py"]["verdict"] == "accepted"
    finally:
        shutil.rmtree(venv, ignore_errors=True)


def test_jobs_2_gives_the_same_verdicts_as_jobs_1(library: Callable[..., Path], tmp_path: Path):
    folder = library("sum_fine", "max_fine", "anything_goes", "needs_fakedep")
    seen = {}
    for jobs in ("1", "2"):
        code, output = _audit(folder, tmp_path / jobs, "--jobs", jobs)
        assert code == 1, output
        assert f"{jobs} job" in output
        seen[jobs] = {m: (r["verdict"], r["decisive"], r["findings"])
                      for m, r in _rows(tmp_path / jobs).items()}
    assert seen["1"] == seen["2"]
    assert [v[0] for _, v in sorted(seen["2"].items())] == [
        "rejected", "accepted", "cannot_judge", "accepted"]


def test_checkers_apply_the_differential_checks(library: Callable[..., Path], tmp_path: Path):
    folder = library("sort_any_order", "sum_fine")
    checkers = tmp_path / "checkers"
    checkers.mkdir()
    for name, text in CHECKERS.items():
        (checkers / f"{name}.py").write_text(text, encoding="utf-8")
    (checkers / "orphan.py").write_text(CHECKERS["sum_fine"], encoding="utf-8")
    code, output = _audit(folder, tmp_path / "out", "--checkers", str(checkers))
    assert code == 1, output
    assert "checkers that match no module: orphan.py" in output
    rows, reports = _rows(tmp_path / "out"), _reports(tmp_path / "out")
    assert rows["sort_any_order.py"]["checker"] == "sort_any_order.py"
    diff = {c["name"]: c for c in reports["sort_any_order.py"]["checks"]}["differential"]
    assert diff["status"] == "failed" and diff["finding"] == "verifier_too_lenient"
    assert "differential/verifier_too_lenient:reject" in rows["sort_any_order.py"]["findings"]
    assert rows["sort_any_order.py"]["verdict"] == "rejected"
    fine = {c["name"]: c for c in reports["sum_fine.py"]["checks"]}["differential"]
    assert fine["severity"] != "reject" or fine["status"] == "passed", fine
    assert rows["sum_fine.py"]["verdict"] == "accepted"
    # without checkers the differential check does not run
    _audit(folder, tmp_path / "plain")
    plain = {c["name"]: c for c in _reports(tmp_path / "plain")["sort_any_order.py"]["checks"]}
    assert plain["differential"]["status"] == "skipped"


def test_an_installed_package_is_audited_without_importing_it(monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path):
    root = world_readable("synth-audit-pkg-")
    try:
        pkg = root / "auditpkg_t12"
        (pkg / "tasks").mkdir(parents=True)
        (pkg / "__init__.py").write_text("IMPORTED = True\n", encoding="utf-8")
        (pkg / "tasks" / "__init__.py").write_text("", encoding="utf-8")
        (pkg / "helpers.py").write_text("def total(numbers):\n    return sum(numbers)\n",
                                        encoding="utf-8")
        source = module_source("needs_fakedep").replace(
            "from fakedep import total", "from auditpkg_t12.helpers import total")
        (pkg / "tasks" / "sum_task.py").write_text(source, encoding="utf-8")
        (pkg / "tasks" / "max_task.py").write_text(module_source("max_fine"), encoding="utf-8")
        open_up(root)
        monkeypatch.syspath_prepend(str(root))  # "installed" where synth runs
        for target, found in (("auditpkg_t12", ["tasks/max_task.py", "tasks/sum_task.py"]),
                              ("auditpkg_t12.tasks", ["max_task.py", "sum_task.py"])):
            out = tmp_path / target
            res = invoke(target, "--out", str(out), "--sandbox", "process")
            # the package's own folder is importable in the sandbox: its helpers resolve
            assert res.exit_code == 0, res.output
            assert f"package {target}" in res.output
            assert sorted(_rows(out)) == found
        assert "auditpkg_t12" not in sys.modules
    finally:
        shutil.rmtree(root, ignore_errors=True)


def test_usage_errors_exit_2(library: Callable[..., Path], fakedep_dir: Path, tmp_path: Path):
    folder = library("sum_fine")
    cases = [
        (["/nonexistent/folder"], "neither a folder"),
        (["no_such_package_t12"], "no installed package"),
        ([str(folder), "--sandbox", "nope"], "--sandbox must be one of"),
        ([str(folder), "--checkers", str(tmp_path / "missing")], "is not a folder"),
        ([str(folder), "--python", "/nonexistent/python3"], "--python"),
        ([str(folder), "--path", str(tmp_path / "missing")], "is not a directory"),
        ([str(folder), "--sandbox", "docker", "--path", str(fakedep_dir)], "docker"),
        ([str(tmp_path / "empty")], "no bootcamp modules"),
    ]
    (tmp_path / "empty").mkdir()
    for args, said in cases:
        res = invoke(*args, "--out", str(tmp_path / "out"))
        assert res.exit_code == 2, (args, res.output)
        assert said in res.output, (args, res.output)


def test_a_crash_of_the_tool_on_one_module_is_reported_and_exits_2(
        library: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    import synth.gate.corpus as corpus

    real = corpus.run_checks

    def flaky(source: str, **kw: Any) -> Any:
        if "Multiply these numbers" in source:
            raise ValueError("Exceeds the limit (4300 digits) for integer string conversion")
        return real(source, **kw)

    monkeypatch.setattr(corpus, "run_checks", flaky)
    code, output = _audit(library("sum_fine", "anything_goes"), tmp_path / "out")
    assert code == 2, output
    rows = _rows(tmp_path / "out")
    assert rows["sum_fine.py"]["verdict"] == "accepted"
    crashed = rows["anything_goes.py"]
    assert crashed["verdict"] == "infrastructure_error" and crashed["decisive"] == "tool/crash"
    assert "4300 digits" in crashed["decisive_reason"]

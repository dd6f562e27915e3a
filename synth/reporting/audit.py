"""``synth audit``: judge every module of an existing bootcamp library, write audit.csv/.html.

The library is a folder of modules, or an installed package found by name without importing
it (:func:`resolve_target`). Every file that defines a bootcamp class (a class whose base is
named ``...bootcamp``: ``Basebootcamp``, ``BaseBootcamp``) is run through the whole gate in
the sandbox, several at a time (:func:`synth.gate.corpus.run_parallel`), optionally with an
independent checker of the same name (``--checkers DIR``) and the library's own interpreter
and import path (:mod:`synth.sandbox.interpreter`). The CLI process never imports a module.

Each module gets a verdict -- ``accepted``, ``rejected`` (a finding of severity ``reject``),
``cannot_judge`` (nothing rejects it, but the audit could not run part of it, e.g. a missing
dependency) or ``infrastructure_error`` (the sandbox or the tool failed; never the module's
fault) -- and every finding of every check, each with its severity class: the library's
conventions are reported and never reject (:mod:`synth.gate.severity`).
"""

from __future__ import annotations

import ast
import csv
import importlib.machinery
import importlib.util
import json
import os
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from synth.gate.corpus import GateJob, GateOutcome, run_parallel
from synth.gate.report import CheckConfig, CheckReport, CheckResult
from synth.sandbox.base import Backend
from synth.text import pyast

__all__ = [
    "CSV_COLUMNS",
    "SEVERITIES",
    "Audit",
    "Finding",
    "Module",
    "ModuleAudit",
    "Target",
    "find_modules",
    "resolve_target",
    "run_audit",
    "write_csv",
    "write_html",
]

#: The columns of audit.csv, in order.
CSV_COLUMNS = ("module", "class", "verdict", "decisive", "decisive_severity", "decisive_reason",
               "reject", "convention", "cannot_judge", "findings", "missing_module", "mode",
               "checker", "elapsed_s")
#: Severity classes of the findings, most severe first: the gate's three (reject, cannot
#: judge, convention), plus ``notice`` (a soft check's finding, e.g. an independent checker
#: that does not load: reported, never rejecting, and not the library's convention) and
#: ``infrastructure`` (the sandbox failed: never the module's fault).
SEVERITIES = ("infrastructure", "reject", "cannot_judge", "convention", "notice")
SEVERITY_LABEL = {"infrastructure": "sandbox error", "reject": "reject",
                  "cannot_judge": "cannot judge", "convention": "convention", "notice": "notice"}
SEVERITY_TEXT = {
    "infrastructure": "the sandbox failed: not the module's fault",
    "reject": "unfit for training: rejects the module",
    "cannot_judge": "could not be judged here (a missing dependency, ...): neither accepted "
                    "nor rejected",
    "convention": "a convention of the audited library: reported, never rejecting",
    "notice": "a soft check's finding: reported, never rejecting",
}
#: What each verdict means, for the reader of the report.
VERDICT_TEXT = {
    "accepted": "fit for training: no finding rejects it (conventions are only reported)",
    "rejected": "unfit for training: a finding of class reject (the decisive one is named)",
    "cannot_judge": "not judged: nothing rejects it, but part of it could not be run here "
                    "(e.g. a missing dependency: try --path / --python)",
    "infrastructure_error": "the sandbox or the tool failed on it: never the module's fault",
}
_SKIP_DIRS = frozenset({"__pycache__", "node_modules", "site-packages", "dist-packages"})
_HTML_ARTIFACT = 1500
TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"


@dataclass(frozen=True)
class Target:
    """What PATH named: the folder (or file) to audit, how it was found, and the directory to
    import it from when it is an installed package ("" for a folder)."""

    root: Path
    how: str
    import_root: str = ""


def _find_spec_in(top: str, dirs: list[str]) -> importlib.machinery.ModuleSpec | None:
    spec = importlib.machinery.PathFinder.find_spec(top, dirs) if dirs else None
    return spec if spec is not None else importlib.util.find_spec(top)


def resolve_target(path: str, search: list[str] | tuple[str, ...] = ()) -> Target:
    """PATH as an existing folder or ``.py`` file, else as an installed package or module
    name (``pkg`` or ``pkg.sub``), looked up -- never imported -- first in ``search`` (the
    ``--path`` directories and the ``--python`` interpreter's site-packages), then where
    ``synth`` itself runs. Raises ``ValueError`` saying what was tried."""
    given = Path(path)
    if given.is_dir() or (given.is_file() and given.suffix == ".py"):
        return Target(given.resolve(), "folder" if given.is_dir() else "file")
    parts = path.split(".")
    if not all(p.isidentifier() for p in parts):
        raise ValueError(f"{path} is neither a folder, a .py file nor a package name")
    spec = _find_spec_in(parts[0], list(search))  # a top-level spec: nothing is imported
    if spec is None:
        raise ValueError(f"{path} is not a folder, and no installed package {parts[0]!r} was "
                         "found (here or in --path / --python)")
    locations = list(spec.submodule_search_locations or [])
    if locations:
        where, import_root = Path(locations[0]), str(Path(locations[0]).parent)
    elif spec.origin and spec.origin.endswith(".py") and len(parts) == 1:
        return Target(Path(spec.origin).resolve(), f"module {path}", str(Path(spec.origin).parent))
    else:
        raise ValueError(f"{parts[0]} is installed but is not a package of Python files")
    for part in parts[1:]:
        if (where / part).is_dir():
            where = where / part
        elif (where / f"{part}.py").is_file():
            return Target((where / f"{part}.py").resolve(), f"module {path}", import_root)
        else:
            raise ValueError(f"the package {'.'.join(parts[:-1])} has no {part!r}")
    return Target(where.resolve(), f"package {path}", import_root)


def bootcamp_class(source: str) -> str | None:
    """The name of the first class whose base is named ``...bootcamp`` (any case), "" when the
    source does not parse (audited anyway: a syntax error is a finding), None when there is
    none (not a bootcamp module)."""
    try:
        tree = pyast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ""
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                name = base.id if isinstance(base, ast.Name) else \
                    base.attr if isinstance(base, ast.Attribute) else ""
                if name.lower().endswith("bootcamp"):
                    return node.name
    return None


@dataclass
class Module:
    """One file to audit: its path, its name relative to the audited folder, its class (from
    the source; "" if it does not parse) and its checker file, if any."""

    path: Path
    name: str
    klass: str
    checker: Path | None = None


def find_modules(root: Path, exclude: tuple[Path, ...] = ()) -> tuple[list[Module], list[str]]:
    """(bootcamp modules, names of the other ``.py`` files) under ``root``, recursively, in
    path order; files and folders whose name starts with ``_`` or ``.``, and ``exclude``d
    folders, are not looked at."""
    if root.is_file():
        source = root.read_text(encoding="utf-8", errors="replace")
        return [Module(root, root.name, bootcamp_class(source) or "")], []
    modules: list[Module] = []
    others: list[str] = []
    skipped = {p.resolve() for p in exclude}
    for folder, dirs, files in os.walk(root):
        here = Path(folder)
        dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_")) and d not in _SKIP_DIRS
                         and (here / d).resolve() not in skipped)
        for name in sorted(files):
            if not name.endswith(".py") or name.startswith(("_", ".")):
                continue
            path = here / name
            rel = path.relative_to(root).as_posix()
            try:
                source = path.read_text(encoding="utf-8", errors="replace")
            except OSError:
                others.append(rel)
                continue
            klass = bootcamp_class(source)
            if klass is None:
                others.append(rel)
            else:
                modules.append(Module(path, rel, klass))
    modules.sort(key=lambda m: m.name)
    return modules, others


def attach_checkers(modules: list[Module], folder: Path) -> list[str]:
    """Give each module the checker of the same name in ``folder`` (``<relative path>``, else
    ``<stem>.py`` or ``<stem>.checker.py``); returns the checker files no module claimed."""
    files = {p.resolve() for p in folder.rglob("*.py") if not p.name.startswith("_")}
    used: set[Path] = set()
    for m in modules:
        stem = Path(m.name).stem
        for cand in (folder / m.name, folder / f"{stem}.py", folder / f"{stem}.checker.py"):
            if cand.is_file():
                m.checker = cand
                used.add(cand.resolve())
                break
    return sorted(str(p.relative_to(folder.resolve())) for p in files - used)


@dataclass
class Finding:
    """One non-clean check of a module's report, as the audit shows it."""

    check: str
    finding: str
    severity: str
    status: str
    reason: str
    artifacts: dict[str, str]

    @property
    def name(self) -> str:
        return self.check + (f"/{self.finding}" if self.finding else "")


def _findings(report: CheckReport) -> list[Finding]:
    out = []
    for c in report.checks:
        if c.clean:
            continue
        severity: str = c.severity
        if c.status.value == "sandbox_error":
            severity = "infrastructure"
        elif not c.hard and severity == "reject":
            severity = "notice"
        out.append(Finding(c.name, c.finding, severity, c.label, c.reason, dict(c.artifacts)))
    return out


def _class_of(report: CheckReport, fallback: str) -> str:
    load: CheckResult | None = report.get("load")
    if load is not None and load.clean and load.reason.startswith("imported "):
        name = re.match(r"[A-Za-z_]\w*", load.reason.removeprefix("imported "))
        if name:
            return name.group(0)
    return fallback


@dataclass
class ModuleAudit:
    """One module's outcome: the gate's report (None when the tool itself failed on it)."""

    module: Module
    report: CheckReport | None
    seconds: float
    error: str = ""
    findings: list[Finding] = field(default_factory=list)

    @property
    def verdict(self) -> str:
        return "infrastructure_error" if self.report is None else self.report.verdict

    @property
    def klass(self) -> str:
        return _class_of(self.report, self.module.klass) if self.report else self.module.klass

    @property
    def decisive(self) -> Finding | None:
        if self.report is None:
            return Finding("tool", "crash", "infrastructure", "error",
                           "the audit itself failed on this module (a bug of the tool, not a "
                           "defect of the module): " + self.error.strip().splitlines()[-1][:300],
                           {"traceback": self.error})
        if self.report.infrastructure_error:
            return next((f for f in self.findings if f.status == "sandbox_error"), None)
        best = self.report.decisive
        if best is None:
            return None
        return next((f for f in self.findings if f.check == best.name), None)

    def counts(self) -> dict[str, int]:
        got = Counter(f.severity for f in self.findings)
        return {s: got.get(s, 0) for s in SEVERITIES}  # every class, 0 when absent

    def by_severity(self) -> list[tuple[str, list[Finding]]]:
        return [(s, [f for f in self.findings if f.severity == s]) for s in SEVERITIES
                if any(f.severity == s for f in self.findings)]

    @property
    def missing_module(self) -> str:
        d = self.decisive
        return d.artifacts.get("missing_module", "") if d is not None else ""

    def row(self) -> dict[str, Any]:
        """This module's audit.csv row."""
        d = self.decisive
        counts = self.counts()
        return {
            "module": self.module.name, "class": self.klass, "verdict": self.verdict,
            "decisive": d.name if d else "", "decisive_severity": d.severity if d else "",
            "decisive_reason": d.reason if d else "",
            "reject": counts["reject"], "convention": counts["convention"],
            "cannot_judge": counts["cannot_judge"],
            "findings": "; ".join(f"{f.name}:{f.severity}" for f in self.findings),
            "missing_module": self.missing_module,
            "mode": self.report.mode if self.report else "",
            "checker": self.module.checker.name if self.module.checker else "",
            "elapsed_s": round(self.seconds, 3),
        }


@dataclass
class Audit:
    """The whole audit: what was audited, how, and every module's outcome."""

    target: Target
    modules: list[ModuleAudit]
    backend: str
    jobs: int
    seconds: float
    interpreter: str = ""
    others: list[str] = field(default_factory=list)
    unclaimed_checkers: list[str] = field(default_factory=list)
    created: str = field(default_factory=lambda: datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"))

    def count(self, verdict: str) -> int:
        return sum(m.verdict == verdict for m in self.modules)

    @property
    def per_minute(self) -> float:
        return 60.0 * len(self.modules) / self.seconds if self.seconds > 0 else 0.0

    def decisive_counts(self) -> list[tuple[str, str, int]]:
        """(finding, severity, modules) of the decisive findings, most frequent first."""
        got = Counter((d.name, d.severity) for m in self.modules if (d := m.decisive))
        return [(n, s, k) for (n, s), k in got.most_common()]

    def convention_counts(self) -> list[tuple[str, int]]:
        got = Counter(f.name for m in self.modules for f in m.findings
                      if f.severity == "convention")
        return got.most_common()

    def missing(self) -> list[tuple[str, int]]:
        got = Counter(m.missing_module for m in self.modules
                      if m.verdict == "cannot_judge" and m.missing_module)
        return got.most_common()

    @property
    def exit_code(self) -> int:
        """2 when the sandbox or the tool failed on a module, else 1 when a module is rejected,
        else 3 when one cannot be judged, else 0."""
        for verdict, code in (("infrastructure_error", 2), ("rejected", 1), ("cannot_judge", 3)):
            if self.count(verdict):
                return code
        return 0


def run_audit(target: Target, modules: list[Module], backend: str | Backend, *, jobs: int = 2,
              config: CheckConfig | None = None, interpreter: str = "",
              on_done: Callable[[int, int, ModuleAudit], None] | None = None) -> Audit:
    """Run the gate on every module (``jobs`` at a time) and collect the outcomes."""
    import time

    gate_jobs = [GateJob(m.name, m.path.read_text(encoding="utf-8", errors="replace"),
                         checker=m.checker.read_text(encoding="utf-8") if m.checker else None)
                 for m in modules]
    index = {id(j): m for j, m in zip(gate_jobs, modules, strict=True)}
    finished = 0

    def audited(done: GateOutcome) -> ModuleAudit:
        return ModuleAudit(index[id(done.job)], done.report, done.seconds, done.error,
                           _findings(done.report) if done.report else [])

    def progress(done: GateOutcome) -> None:
        nonlocal finished
        finished += 1
        if on_done is not None:
            on_done(finished, len(gate_jobs), audited(done))

    t0 = time.perf_counter()
    outcomes = run_parallel(gate_jobs, backend, workers=jobs, config=config, on_done=progress)
    name = backend if isinstance(backend, str) else backend.name
    return Audit(target, [audited(o) for o in outcomes], name, jobs, time.perf_counter() - t0,
                 interpreter=interpreter)


def write_csv(audit: Audit, path: Path) -> Path:
    """audit.csv: one row per module (:data:`CSV_COLUMNS`), written atomically."""
    tmp = path.with_name(f".{path.name}.tmp")
    with tmp.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(CSV_COLUMNS))
        writer.writeheader()
        for m in audit.modules:
            writer.writerow(m.row())
    tmp.replace(path)
    return path


def write_json(audit: Audit, path: Path) -> Path:
    """audit.json: every module's full CheckReport (for tools), written atomically."""
    rows = [{"module": m.module.name, "verdict": m.verdict,
             "report": m.report.model_dump(mode="json") if m.report else None,
             "error": m.error or None} for m in audit.modules]
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps({"target": str(audit.target.root), "how": audit.target.how,
                               "backend": audit.backend, "modules": rows}, ensure_ascii=False),
                   encoding="utf-8")
    tmp.replace(path)
    return path


def _shown(text: str) -> str:
    return text if len(text) <= _HTML_ARTIFACT else text[:_HTML_ARTIFACT] + \
        f" ...[{len(text) - _HTML_ARTIFACT} chars cut]"


def render_html(audit: Audit) -> str:
    """audit.html: a self-contained page (no external resource) -- summary, a sortable and
    filterable table, and per module its findings grouped by severity with the evidence."""
    import jinja2

    env = jinja2.Environment(  # the settings of synth/reporting/report.py's environment (no pandas here)
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)), autoescape=True,
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)
    env.filters["shown"] = _shown
    cards = [("modules", len(audit.modules), ""), ("accepted", audit.count("accepted"), "accepted"),
             ("rejected", audit.count("rejected"), "rejected"),
             ("cannot judge", audit.count("cannot_judge"), "cannot_judge"),
             ("infrastructure errors", audit.count("infrastructure_error"), "infrastructure_error"),
             ("modules / minute", f"{audit.per_minute:.0f}", "")]
    return env.get_template("audit.html.j2").render(
        audit=audit, cards=cards, severities=SEVERITIES, label=SEVERITY_LABEL,
        severity_text=SEVERITY_TEXT, verdict_text=VERDICT_TEXT)


def write_html(audit: Audit, path: Path) -> Path:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(render_html(audit), encoding="utf-8")
    tmp.replace(path)
    return path

"""What the gate tests share: the ``gate_*.py`` header parser, the labelled backend, host traces,
the checks of what the limits programs report, and the unguarded method server.

The header scheme is documented in ``test_gate_attacks.py``. The unguarded server
(:func:`unguarded`) is the kit's method server with its in-process guard left off: the
defence-in-depth tests (``test_defence_in_depth.py``) run the programs the guard stops through
it, to show what the isolation boundary alone holds (and that the forgeries are real).
"""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from helpers import sysv_objects

from synth.gate import CheckConfig, CheckReport, CheckStatus
from synth.sandbox.base import Backend, Limits, Outcome, RunResult, SandboxJob, Session
from synth.sandbox.kit import KIT_NAME, KIT_PACKAGE
from synth.sandbox.methods import contract_files
from synth.sandbox.pool import VerifyResult

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CORPUS_DIR = HERE / "corpus"
GATE_PROGRAMS = sorted(CORPUS_DIR.glob("gate_*.py"))
ALL_PROGRAMS = sorted(p for p in CORPUS_DIR.glob("*.py") if not p.name.startswith("_"))
CLASSES = ("forge", "replace", "invalid_score", "timing", "determinism", "limits")
#: Every name a program gives to anything it creates outside its work dir contains this.
TRACE = "synth-gate-"
#: System V keys the programs use.
SYSV_KEYS = {0x5347F0E3, 0x5347F0E4, 0x5347F0E5, 0x5347F0E6}
CANARY_DIR = Path("/var/tmp/synth-canary-gate")
CONFIG = CheckConfig(
    cases_per_level=6, min_cases=4, mutation_cases=4, determinism_cases=3, garbage_cases=1,
    worker_timeout_s=10, case_limit_s=6.0, limits=Limits(wall_s=40, cpu_s=40, memory_mb=1024, pids=64),
)
#: The pool's fixed probe case and responses: (right answer, wrong answer, no answer).
POOL_CASE = {"nums": [17, 25, 3]}
POOL_PROBES = ["<answer>45</answer>", "<answer>46</answer>", "I do not know."]
#: Pool expectations that name a finding kind (an ERROR with that ``kind``).
POOL_KINDS = ("invalid_score", "contract_tampered", "protocol")


# -- headers ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Expect:
    """One alternative of a ``# check:`` requirement: ``NAME=STATUS[|STATUS][/FINDING][~TEXT]``."""

    name: str
    statuses: frozenset[str]
    finding: str = ""
    text: str = ""

    def why_not(self, report: CheckReport) -> str:
        """"" when the report's check meets this expectation, else why not."""
        check = report.get(self.name)
        if check is None:
            return f"no {self.name} check"
        if check.status.value not in self.statuses:
            return f"{self.name}: {check.status.value} not in {sorted(self.statuses)}"
        if self.finding and check.finding != self.finding:
            return f"{self.name}: finding {check.finding!r}, not {self.finding!r}"
        if self.text and self.text not in check.reason:
            return f"{self.name}: {self.text!r} not in the reason {check.reason!r}"
        return ""

    def __str__(self) -> str:
        out = f"{self.name}={'|'.join(sorted(self.statuses))}"
        return out + (f"/{self.finding}" if self.finding else "") + (f"~{self.text}" if self.text else "")


@dataclass(frozen=True)
class Spec:
    """A ``gate_*.py`` program and its headers (see ``test_gate_attacks.py``)."""

    path: Path
    attack: str
    checks: tuple[tuple[Expect, ...], ...]  # every requirement; each met by one alternative
    pool: tuple[tuple[str, ...], ...] | None
    pool_min_s: float
    time_s: float
    known_hole: str = ""  # a documented, open hole: the tests are strict xfails until it closes

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def source(self) -> str:
        return self.path.read_text()


def _header(src: str, key: str) -> str | None:
    match = re.search(rf"^# {re.escape(key)}: *(.*)$", src, re.M)
    return match.group(1).strip() if match else None


def _expect(path: Path, item: str) -> Expect:
    name, _, rest = item.strip().partition("=")
    rest, _, text = rest.partition("~")
    statuses, _, finding = rest.partition("/")
    allowed = frozenset(statuses.split("|")) if statuses else frozenset({"failed"})
    assert allowed <= {s.value for s in CheckStatus}, f"{path.name}: bad status in {item!r}"
    assert name.strip(), f"{path.name}: no check name in {item!r}"
    return Expect(name.strip(), allowed, finding.strip(), text.strip())


def _pool_item(path: Path, item: str) -> str:
    for alternative in item.split(" or "):
        base = alternative.partition("~")[0].strip()
        try:
            float(base)
        except ValueError:
            assert base in POOL_KINDS or base in {o.value for o in Outcome}, (
                f"{path.name}: bad pool expectation {alternative!r}")
    return item.strip()


def parse(path: Path) -> Spec:
    src = path.read_text()
    attack = _header(src, "class") or ""
    assert attack in CLASSES, f"{path.name}: '# class:' must be one of {CLASSES}"
    assert _header(src, "verdict") == "rejected", f"{path.name}: '# verdict: rejected' missing"
    checks = tuple(
        tuple(_expect(path, alt) for alt in item.split(" or "))
        for item in (_header(src, "check") or "").split(",") if item.strip()
    )
    assert checks, f"{path.name}: '# check:' names no check"
    pool = None
    if (raw := _header(src, "pool")) is not None:
        rounds = [tuple(_pool_item(path, x) for x in part.split(",")) for part in raw.split("|")]
        assert all(len(r) == len(POOL_PROBES) for r in rounds) and len(rounds) <= 2, raw
        pool = (rounds[0], rounds[-1], rounds[-1])
    return Spec(path, attack, checks, pool, float(_header(src, "pool-min-s") or 0.0),
                float(_header(src, "time") or 30.0), _header(src, "known-hole") or "")


def pool_matches(result: VerifyResult, want: str) -> bool:
    """Does a pool result meet one ``# pool:`` element (alternatives joined by `` or ``)?"""
    return any(_pool_matches(result, alt.strip()) for alt in want.split(" or "))


def _pool_matches(result: VerifyResult, want: str) -> bool:
    base, _, text = want.partition("~")
    if text and text not in result.error:
        return False
    try:
        score = float(base)
    except ValueError:
        pass
    else:
        return result.outcome is Outcome.PASSED and result.score == score
    if base in POOL_KINDS:
        return result.outcome is Outcome.ERROR and result.kind == base
    return result.outcome is Outcome(base)


# -- a backend whose every job carries a marker -------------------------------------------------


class Labelled:
    """Wraps a backend so that every job's argv ends with ``label`` (inert for the kit: it
    reads its first three words and ``--shift-clock``), so leftovers can be found by it."""

    def __init__(self, inner: Backend, label: str) -> None:
        self.inner, self.label, self.name = inner, label, inner.name

    def _tag(self, job: SandboxJob) -> SandboxJob:
        return job.model_copy(update={"argv": [*job.argv, self.label]})

    def probe(self) -> tuple[bool, str]:
        return self.inner.probe()

    def run(self, job: SandboxJob, limits: Limits) -> RunResult:
        return self.inner.run(self._tag(job), limits)

    def spawn(self, job: SandboxJob, limits: Limits) -> Session:
        return self.inner.spawn(self._tag(job), limits)  # type: ignore[attr-defined]

    def close(self) -> None:
        """The wrapped backend is shared: not ours to close."""


# -- the method server without its guard --------------------------------------------------------

#: A launcher that runs the kit's method server with the in-process guard left off (tests
#: only: the product never starts it). Same argv as ``_synth_kit.py serve`` minus ``serve``.
UNGUARDED_NAME = "_unguarded.py"
UNGUARDED = f'''"""Tests only: the kit's method server with its audit-hook guard never armed."""
import sys

from {KIT_PACKAGE} import serve

sys.exit(serve(sys.argv[1:], guard=False))
'''


def unguarded(job: SandboxJob) -> SandboxJob:
    """The same method-server job (``[KIT_NAME, "serve", MODULE, CLASS, MODE, ...]``), served
    with the guard off."""
    assert job.argv[:2] == [KIT_NAME, "serve"], job.argv
    return job.model_copy(update={"files": {**job.files, UNGUARDED_NAME: UNGUARDED},
                                  "argv": [UNGUARDED_NAME, *job.argv[2:]]})


# -- host traces --------------------------------------------------------------------------------


def fingerprint() -> dict[str, str]:
    library = REPO / "generated_bootcamps"
    files = [*(REPO / path for path in contract_files() if path.startswith("synth/")),
             library / "manifest.json"]
    out = {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in files if p.exists()}
    out["library"] = ",".join(sorted(p.name for p in library.iterdir()))
    return out


def grace(backend: Backend) -> float:
    return 10.0 if backend.name == "docker" else 3.0  # containers are removed in the background


def clear_traces() -> None:
    """Remove what an earlier, interrupted run may have left (so nothing stale is copied)."""
    for top in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock"):
        for path in Path(top).glob(f"{TRACE}*"):
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path, ignore_errors=True)
            else:
                path.unlink(missing_ok=True)
    for table, key, ident, _ in sysv_objects():
        if key in SYSV_KEYS:
            flag = {"shm": "-m", "sem": "-s", "msg": "-q"}[table]
            subprocess.run(["ipcrm", flag, str(ident)], check=False, capture_output=True)


def summary(report: CheckReport) -> str:
    lines = [f"passed={report.passed} backend={report.backend}"]
    for check in report.checks:
        lines.append(f"  {check.name}: {check.status.value} {check.finding} -- {check.reason}")
    return "\n".join(lines)


def report_in(*texts: str) -> dict[str, Any] | None:
    """The JSON a limits program raised as ``REPORT {...}`` (None: it did not get that far)."""
    for text in texts:
        match = re.search(r"REPORT (\{.*\})", text)
        if match:
            try:
                value = json.loads(match.group(1))
            except ValueError:
                continue
            if type(value) is dict:
                return value
    return None


def report_of(report: CheckReport) -> dict[str, Any] | None:
    return report_in(*(t for c in report.checks for t in (c.reason, *c.artifacts.values())))


# -- what the limits programs report ------------------------------------------------------------


def _fork_memory(seen: dict[str, Any], backend: str) -> None:
    held_mb = seen["held"] * seen["mb_each"]
    assert held_mb < CONFIG.limits.memory_mb, (
        f"{seen['held']} children x {seen['mb_each']} MB = {held_mb} MB held at once under "
        f"a {CONFIG.limits.memory_mb} MB job limit on {backend}")


def _dev_shm_fill(seen: dict[str, Any], backend: str) -> None:
    assert seen["wrote_mb"] < CONFIG.limits.memory_mb, f"/dev/shm took {seen} on {backend}"


def _disk_fill(seen: dict[str, Any], backend: str) -> None:
    assert seen["cwd_mb"] < CONFIG.limits.memory_mb, f"the work dir took {seen} on {backend}"


def _read_checkout(seen: dict[str, Any], backend: str) -> None:
    secret = [k for k in seen if "canary" in k or k == "/etc/shadow" or k.startswith("pytest")]
    if backend != "bwrap":  # bwrap's PID 1 is the job's own init, with the job's environment
        secret.append("/proc/1/environ")
    for key in secret:
        assert not seen[key].startswith(("read", "listed")), f"{key}: {seen[key]} on {backend}"
    if backend != "process":  # the process backend reads the world-readable checkout
        for key, value in seen.items():
            if key.startswith("/work"):
                assert not value.startswith(("read", "listed")), f"{key}: {value} on {backend}"


def _signals(seen: dict[str, Any], backend: str) -> None:
    for pid, sig, uid, outcome in seen["results"]:  # kill(-1) reaches the job's own uid only
        if pid != -1 and uid != seen["me"]:
            assert outcome != "ok", f"signal {sig} reached pid {pid} of uid {uid} on {backend}"


def _ptrace(seen: dict[str, Any], backend: str) -> None:
    for pid, uid, outcome, _ in seen["results"]:
        if uid != seen["me"]:
            assert outcome != "ok", f"ptrace reached pid {pid} of uid {uid} on {backend}"
        if pid == 1 and backend == "docker":
            assert outcome != "ok", "the container's PID 1 is traceable by a job"


#: What each limits program's REPORT must show, on a backend (the REPORT as a dict).
LIMIT_CHECKS: dict[str, Callable[[dict[str, Any], str], None]] = {
    "gate_limits_fork_memory": _fork_memory,
    "gate_limits_dev_shm_fill": _dev_shm_fill,
    "gate_limits_disk_fill": _disk_fill,
    "gate_limits_read_checkout": _read_checkout,
    "gate_limits_signals": _signals,
    "gate_limits_ptrace": _ptrace,
}  # gate_limits_sysv_leak: the leftover scan after the run shows whether its objects outlived it
#: Programs that may be killed by a limit before they report (the others must report).
MAY_DIE = {"gate_limits_fork_memory", "gate_limits_dev_shm_fill", "gate_limits_disk_fill"}

"""Hostile bootcamps against the real gate and the warm pool, on every backend (issue 9, part 7).

Each ``corpus/gate_*.py`` program is a complete bootcamp module (one ``BaseBootcamp`` subclass
named ``Hostile``) whose *honest* behaviour the gate must reject -- a verifier that accepts
everything, a verifier that returns NaN, a slow verifier, cases that change with
``PYTHONHASHSEED``, a generator that attacks a limit -- plus an attack that tries to make it
pass anyway or to escape: forging the verdict or the protocol, replacing the contract after
class creation, invalid scores, timing and determinism forgery, limits.

Header scheme of a ``gate_*.py`` program (one ``# key: value`` line each)::

    # static: import,dunder          the static gate's rules, exactly (test_corpus.py checks it)
    # class: forge                   attack class: forge | replace | invalid_score | timing |
                                     determinism | limits
    # verdict: rejected              the gate must reject it: ``report.passed`` is False AND the
                                     sandboxed checks alone (every check but ``static``) reject
                                     it -- a pass of all sandboxed checks is a FORGED PASS
    # check: NAME=STATUS[|STATUS][/FINDING], ...
                                     the checks that must catch it, each with its allowed typed
                                     statuses and, if given, the named finding it must carry
    # pool: E, E, E [| E, E, E]      optional: the warm pool's results for three probes
                                     (the right answer, a wrong answer, no answer) on a fixed
                                     case, sent in three rounds; after ``|``: rounds 2 and 3.
                                     E is a score (PASSED with exactly that score: what the
                                     class's own verifier really gives, so a forged score fails),
                                     a finding kind (invalid_score, contract_tampered,
                                     protocol) or an outcome (error, timeout, oom,
                                     output_overflow)
    # pool-min-s: 0.06               optional: the host-measured time of the right-answer call
                                     is at least this (the clock inside the sandbox lies)
    # time: 40                       optional: bound on the gate's wall time (default 30 s)

Naming convention: ``gate_*`` programs are run here (gate + pool), the other corpus programs
by the bare runner of ``test_corpus.py`` (``# expect:`` = the bare run's outcome); the
static-gate test of ``test_corpus.py`` covers both. Programs attack only inside the kit's method
server where that matters (``--shift-clock`` tells the determinism check's second process
apart); limit attacks report what they achieved by raising ``RuntimeError("REPORT {json}")``
from ``case_generator``, which reaches the host as the generate check's traceback artifact.

Every gate test asserts: the verdict (no forged pass), the typed outcome of the catching
check(s), no ``sandbox_error`` (a broken sandbox is not a verdict), the elapsed-time bound,
no process left (the backend is wrapped so that every sandboxed job's argv carries a unique
marker, which forked children inherit), no System V IPC object left (the host's
``/proc/sysvipc`` tables before and after; objects with the programs' keys or created by a
marked process), no abstract socket left, nothing written outside the job (host ``/tmp``,
``/var/tmp``, ``/dev/shm``, ``/run/lock`` watched *while* the gate runs for the names the
programs use), the contract and the library untouched, and no canary secret (the parent's
``OPENAI_API_KEY``, a root-only file) in the report.

What the process backend lets a job see (documented, not a failure): it is the weakest layer.
Its job runs as a private uid with private /tmp, /var/tmp and /dev/shm, but it reads the rest
of the host's file tree as "other": the checkout (``/work/main``: the contract, the manifest,
``.git/config``, the ``runs/`` listing) and ``/work/shared``; not root-only files
(``/etc/shadow``, ``/proc/1/environ``), not the host's ``/var/tmp`` (where the canary is), not
the environment of the host's processes. bwrap and docker show none of ``/work``. Within a
bwrap job, PID 1 is the sandbox's own init (same uid, the job's environment): signalling or
tracing it is allowed and harmless; the docker container's PID 1 (uid 65533) must refuse both.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from helpers import HostWatch, abstract_sockets, assert_no_leftovers, sysv_objects

import synth.bootcamp
from synth.gate import CheckConfig, CheckReport, CheckStatus, run_checks
from synth.sandbox.base import Backend, Limits, Outcome, RunResult, SandboxJob, Session
from synth.sandbox.methods import contract_files
from synth.sandbox.pool import VerifyResult, WorkerPool, pool_limits

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
pytestmark = pytest.mark.timeout(240)


# -- headers ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spec:
    """A ``gate_*.py`` program and its headers (see the module docstring)."""

    path: Path
    attack: str
    checks: dict[str, tuple[frozenset[str], str]]
    pool: tuple[tuple[str, ...], ...] | None
    pool_min_s: float
    time_s: float

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def source(self) -> str:
        return self.path.read_text()


def _header(src: str, key: str) -> str | None:
    match = re.search(rf"^# {re.escape(key)}: *(.*)$", src, re.M)
    return match.group(1).strip() if match else None


def parse(path: Path) -> Spec:
    src = path.read_text()
    attack = _header(src, "class") or ""
    assert attack in CLASSES, f"{path.name}: '# class:' must be one of {CLASSES}"
    assert _header(src, "verdict") == "rejected", f"{path.name}: '# verdict: rejected' missing"
    checks: dict[str, tuple[frozenset[str], str]] = {}
    for item in (_header(src, "check") or "").split(","):
        if not item.strip():
            continue
        name, _, rest = item.strip().partition("=")
        statuses, _, finding = rest.partition("/")
        allowed = frozenset(statuses.split("|")) if statuses else frozenset({"failed"})
        assert allowed <= {s.value for s in CheckStatus}, f"{path.name}: bad status in {item!r}"
        checks[name] = (allowed, finding)
    assert checks, f"{path.name}: '# check:' names no check"
    pool = None
    if (raw := _header(src, "pool")) is not None:
        rounds = [tuple(x.strip() for x in part.split(",")) for part in raw.split("|")]
        assert all(len(r) == len(POOL_PROBES) for r in rounds) and len(rounds) <= 2, raw
        pool = (rounds[0], rounds[-1], rounds[-1])
    return Spec(path, attack, checks, pool, float(_header(src, "pool-min-s") or 0.0),
                float(_header(src, "time") or 30.0))


SPECS = [parse(p) for p in GATE_PROGRAMS]
POOL_SPECS = [s for s in SPECS if s.pool is not None]


def test_corpus_has_50_programs_and_every_attack_class_twice() -> None:
    assert len(ALL_PROGRAMS) >= 50, f"only {len(ALL_PROGRAMS)} adversarial programs"
    per_class = {c: [s.name for s in SPECS if s.attack == c] for c in CLASSES}
    assert all(len(v) >= 2 for v in per_class.values()), per_class
    pooled = {s.attack for s in POOL_SPECS}
    assert {"forge", "replace", "invalid_score", "timing"} <= pooled, pooled


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
        return self.inner.spawn(self._tag(job), limits)  # type: ignore[attr-defined,no-any-return]

    def close(self) -> None:
        """The wrapped backend is shared: not ours to close."""


# -- fixtures -----------------------------------------------------------------------------------


@pytest.fixture
def canary(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """A secret in the parent's environment and in a root-only file the programs look for."""
    secret = f"sk-canary-{secrets.token_hex(8)}"
    monkeypatch.setenv("OPENAI_API_KEY", secret)
    shutil.rmtree(CANARY_DIR, ignore_errors=True)
    CANARY_DIR.mkdir(mode=0o700)
    (CANARY_DIR / "secret.txt").write_text(f"secret {secret}\n")
    (CANARY_DIR / "secret.txt").chmod(0o600)
    yield secret
    shutil.rmtree(CANARY_DIR, ignore_errors=True)


def _fingerprint() -> dict[str, str]:
    library = REPO / "generated_bootcamps"
    files = [REPO / "synth" / "bootcamp.py", library / "manifest.json"]
    out = {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in files if p.exists()}
    out["library"] = ",".join(sorted(p.name for p in library.iterdir()))
    return out


def _grace(backend: Backend) -> float:
    return 10.0 if backend.name == "docker" else 3.0  # containers are removed in the background


def _clear_traces() -> None:
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


def _summary(report: CheckReport) -> str:
    lines = [f"passed={report.passed} backend={report.backend}"]
    for check in report.checks:
        lines.append(f"  {check.name}: {check.status.value} {check.finding} -- {check.reason}")
    return "\n".join(lines)


def _report_of(report: CheckReport) -> dict[str, Any] | None:
    """The JSON a limits program raised as ``REPORT {...}`` (None: it did not get that far)."""
    for check in report.checks:
        for text in (check.reason, *check.artifacts.values()):
            match = re.search(r"REPORT (\{.*\})", text)
            if match:
                try:
                    value = json.loads(match.group(1))
                except ValueError:
                    continue
                if type(value) is dict:
                    return value
    return None


# -- the gate -----------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_gate_rejects_hostile_bootcamp(spec: Spec, backend: Backend, canary: str) -> None:
    marker = f"synthgate{secrets.token_hex(6)}"
    _clear_traces()
    ipc_before = sysv_objects()
    protected = _fingerprint()
    original_verify = synth.bootcamp.BaseBootcamp.__dict__["verify_score"]
    with HostWatch(marker, (TRACE, marker)) as watch:
        start = time.monotonic()
        report = run_checks(spec.source, backend=Labelled(backend, marker), config=CONFIG,
                            name=spec.path.name)
        elapsed = time.monotonic() - start
    summary = _summary(report)

    assert report.backend == backend.name
    assert not report.infrastructure_error, f"a sandbox_error is not a verdict\n{summary}"
    sandboxed = [c for c in report.checks if c.name != "static"]
    assert not all(c.ok for c in sandboxed), (
        f"FORGED PASS: every sandboxed check passed for a bootcamp whose honest behaviour "
        f"fails them ({spec.name} on {backend.name})\n{summary}")
    assert report.passed is False, summary
    for name, (allowed, finding) in spec.checks.items():
        check = report.get(name)
        assert check is not None, f"no {name} check\n{summary}"
        assert check.status.value in allowed, f"{name}: {check.status.value} not in {allowed}\n{summary}"
        if finding:
            assert check.finding == finding, f"{name}: finding {check.finding!r}\n{summary}"
    assert elapsed <= spec.time_s, f"the gate took {elapsed:.1f}s\n{summary}"

    assert_no_leftovers(marker, grace_s=_grace(backend))
    assert sorted(watch.seen) == [], f"written outside the job: {sorted(watch.seen)}"
    leaked = {o for o in sysv_objects() - ipc_before if o[1] in SYSV_KEYS or o[3] in watch.pids}
    assert leaked == set(), f"System V IPC objects outlived the job: {leaked}"
    assert abstract_sockets(TRACE) == [], "an abstract socket outlived the job"
    assert _fingerprint() == protected, "the contract or the library changed"
    assert synth.bootcamp.BaseBootcamp.__dict__["verify_score"] is original_verify
    assert canary not in report.model_dump_json(), "a canary secret reached the report"
    check_specific = SPECIFIC.get(spec.name)
    if check_specific is not None:
        check_specific(report, backend.name)


# -- what the limits programs report ------------------------------------------------------------


def _limits_report(report: CheckReport) -> dict[str, Any] | None:
    generate = report.get("generate")
    assert generate is not None
    found = _report_of(report)
    if found is None:  # killed before it could report: only a limit may do that
        assert generate.status in (CheckStatus.OOM, CheckStatus.ERROR), _summary(report)
    return found


def _fork_memory(report: CheckReport, backend: str) -> None:
    seen = _limits_report(report)
    if seen is not None:
        held_mb = seen["held"] * seen["mb_each"]
        assert held_mb < CONFIG.limits.memory_mb, (
            f"{seen['held']} children x {seen['mb_each']} MB = {held_mb} MB held at once under "
            f"a {CONFIG.limits.memory_mb} MB job limit on {backend}")


def _dev_shm_fill(report: CheckReport, backend: str) -> None:
    seen = _limits_report(report)
    if seen is not None:
        assert seen["wrote_mb"] < CONFIG.limits.memory_mb, f"/dev/shm took {seen} on {backend}"


def _disk_fill(report: CheckReport, backend: str) -> None:
    seen = _limits_report(report)
    if seen is not None:
        assert seen["cwd_mb"] < CONFIG.limits.memory_mb, f"the work dir took {seen} on {backend}"


def _read_checkout(report: CheckReport, backend: str) -> None:
    seen = _limits_report(report)
    assert seen is not None, _summary(report)
    secret = [k for k in seen if "canary" in k or k == "/etc/shadow" or k.startswith("pytest")]
    if backend != "bwrap":  # bwrap's PID 1 is the job's own init, with the job's environment
        secret.append("/proc/1/environ")
    for key in secret:
        assert not seen[key].startswith(("read", "listed")), f"{key}: {seen[key]} on {backend}"
    if backend != "process":  # the process backend reads the world-readable checkout
        for key, value in seen.items():
            if key.startswith("/work"):
                assert not value.startswith(("read", "listed")), f"{key}: {value} on {backend}"


def _signals(report: CheckReport, backend: str) -> None:
    seen = _limits_report(report)
    assert seen is not None, _summary(report)
    for pid, sig, uid, outcome in seen["results"]:  # kill(-1) reaches the job's own uid only
        if pid != -1 and uid != seen["me"]:
            assert outcome != "ok", f"signal {sig} reached pid {pid} of uid {uid} on {backend}"


def _ptrace(report: CheckReport, backend: str) -> None:
    seen = _limits_report(report)
    assert seen is not None, _summary(report)
    for pid, uid, outcome, _ in seen["results"]:
        if uid != seen["me"]:
            assert outcome != "ok", f"ptrace reached pid {pid} of uid {uid} on {backend}"
        if pid == 1 and backend == "docker":
            assert outcome != "ok", "the container's PID 1 is traceable by a job"


SPECIFIC: dict[str, Callable[[CheckReport, str], None]] = {
    "gate_limits_fork_memory": _fork_memory,
    "gate_limits_dev_shm_fill": _dev_shm_fill,
    "gate_limits_disk_fill": _disk_fill,
    "gate_limits_read_checkout": _read_checkout,
    "gate_limits_signals": _signals,
    "gate_limits_ptrace": _ptrace,
}


# -- the warm pool ------------------------------------------------------------------------------


def _matches(result: VerifyResult, want: str) -> bool:
    try:
        score = float(want)
    except ValueError:
        pass
    else:
        return result.outcome is Outcome.PASSED and result.score == score
    if want in ("invalid_score", "contract_tampered", "protocol"):
        return result.outcome is Outcome.ERROR and result.kind == want
    return result.outcome is Outcome(want)


@pytest.mark.parametrize("spec", POOL_SPECS, ids=lambda s: s.name)
def test_pool_on_hostile_bootcamp(spec: Spec, backend: Backend) -> None:
    assert spec.pool is not None
    marker = f"synthgatepool{secrets.token_hex(5)}"
    _clear_traces()
    ipc_before = sysv_objects()
    items = [(probe, POOL_CASE) for probe in POOL_PROBES]
    rounds: list[list[VerifyResult]] = []
    with HostWatch(marker, (TRACE, marker)) as watch:
        start = time.monotonic()
        with WorkerPool(spec.source, size=1, backend=backend, call_timeout_s=3.0,
                        limits=pool_limits(memory_mb=512), label=marker) as pool:
            rounds = [pool.verify_many(items) for _ in spec.pool]
        elapsed = time.monotonic() - start
    shown = "\n".join(f"round {i + 1}: " + "; ".join(
        f"{r.outcome.value} {r.kind} {r.score} {r.error[:80]}" for r in got)
        for i, got in enumerate(rounds))
    for want, got in zip(spec.pool, rounds, strict=True):
        for w, r in zip(want, got, strict=True):
            assert _matches(r, w), f"expected {want}\n{shown}"
    if spec.pool_min_s:
        assert rounds[0][0].elapsed_s >= spec.pool_min_s, shown
    assert elapsed <= 60, f"the pool took {elapsed:.1f}s\n{shown}"
    assert_no_leftovers(marker, grace_s=_grace(backend))
    assert sorted(watch.seen) == []
    assert {o for o in sysv_objects() - ipc_before if o[3] in watch.pids} == set()


# -- the determinism forgeries are real ---------------------------------------------------------

_DRIVER = r'''
import json, os, subprocess, sys, time
def start(program, hashseed, *flags):
    env = dict(os.environ, PYTHONHASHSEED=str(hashseed))
    return subprocess.Popen([sys.executable, "-S", "-B", "_synth_kit.py", "serve", program, "",
                             "native", *flags, sys.argv[1]], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, env=env)
def ask(proc, rid, method, params):
    proc.stdin.write(json.dumps([rid, method, params]).encode() + b"\n")
    proc.stdin.flush()
    while True:
        reply = json.loads(proc.stdout.readline())
        if reply.get("id") == rid:
            return reply.get("ok")
def cases(proc):
    handle = ask(proc, 1, "construct", {"params": {}, "seed": 7})
    return [ask(proc, 2 + i, "generate", {"handle": handle})["text"] for i in range(3)]
out = {}
for program in sys.argv[2:]:
    first = start(program, 1)
    mine = cases(first)
    second = start(program, 2, "--shift-clock")
    out[program] = cases(second) == mine
    for proc in (first, second):
        proc.kill()
print("RESULT " + json.dumps(out))
'''


def test_determinism_forgeries_work_when_processes_share(backend: Backend) -> None:
    """Control for the determinism class: inside ONE sandbox job (so the two servers share its
    /tmp, /dev/shm, IPC and network namespaces) each program's second process does copy the
    first's cases (the gate tests show that, without the copy, the cases differ). So the
    determinism check fails in the gate tests because the backends keep its two processes
    apart, not because the forgery is broken."""
    programs = {p.stem: p.read_text() for p in GATE_PROGRAMS if "determinism" in p.stem}
    marker = f"synthgatectl{secrets.token_hex(5)}"
    files = {**contract_files(), "_driver.py": _DRIVER,
             **{f"{name}.py": src for name, src in programs.items()}}
    job = SandboxJob(files=files, argv=["_driver.py", marker, *programs])
    _clear_traces()
    ipc_before = sysv_objects()
    with HostWatch(marker, (TRACE, marker)) as watch:
        result = backend.run(job, Limits(wall_s=60, cpu_s=60, memory_mb=1024, pids=64))
    line = next((x for x in result.stdout.splitlines() if x.startswith("RESULT ")), "")
    assert line, f"{result.outcome} {result.detail}\n{result.stderr[-2000:]}"
    seen = json.loads(line[len("RESULT "):])
    assert seen == dict.fromkeys(programs, True), seen
    assert_no_leftovers(marker, grace_s=_grace(backend))
    assert sorted(watch.seen) == []
    leaked = {o for o in sysv_objects() - ipc_before if o[1] in SYSV_KEYS or o[3] in watch.pids}
    assert leaked == set()

"""The layers behind the guard: what holds when the kit's in-process guard is left off.

The gate tests (``test_gate_attacks.py``) show the FIRST layer that stops each program; since
the kit's audit-hook guard was added, that is the guard for most of the determinism and limits
programs (it refuses their files, sockets, ctypes, ``fork``, ``kill`` ...), so the gate never
sees what the sandbox backends would have done. The guard is an in-process layer: the
``gate_bypass_*`` programs show ways around it. These tests run the programs it stops through
the kit's method server with the guard never armed (``gate_support.unguarded``, a tests-only
launcher), on every backend:

* ``test_limits_hold_without_the_guard``: each ``gate_limits_*`` program's ``case_generator``
  runs its attack (fork and hold memory, fill /dev/shm or the work dir, read the checkout and
  the canaries, signal and ptrace other processes, leave System V objects); its REPORT must
  show the backend's limits held, and nothing may outlive the job.
* ``test_determinism_forgeries_work_when_processes_share``: the control for the determinism
  class. Inside ONE sandbox job (its two servers share its /tmp, /dev/shm, IPC and network
  namespaces) each program's second process does copy the first's cases, so the forgeries are
  real.
* ``test_determinism_forgeries_fail_across_sessions_without_the_guard``: the same two servers
  in two sandbox sessions of their own (as the gate's determinism check starts them) do NOT
  agree: the isolation boundary alone defeats the forgeries, guard or no guard.
"""

from __future__ import annotations

import json
import secrets
import time
from pathlib import Path

import pytest
from gate_support import (
    CONFIG,
    GATE_PROGRAMS,
    LIMIT_CHECKS,
    MAY_DIE,
    POOL_CASE,
    POOL_PROBES,
    SYSV_KEYS,
    TRACE,
    UNGUARDED,
    UNGUARDED_NAME,
    Labelled,
    clear_traces,
    fingerprint,
    grace,
    report_in,
    unguarded,
)
from helpers import HostWatch, abstract_sockets, assert_no_leftovers, sysv_objects

from synth.sandbox.base import Backend, Limits, Outcome, SandboxJob
from synth.sandbox.methods import MethodServer, contract_files, server_limits

LIMITS_PROGRAMS = [p for p in GATE_PROGRAMS if p.stem.startswith("gate_limits_")]
KIT_PROGRAMS = [p for p in GATE_PROGRAMS if p.stem.startswith("gate_bypass_kit_")]
DETERMINISM_PROGRAMS = {p.stem: p.read_text() for p in GATE_PROGRAMS
                        if p.stem.startswith("gate_determinism_")}
pytestmark = pytest.mark.timeout(240)


def _server(source: str, backend: Backend, *, hashseed: int, shift_clock: bool = False,
            role: str = "") -> MethodServer:
    """An unguarded method server for ``source``, limited as the gate limits its own."""
    server = MethodServer(source, backend=backend, env={"PYTHONHASHSEED": str(hashseed)},
                          limits=server_limits(memory_mb=CONFIG.limits.memory_mb,
                                               pids=CONFIG.limits.pids),
                          shift_clock=shift_clock, role=role)
    server.job = unguarded(server.job)
    return server


def _stderr(server: MethodServer, reported: bool) -> str:
    """The server's stderr so far, where the limits programs print their whole REPORT line
    (the reply's message is cut at 500 characters). When the reply says a REPORT was raised,
    waits up to 5 s for the line to come through the stderr pipe (slow under load, docker)."""
    text = ""
    deadline = time.monotonic() + (5.0 if reported else 0.0)
    while True:
        text = server.session.stderr_tail() if server.session is not None else ""
        if "REPORT " in text or time.monotonic() >= deadline:
            return text
        if server.alive:  # a docker session's stderr arrives only while its stream is read
            server.call("drop", {"handle": -1}, timeout_s=1.0)
        time.sleep(0.02)


def _assert_no_traces(marker: str, backend: Backend, watch: HostWatch,
                      ipc_before: set[tuple[str, int, int, int]]) -> None:
    assert_no_leftovers(marker, grace_s=grace(backend))
    assert sorted(watch.seen) == [], f"written outside the job: {sorted(watch.seen)}"
    leaked = {o for o in sysv_objects() - ipc_before if o[1] in SYSV_KEYS or o[3] in watch.pids}
    assert leaked == set(), f"System V IPC objects outlived the job: {leaked}"
    assert abstract_sockets(TRACE) == [], "an abstract socket outlived the job"


# -- limits -------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", LIMITS_PROGRAMS, ids=lambda p: p.stem)
def test_limits_hold_without_the_guard(path: Path, backend: Backend, canary: str) -> None:
    marker = f"synthdepth{secrets.token_hex(6)}"
    clear_traces()
    ipc_before = sysv_objects()
    protected = fingerprint()
    with HostWatch(marker, (TRACE, marker)) as watch:
        start = time.monotonic()
        server = _server(path.read_text(), Labelled(backend, marker), hashseed=0)
        try:
            hello = server.start()
            assert hello.ok, f"{hello.outcome} {hello.error}\n{hello.traceback}"
            assert not hello.value.get("tampered"), hello.value
            handle = server.call("construct", {"params": {}, "seed": 1}).value
            reply = server.call("generate", {"handle": handle}, timeout_s=CONFIG.case_limit_s)
            stderr = _stderr(server, "REPORT " in reply.error)
        finally:
            server.close()
        elapsed = time.monotonic() - start
    shown = f"{reply.outcome} {reply.kind} {reply.error[:600]}\n{reply.traceback[-1500:]}"
    assert reply.outcome is not Outcome.SANDBOX_ERROR, shown
    assert "SandboxViolation" not in shown, f"the guard was armed after all\n{shown}"
    seen = report_in(*stderr.splitlines(), reply.error, reply.traceback)
    if seen is None:  # killed before it could report: only a limit may do that
        assert path.stem in MAY_DIE, f"no REPORT\n{shown}"
        assert reply.outcome in (Outcome.OOM, Outcome.ERROR), shown
    elif path.stem in LIMIT_CHECKS:
        LIMIT_CHECKS[path.stem](seen, backend.name)
    assert elapsed <= 40, f"took {elapsed:.1f}s\n{shown}"
    _assert_no_traces(marker, backend, watch, ipc_before)
    assert fingerprint() == protected, "the contract or the library changed"
    assert canary not in shown + stderr, "a canary secret reached the host"


# -- determinism --------------------------------------------------------------------------------

_DRIVER = rf'''
import json, os, subprocess, sys
def start(program, hashseed, *flags):
    env = dict(os.environ, PYTHONHASHSEED=str(hashseed))
    return subprocess.Popen([sys.executable, "-S", "-B", "{UNGUARDED_NAME}", program, "",
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
    handle = ask(proc, 1, "construct", {{"params": {{}}, "seed": 7}})
    return [ask(proc, 2 + i, "generate", {{"handle": handle}})["text"] for i in range(3)]
out = {{}}
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
    """Control: with the guard off and both processes in ONE job, every second process copies
    the first's cases. (Under the guard the gate stops these programs at load or generate; the
    next test shows that separate sessions stop them as well.)"""
    marker = f"synthgatectl{secrets.token_hex(5)}"
    files = {**contract_files(), UNGUARDED_NAME: UNGUARDED, "_driver.py": _DRIVER,
             **{f"{name}.py": src for name, src in DETERMINISM_PROGRAMS.items()}}
    job = SandboxJob(files=files, argv=["_driver.py", marker, *DETERMINISM_PROGRAMS])
    clear_traces()
    ipc_before = sysv_objects()
    with HostWatch(marker, (TRACE, marker)) as watch:
        result = backend.run(job, Limits(wall_s=60, cpu_s=60, memory_mb=1024, pids=64))
    line = next((x for x in result.stdout.splitlines() if x.startswith("RESULT ")), "")
    assert line, f"{result.outcome} {result.detail}\n{result.stderr[-2000:]}"
    assert "SandboxViolation" not in result.stderr, result.stderr[-2000:]
    seen = json.loads(line[len("RESULT "):])
    assert seen == dict.fromkeys(DETERMINISM_PROGRAMS, True), seen
    _assert_no_traces(marker, backend, watch, ipc_before)


def test_determinism_forgeries_fail_across_sessions_without_the_guard(backend: Backend) -> None:
    """The isolation boundary alone: the first server stays up while the second, in a session
    (and isolation unit) of its own, generates -- and gets its own cases, not the first's."""
    marker = f"synthgatesep{secrets.token_hex(5)}"
    labelled = Labelled(backend, marker)
    clear_traces()
    ipc_before = sysv_objects()
    copied: dict[str, bool] = {}
    with HostWatch(marker, (TRACE, marker)) as watch:
        for name, source in DETERMINISM_PROGRAMS.items():
            runs: list[list[str]] = []
            servers = [_server(source, labelled, hashseed=1),
                       _server(source, labelled, hashseed=2, shift_clock=True, role="determinism")]
            try:
                for server in servers:
                    hello = server.start()
                    assert hello.ok, f"{name}: {hello.error}\n{hello.traceback}"
                    handle = server.call("construct", {"params": {}, "seed": 7}).value
                    replies = [server.call("generate", {"handle": handle}, timeout_s=6.0)
                               for _ in range(3)]
                    assert all(r.ok for r in replies), [r.error for r in replies]
                    runs.append([r.value["text"] for r in replies])
            finally:
                for server in servers:
                    server.close()
            copied[name] = runs[0] == runs[1]
    assert copied == dict.fromkeys(DETERMINISM_PROGRAMS, False), copied
    _assert_no_traces(marker, backend, watch, ipc_before)


# -- the kit's modules --------------------------------------------------------------------------


@pytest.mark.parametrize("path", KIT_PROGRAMS, ids=lambda p: p.stem)
def test_the_kit_s_modules_lead_nowhere_without_the_guard(path: Path, backend: Backend) -> None:
    """With the guard off nothing stops a bootcamp from patching what ``sys.modules`` holds of
    the kit (inert modules) or from importing the kit's package afresh and patching that copy:
    neither is what the server runs. Its functions and state are private copies bound to a
    namespace no module leads to, so the accept-everything verifier is scored as it is -- the
    wrong answer 1.0, as the right one -- and nothing is reported as tampered."""
    assert len(KIT_PROGRAMS) == 2
    server = _server(path.read_text(), backend, hashseed=0)
    try:
        hello = server.start()
        assert hello.ok, f"{hello.outcome} {hello.error}\n{hello.traceback}"
        assert not hello.value.get("tampered"), hello.value
        handle = server.call("construct", {"params": {}, "seed": 1}).value
        reply = server.call("generate", {"handle": handle})
        assert reply.ok, f"{reply.outcome} {reply.error}\n{reply.traceback}"
        case = json.loads(reply.value["text"])
        case_text = json.dumps(POOL_CASE, sort_keys=True)
        scores = [server.call("score", {"response": probe, "case_text": case_text}).value
                  for probe in POOL_PROBES]
    finally:
        server.close()
    if "fresh" in case:  # the import the guard refuses went through: a fresh copy, patched
        assert case["fresh"] == ["_synth_kit_pkg", "_synth_kit_pkg.questions",
                                 "_synth_kit_pkg.server", "_synth_kit_pkg.calls"], case
    assert scores == [{"score": 1.0}, {"score": 1.0}, {"score": 0.0}], scores

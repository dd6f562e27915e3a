"""Hostile bootcamps against the real gate and the warm pool, on the backends (issue 9, part 7).

Each ``corpus/gate_*.py`` program is a complete bootcamp module (one ``BaseBootcamp`` subclass
named ``Hostile``) whose *honest* behaviour the gate must reject -- a verifier that accepts
everything, a verifier that returns NaN, a slow verifier, cases that change with
``PYTHONHASHSEED``, a generator that attacks a limit -- plus an attack that tries to make it
pass anyway or to escape: forging the verdict or the protocol, replacing the contract after
class creation, invalid scores, timing and determinism forgery, limits, and (``gate_bypass_*``)
ways around the method server's in-process guard and snapshots.

The layers, in the order they meet a program: the static gate (a lint on the host); the kit's
audit-hook guard, armed before the candidate is imported (it refuses frames, code objects,
processes, files, sockets, imports beyond the allowlist: a refusal raises ``SandboxViolation``
in the bootcamp's call and is reported with the next handshake or score reply, so the host
records ``contract_tampered``); the kit's snapshots of the contract and the class; the host's
validation of every reply; the sandbox backend. The headers name the FIRST layer that catches a
program; ``test_defence_in_depth.py`` runs the programs the guard stops with the guard off, to
show that the layers behind it hold too.

Header scheme of a ``gate_*.py`` program (one ``# key: value`` line each)::

    # static: import,dunder          the static gate's rules, exactly (test_corpus.py checks it)
    # class: forge                   attack class: forge | replace | invalid_score | timing |
                                     determinism | limits
    # verdict: rejected              the gate must reject it: ``report.passed`` is False AND the
                                     sandboxed checks alone (every check but ``static``) reject
                                     it -- a pass of all sandboxed checks is a FORGED PASS
    # check: REQ, REQ, ...           every requirement must hold; a requirement is one or more
                                     alternatives joined by `` or `` (one must hold), each
                                     NAME=STATUS[|STATUS][/FINDING][~TEXT]: the check, its
                                     allowed typed statuses, the named finding it must carry and
                                     a text its reason must contain (e.g. ``load=error~not
                                     allowed in a bootcamp: reading gi_frame``: the guard
                                     refused it at import)
    # pool: E, E, E [| E, E, E]      optional: the warm pool's results for three probes
                                     (the right answer, a wrong answer, no answer) on a fixed
                                     case, sent in three rounds; after ``|``: rounds 2 and 3.
                                     E is a score (PASSED with exactly that score: what the
                                     class's own verifier really gives, so a forged score fails),
                                     a finding kind (invalid_score, contract_tampered,
                                     protocol) or an outcome (error, timeout, oom,
                                     output_overflow), optionally ``~TEXT`` that the result's
                                     error must contain (``error~not allowed in a bootcamp``: a
                                     load or call refused by the guard); alternatives joined by
                                     `` or ``
    # pool-min-s: 0.06               optional: the host-measured time of the right-answer call
                                     is at least this (the clock inside the sandbox lies)
    # time: 40                       optional: bound on the gate's wall time (default 30 s)
    # known-hole: TEXT               optional: an open, documented hole (docs/sandbox.md):
                                     the gate and pool tests of the program are strict xfails,
                                     so they turn into failures the day the hole closes

Naming convention: ``gate_*`` programs are run here (gate + pool), the other corpus programs
by the bare runner of ``test_corpus.py`` (``# expect:`` = the bare run's outcome); the
static-gate test of ``test_corpus.py`` covers both. Programs attack only inside the kit's method
server where that matters (``--shift-clock`` tells the determinism check's second process
apart); limit attacks report what they achieved by raising ``RuntimeError("REPORT {json}")``
from ``case_generator``, which reaches the host as the generate check's traceback artifact
(under the guard most of them are refused before they can report; the defence-in-depth tests
check the REPORT with the guard off).

Which backends judge a program (:func:`backends_of`): a program whose attack reaches past the
bootcamp's own process -- the sandbox's resources (classes ``limits`` and ``determinism``) or the
protocol channel between the host and the method server (``gate_forge_*``,
``gate_bypass_reply_pipe``: the descriptors, the lines, the host's reading of them, which differ
per backend) -- is judged on every backend. The others attack layers inside the server's process
or on the host (the guard, the contract and class snapshots, the host's checks of reply values,
its clock), the same code on every backend: they are judged on ``process`` (the host's
interpreter, which bwrap runs too), and one program of each of their attack classes
(:data:`ON_EVERY_BACKEND_TOO`) on bwrap and docker (the image's own interpreter) as well; the
attacks on the guard (``gate_bypass_*``) all on docker too. So
every attack class meets the gate and the pool on every backend
(``test_corpus_has_50_programs_and_every_attack_class_twice`` checks it), and what each backend
contains is shown on every backend by ``test_corpus.py`` (every hostile candidate) and
``test_defence_in_depth.py`` (the limits, determinism and kit programs with the guard off).

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

import secrets
import time

import pytest
from gate_support import (
    ALL_PROGRAMS,
    CLASSES,
    CONFIG,
    GATE_PROGRAMS,
    LIMIT_CHECKS,
    POOL_CASE,
    POOL_PROBES,
    SYSV_KEYS,
    TRACE,
    Labelled,
    Spec,
    clear_traces,
    fingerprint,
    grace,
    parse,
    pool_matches,
    report_of,
    summary,
)
from helpers import HostWatch, abstract_sockets, assert_no_leftovers, sysv_objects

import synth.bootcamp
from synth.gate import run_checks
from synth.sandbox.base import Backend
from synth.sandbox.pool import VerifyResult, WorkerPool, pool_limits

SPECS = [parse(p) for p in GATE_PROGRAMS]
POOL_SPECS = [s for s in SPECS if s.pool is not None]
BACKENDS = ("process", "bwrap", "docker")
#: attack classes whose every program is judged on every backend (see the module docstring)
BOUNDARY_CLASSES = frozenset({"limits", "determinism"})
#: attacks on the protocol channel, judged on every backend
CHANNEL_PREFIX, CHANNEL = "gate_forge_", frozenset({"gate_bypass_reply_pipe"})
#: of each class of in-process attacks, the program judged on bwrap and docker too
ON_EVERY_BACKEND_TOO = {
    "forge": "gate_bypass_guard_flood",  # the guard keeps refusing, on each interpreter
    "replace": "gate_replace_metaclass",
    "invalid_score": "gate_invalid_float_subclass",  # a NaN score through each channel
    "timing": "gate_timing_verify_clock",  # the host's clock, each channel's latency
}
#: attacks on the import and attribute guard: judged on docker too, the interpreter that
#: ``--sandbox auto`` runs bootcamps on wherever an engine answers (3.11.2 in the image; the
#: host's is 3.11.7), since a way around the guard may depend on the interpreter's version
GUARD_BYPASS_PREFIX = "gate_bypass_"
pytestmark = pytest.mark.timeout(240)


def backends_of(spec: Spec) -> tuple[str, ...]:
    """The backends that judge ``spec`` (see the module docstring)."""
    if (spec.attack in BOUNDARY_CLASSES or spec.name.startswith(CHANNEL_PREFIX)
            or spec.name in CHANNEL or ON_EVERY_BACKEND_TOO.get(spec.attack) == spec.name):
        return BACKENDS
    if spec.name.startswith(GUARD_BYPASS_PREFIX):  # the guard, on the image's interpreter too
        return ("process", "docker")
    return ("process",)


def _cases(specs: list[Spec]) -> list[object]:
    """(spec, backend) parameters; the ``backend`` fixture (conftest.py) makes the backend."""
    return [pytest.param(spec, name, id=f"{name}-{spec.name}",
                         marks=[pytest.mark.docker] if name == "docker" else [])
            for name in BACKENDS for spec in specs if name in backends_of(spec)]


def test_corpus_has_50_programs_and_every_attack_class_twice() -> None:
    assert len(ALL_PROGRAMS) >= 50, f"only {len(ALL_PROGRAMS)} adversarial programs"
    per_class = {c: [s.name for s in SPECS if s.attack == c] for c in CLASSES}
    assert all(len(v) >= 2 for v in per_class.values()), per_class
    pooled = {s.attack for s in POOL_SPECS}
    assert {"forge", "replace", "invalid_score", "timing"} <= pooled, pooled
    # every attack class meets the gate, and every pooled one the pool, on every backend
    for specs, classes in ((SPECS, set(CLASSES)), (POOL_SPECS, pooled)):
        for name in BACKENDS:
            judged = {s.attack for s in specs if name in backends_of(s)}
            assert judged == classes, f"{name}: {sorted(classes - judged)} never judged"
    assert all(s.pool is not None for s in SPECS if s.name in ON_EVERY_BACKEND_TOO.values())


# -- the gate -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("spec", "backend"), _cases(SPECS), indirect=["backend"])
def test_gate_rejects_hostile_bootcamp(spec: Spec, backend: Backend, canary: str,
                                      request: pytest.FixtureRequest) -> None:
    if spec.known_hole:
        request.node.add_marker(pytest.mark.xfail(strict=True, reason=spec.known_hole))
    marker = f"synthgate{secrets.token_hex(6)}"
    clear_traces()
    ipc_before = sysv_objects()
    protected = fingerprint()
    original_verify = synth.bootcamp.BaseBootcamp.__dict__["verify_score"]
    with HostWatch(marker, (TRACE, marker)) as watch:
        start = time.monotonic()
        report = run_checks(spec.source, backend=Labelled(backend, marker), config=CONFIG,
                            name=spec.path.name)
        elapsed = time.monotonic() - start
    shown = summary(report)

    assert report.backend == backend.name
    assert not report.infrastructure_error, f"a sandbox_error is not a verdict\n{shown}"
    sandboxed = [c for c in report.checks if c.name != "static"]
    assert not all(c.ok for c in sandboxed), (
        f"FORGED PASS: every sandboxed check passed for a bootcamp whose honest behaviour "
        f"fails them ({spec.name} on {backend.name})\n{shown}")
    assert report.passed is False, shown
    for alternatives in spec.checks:
        why = [e.why_not(report) for e in alternatives]
        assert "" in why, f"none of {' or '.join(map(str, alternatives))}: {why}\n{shown}"
    assert elapsed <= spec.time_s, f"the gate took {elapsed:.1f}s\n{shown}"

    assert_no_leftovers(marker, grace_s=grace(backend))
    assert sorted(watch.seen) == [], f"written outside the job: {sorted(watch.seen)}"
    leaked = {o for o in sysv_objects() - ipc_before if o[1] in SYSV_KEYS or o[3] in watch.pids}
    assert leaked == set(), f"System V IPC objects outlived the job: {leaked}"
    assert abstract_sockets(TRACE) == [], "an abstract socket outlived the job"
    assert fingerprint() == protected, "the contract or the library changed"
    assert synth.bootcamp.BaseBootcamp.__dict__["verify_score"] is original_verify
    assert canary not in report.model_dump_json(), "a canary secret reached the report"
    seen = report_of(report)  # a limits program that got past every layer up to its REPORT
    if seen is not None and spec.name in LIMIT_CHECKS:
        LIMIT_CHECKS[spec.name](seen, backend.name)


# -- the warm pool ------------------------------------------------------------------------------


@pytest.mark.parametrize(("spec", "backend"), _cases(POOL_SPECS), indirect=["backend"])
def test_pool_on_hostile_bootcamp(spec: Spec, backend: Backend,
                                  request: pytest.FixtureRequest) -> None:
    if spec.known_hole:
        request.node.add_marker(pytest.mark.xfail(strict=True, reason=spec.known_hole))
    assert spec.pool is not None
    marker = f"synthgatepool{secrets.token_hex(5)}"
    clear_traces()
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
            assert pool_matches(r, w), f"expected {want}\n{shown}"
    if spec.pool_min_s:
        assert rounds[0][0].elapsed_s >= spec.pool_min_s, shown
    assert elapsed <= 60, f"the pool took {elapsed:.1f}s\n{shown}"
    assert_no_leftovers(marker, grace_s=grace(backend))
    assert sorted(watch.seen) == []
    assert {o for o in sysv_objects() - ipc_before if o[3] in watch.pids} == set()

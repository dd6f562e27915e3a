"""The adversarial corpus, run on every backend: each hostile candidate is contained.

For every program in ``corpus/`` and every backend (process, bwrap, docker) the test asserts
the typed outcome named in the program's ``# expect:`` header, an elapsed-time bound, that no
process carrying the run's unique marker survives, that nothing was written outside the
sandbox (test-chosen paths, the repository's contract and library), and that neither the
parent's ``OPENAI_API_KEY`` nor a root-only secret file appears in the output. The static
gate is checked too: it flags exactly the rules in ``# static:`` (an empty list for the
statically innocent ones shows the gate is a lint and the sandbox is the boundary).

The ``gate_*.py`` programs are complete hostile bootcamps judged by the real gate and the warm
pool in ``test_gate_attacks.py`` (their headers are described there); here only their static
headers are checked.
"""

from __future__ import annotations

import json
import re
import secrets
import time
from pathlib import Path

import pytest
from helpers import Listener, assert_no_leftovers

import synth.bootcamp
from synth.sandbox.base import Backend, Limits, Outcome, RunResult, SandboxJob
from synth.sandbox.methods import contract_files
from synth.sandbox.static import check_source

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
ALL = sorted(p for p in (HERE / "corpus").glob("*.py") if not p.name.startswith("_"))
CORPUS = [p for p in ALL if not p.name.startswith("gate_")]  # gate_*: test_gate_attacks.py
RUNNER = (HERE / "corpus" / "_runner.py").read_text()
#: the contract package as every job gets it (synth/__init__.py, synth/bootcamp.py, the modules
#: the contract imports), without the kit
CONTRACT = {path: text for path, text in contract_files().items() if path.startswith("synth/")}
LIMITS = Limits(
    wall_s=3,
    cpu_s=2,
    memory_mb=256,
    file_size_mb=8,
    open_files=64,
    pids=32,
    max_output_bytes=1_000_000,
)
#: the programs that run until a limit stops them (``# expect: timeout``) meet shorter time
#: limits: the CPU limit still comes a second before the wall-clock one, and each run takes
#: 2 s of the test's time instead of 3
TIMEOUT_LIMITS = LIMITS.model_copy(update={"wall_s": 2, "cpu_s": 1})
SLACK_S = 5.0  # process startup + cleanup on a loaded 2-core machine
pytestmark = pytest.mark.timeout(180)  # a hung backend fails the test instead of the run


def header(src: str, key: str) -> set[str]:
    match = re.search(rf"^# {key}: *(.*)$", src, re.M)
    assert match, f"corpus program lacks a '# {key}:' header"
    return {x.strip() for x in match.group(1).split(",") if x.strip()}


def test_corpus_is_large_enough() -> None:
    assert len(CORPUS) >= 20


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_static_gate_flags_exactly_the_declared_rules(path: Path) -> None:
    src = path.read_text()
    assert {v.rule for v in check_source(src)} == header(src, "static")


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_hostile_candidate_is_contained(
    path: Path,
    backend: Backend,
    tmp_path: Path,
    listener: Listener,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    src = path.read_text()
    marker = f"synthadv{secrets.token_hex(6)}"
    canary = f"sk-canary-{secrets.token_hex(8)}"
    monkeypatch.setenv("OPENAI_API_KEY", canary)
    secret_file = tmp_path / "secret.txt"
    secret_file.write_text(f"secret {canary}")
    secret_file.chmod(0o600)
    private_dir = tmp_path / "private"
    private_dir.mkdir(mode=0o700)
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "keep.txt").write_text("keep me")
    outside = Path(f"/tmp/synth-adv-{marker}-outside")
    ctx = {
        "port": listener.port,
        "outside": str(outside),
        "private_dir": str(private_dir),
        "secret_file": str(secret_file),
        "precious_dir": str(precious),
        "repo": str(REPO),
    }
    job = SandboxJob(
        files={
            "_runner.py": RUNNER,
            "candidate.py": src,
            **CONTRACT,
        },
        argv=["_runner.py", "candidate.py", marker, json.dumps(ctx)],
    )
    original_verify = synth.bootcamp.BaseBootcamp.__dict__["verify_score"]
    limits = TIMEOUT_LIMITS if header(src, "expect") == {"timeout"} else LIMITS

    start = time.monotonic()
    result = backend.run(job, limits)
    elapsed = time.monotonic() - start

    summary = (
        f"{result.outcome} {result.detail!r}\n"
        f"stdout: {result.stdout[-800:]}\nstderr: {result.stderr[-800:]}"
    )
    assert result.outcome in {Outcome(x) for x in header(src, "expect")}, summary
    assert result.backend == backend.name
    assert elapsed <= limits.wall_s + SLACK_S, f"took {elapsed:.1f}s\n{summary}"
    assert_no_leftovers(marker)
    _assert_nothing_escaped(result, marker, canary, outside, private_dir, precious)
    assert listener.received == [], f"a connection reached the host: {listener.received}"
    assert synth.bootcamp.BaseBootcamp.__dict__["verify_score"] is original_verify
    if result.outcome is Outcome.PASSED:
        assert "RUNNER done Hostile" in result.stdout, summary
    _specific_checks(path.stem, result)


def _assert_nothing_escaped(
    result: RunResult, marker: str, canary: str, outside: Path, private_dir: Path, precious: Path
) -> None:
    output = result.stdout + result.stderr
    assert canary not in output, "the parent's OPENAI_API_KEY or the host secret leaked"
    assert not outside.exists(), f"{outside} was written outside the sandbox"
    assert list(private_dir.iterdir()) == []
    assert (precious / "keep.txt").read_text() == "keep me"
    assert not Path(f"/tmp/synth-adv-link-{marker}").is_symlink()
    assert not any(marker in (REPO / path).read_text() for path in CONTRACT)
    library = REPO / "generated_bootcamps"
    assert not any(marker in p.name for p in library.iterdir())
    manifest = library / "manifest.json"
    if manifest.exists():
        assert marker not in manifest.read_text()


def _specific_checks(name: str, result: RunResult) -> None:
    if name == "privilege_escalation":
        line = next(x for x in result.stdout.splitlines() if x.startswith("ESCALATION"))
        for call in ("'setuid'", "'setgid'", "'chroot'"):
            assert f"{call}: 'ALLOWED'" not in line, line
        assert "uid 0 " not in line + " "
    if name in ("big_stdout", "stderr_flood"):
        assert len(result.stdout) <= LIMITS.max_output_bytes
        assert len(result.stderr) <= LIMITS.max_output_bytes
    if name == "memory_bomb" and result.stderr:
        assert "MemoryError" in result.stderr or result.signal is not None
    if name == "import_site_packages":
        assert "ModuleNotFoundError" in result.stderr
    if name == "verify_override":
        assert "overrides verify_score" in result.stderr

"""A hostile program gets the containment of a hostile bootcamp, on every backend.

The adversarial corpus's attacks (tests/adversarial/corpus: read host files and the parent's
secrets, call the host's loopback, fork bombs, sleep forever, huge output, memory hogs, write
outside, kill the parent and everything else, leave a daemon, escalate privileges, ...) are turned
into programs -- the corpus file without its bootcamp class, then ``attack()`` -- and each runs in
a runner of the code reward's pool (synth.sandbox.program_pool) on process, bwrap and docker,
with the corpus's own checks where they apply: the run ends in its wall limit plus slack, no
process carrying the run's marker or the pool's label is left, nothing is written outside the
sandbox, neither the parent's OPENAI_API_KEY nor a root-only secret appears in the output,
nothing reaches a listener on the host's 127.0.0.1.

Program-specific attacks follow, through the whole reward: forging the runner's reply (the
forged output is the expected one, so a forgery that worked would score 1.0), stopping the
runner (the host's deadline holds, the next test gets a fresh runner), and searching the run's
own memory for another test's expected output (never sent into the sandbox; the test's own
input is found, as a control).
"""

from __future__ import annotations

import ast
import json
import secrets
import time
from pathlib import Path
from typing import Any

import pytest
from code_rows import build_suite, canonical_json, code_row, fenced
from helpers import ALL_BACKENDS, Listener, assert_no_leftovers, require_backend

from synth.library import Library
from synth.sandbox.base import Backend
from synth.sandbox.program_pool import GRACE_S, Program, ProgramPool, ProgramRun, wall_limit
from synth.training.code_reward import CodeReward

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CORPUS_DIR = REPO / "tests" / "adversarial" / "corpus"
#: corpus programs whose attack is on the bootcamp contract itself (no meaning for a program)
SKIP = {"monkeypatch_base", "verify_override"}
CORPUS = [p for p in sorted(CORPUS_DIR.glob("*.py"))
          if not p.name.startswith(("_", "gate_")) and p.stem not in SKIP]
TIME_LIMIT_S = 0.5  # short: a hanging program costs its wall limit, 3 x 0.5 + 2 s
WALL_S = wall_limit(TIME_LIMIT_S)  # a run is killed after this much wall time
SLACK_S = 6.0  # runner kill and drain, a loaded 2-core machine
LOYAL = "codecontests_06_c_divisors_loyal_to_their_digits"
pytestmark = pytest.mark.timeout(600)


@pytest.fixture(params=ALL_BACKENDS)
def backend(request: pytest.FixtureRequest) -> Backend:
    return require_backend(request.param)


def header(src: str, key: str) -> set[str]:
    line = next(x for x in src.splitlines() if x.startswith(f"# {key}:"))
    return {x.strip() for x in line.split(":", 1)[1].split(",") if x.strip()}


def as_program(src: str, marker: str, ctx: dict[str, Any]) -> str:
    """The corpus file as a program: its imports and functions (not the bootcamp class, not
    the contract's import), the argv the corpus runner gives, then the attack."""
    tree = ast.parse(src)
    keep = [ast.get_source_segment(src, node) for node in tree.body[1:]  # not the docstring
            if not isinstance(node, ast.ClassDef)
            and not (isinstance(node, ast.ImportFrom) and node.module == "synth.bootcamp")]
    argv = ["solution.py", "candidate.py", marker, json.dumps(ctx)]
    return (f"import sys\nsys.argv = {argv!r}\n" + "\n\n".join(k for k in keep if k)
            + "\n\nattack()\nprint('RUNNER done')\n")


#: the statuses a run of each corpus expectation may end with (a program's own terms: an error
#: is a non-zero exit; stderr is not capped, only its tail is kept; a run that kills its runner
#: is "lost")
def allowed(expect: set[str], run: ProgramRun) -> bool:
    ok = run.ok and "RUNNER done" in run.stdout
    failed = not run.ok
    checks = {
        "passed": ok,
        "error": failed and run.status in ("exited", "lost"),
        "timeout": run.status == "timeout",
        "oom": failed and run.status in ("exited", "timeout", "lost"),
        "output_overflow": run.status == "overflow" or ok or run.status == "timeout",
    }
    return any(checks[e] for e in expect)


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_corpus_attack_as_a_program_is_contained(path: Path, backend: Backend, tmp_path: Path,
                                                 listener: Listener,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    src = path.read_text()
    marker = f"synthcodeadv{secrets.token_hex(6)}"
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
    ctx = {"port": listener.port, "outside": str(outside), "private_dir": str(private_dir),
           "secret_file": str(secret_file), "precious_dir": str(precious), "repo": str(REPO)}
    program = as_program(src, marker, ctx)
    label = f"synth-code-containment-{marker}"
    pool = ProgramPool(1, backend, label=label)
    try:
        t0 = time.monotonic()

        def task(runner: Any) -> ProgramRun:
            runner.load(Program("stdin", program, TIME_LIMIT_S, 256))
            return runner.test(stdin="1\n", max_output=2_000_000)

        run = pool.call(task)
        elapsed = time.monotonic() - t0
    finally:
        pool.close()
    summary = f"{run.status} {run.code} {run.detail!r}\nstdout: {run.stdout[-600:]}\nstderr: {run.stderr[-600:]}"
    assert allowed(header(src, "expect"), run), summary
    assert elapsed <= WALL_S + SLACK_S + (GRACE_S if run.status == "lost" else 0), (
        f"took {elapsed:.1f}s\n{summary}")
    assert_no_leftovers(marker)
    assert_no_leftovers(label)
    output = run.stdout + run.stderr
    assert canary not in output, "the parent's OPENAI_API_KEY or the host secret leaked"
    assert not outside.exists(), f"{outside} was written outside the sandbox"
    assert list(private_dir.iterdir()) == []
    assert (precious / "keep.txt").read_text() == "keep me"
    assert not Path(f"/tmp/synth-adv-link-{marker}").is_symlink()
    for part in ("synth/bootcamp.py", "synth/values.py", "synth/sandbox/program_runner.py"):
        assert marker not in (REPO / part).read_text()
    library = REPO / "generated_bootcamps"
    assert not any(marker in p.name for p in library.iterdir())
    assert marker not in (library / "manifest.json").read_text()
    assert listener.received == [], f"a connection reached the host: {listener.received}"
    if path.stem == "privilege_escalation":
        line = next(x for x in run.stdout.splitlines() if x.startswith("ESCALATION"))
        for call in ("'setuid'", "'setgid'", "'chroot'"):
            assert f"{call}: 'ALLOWED'" not in line, line
        assert "uid 0 " not in line + " "
    if path.stem == "big_stdout":
        assert run.status == "overflow" and len(run.stdout) <= 2_000_001


# -- program-specific attacks, through the reward --------------------------------------------

FORGE = """import glob, json, os
line = json.dumps({{"status": "exited", "code": 0, "stdout": {forged!r}, "stderr": "",
                   "result": None, "elapsed_s": 0.0, "left": 0, "clean": True}}) + "\\n"
for path in [f"/proc/{{os.getppid()}}/fd/1", "/proc/1/fd/1", *glob.glob("/proc/*/fd/*")]:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        os.write(fd, line.encode())
        os.close(fd)
    except OSError:
        pass
print("not the answer")
"""
STOP_RUNNER = "import os, signal\nos.kill(os.getppid(), signal.SIGSTOP)\nprint(input())\n"
SEARCH_MEMORY = """import re, sys
wanted, seen_input = b"SECRET" + b"EXPECTED", b"PROBE" + b"INPUT"
found = b""
line = sys.stdin.readline()
with open("/proc/self/maps") as maps, open("/proc/self/mem", "rb", 0) as mem:
    for entry in maps:
        start, end = (int(x, 16) for x in entry.split()[0].split("-"))
        if "r" not in entry.split()[1] or end - start > 1 << 28:
            continue
        try:
            mem.seek(start)
            chunk = mem.read(end - start)
        except (OSError, ValueError, OverflowError):
            continue
        if seen_input in chunk:
            print("SAW-INPUT", file=sys.stderr)
        at = chunk.find(wanted)
        if at >= 0:
            found = chunk[at:at + 40].split(b'"')[0].split(b"\\\\")[0]
print(found.decode(errors="replace"))
"""


def _hand_suite(library: Library, tests: list[tuple[str, str]],
                time_limit_s: float = 1.0) -> dict[str, Any]:
    suite = build_suite(library, LOYAL, {}, time_limit_s=time_limit_s)
    suite["tests"] = [{"level": "easy", "stdin": s, "expected": e, "identity": {"n": 1}}
                      for s, e in tests]
    return suite


def test_program_attacks_on_the_runner_fail_and_are_contained(code_library: Library,
                                                              backend: Backend) -> None:
    label = f"synth-code-runner-attacks-{secrets.token_hex(4)}"
    reward = CodeReward(code_library, size=1, label=label)
    reward._pool = ProgramPool(1, backend, label=label)
    forged = f"FORGED-{secrets.token_hex(4)}"
    secret = f"SECRETEXPECTED{secrets.token_hex(6)}"
    probe = f"PROBEINPUT{secrets.token_hex(4)}"

    def evaluate(suite: dict[str, Any], program: str, fraction: bool = True) -> Any:
        row = code_row(suite)
        return reward.evaluate(row["data_source"], fenced(program),
                               row["reward_model"]["ground_truth"], fraction=fraction)

    try:
        # a forged reply carrying the expected output is never taken for the run's
        result = evaluate(_hand_suite(code_library, [("1\n", forged), ("2\n", forged)]),
                          FORGE.format(forged=forged))
        assert result.score == 0.0 and [o.status for o in result.outcomes] == ["exited"] * 2

        # a runner stopped by its program: the host's deadline ends the test, the next test
        # runs in a fresh runner (which the program stops again)
        t0 = time.monotonic()
        # (at the corpus tests' short limit: each stopped test costs its wall limit + grace)
        result = evaluate(_hand_suite(code_library, [("1\n", "1"), ("2\n", "2")], TIME_LIMIT_S),
                          STOP_RUNNER)
        elapsed = time.monotonic() - t0
        assert result.score == 0.0 and [o.status for o in result.outcomes] == ["lost"] * 2
        assert elapsed < 2 * (WALL_S + GRACE_S) + SLACK_S, elapsed

        # another test's expected output is nowhere in the run's memory; its own input is
        suite = _hand_suite(code_library, [(f"{probe}\n", secret), (f"{probe}\n", secret)])
        result = evaluate(suite, SEARCH_MEMORY)
        assert result.score == 0.0
        assert all(o.status == "exited" and o.code == 0 for o in result.outcomes), result
        assert all("SAW-INPUT" in o.detail for o in result.outcomes), result
        assert secret not in canonical_json([o.detail for o in result.outcomes])
    finally:
        reward.close()
    assert_no_leftovers(label)

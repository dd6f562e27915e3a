"""Helpers for end-to-end runs of `synth run` against the fake endpoint in its own process."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SERVE = REPO / "tests" / "fakes" / "serve.py"


class FakeEndpoint:
    def __init__(self, tmp: Path, scenario: str, *extra: str) -> None:
        self.port_file = tmp / f"fake-{scenario}-{time.monotonic_ns()}.url"
        self.proc = subprocess.Popen(
            [sys.executable, str(SERVE), scenario, str(self.port_file), *extra],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while not self.port_file.exists():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"fake endpoint did not start: {self.proc.stderr.read()!r}")  # type: ignore[union-attr]
            time.sleep(0.05)
        self.base_url = self.port_file.read_text()

    def close(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)


def write_tasks(folder: Path, names: list[str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / f"{name}.md").write_text(
            f"---\nid: {name}\ntitle: Task {name}\ntags: [toy]\n---\n"
            f"Add a list of integers ({name}). Answer with the sum.\n"
        )
    return folder


def synth_env(base_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env.update(OPENAI_BASE_URL=base_url, OPENAI_API_KEY="sk-fake", PYTHONUNBUFFERED="1")
    return env


def run_args(tasks: Path, library: Path, runs: Path, *extra: str, dedup: bool = False,
             candidates: int = 2, rounds: int = 2) -> list[str]:
    """`synth run` over ``tasks`` with the fake endpoint's models. Without ``dedup`` the run does
    not compare bootcamps with the library: the fake code model writes one toy bootcamp for
    every ``accept-*`` task, which deduplication (tests/workflow/test_dedup.py) would reject.
    ``candidates=1`` (one draft per round) for a test whose point is not the choice between
    drafts: each draft is a gate run, most of a toy task's time."""
    return [
        sys.executable, "-m", "synth.cli", "run", "--source", "local", "--path", str(tasks),
        "--coder-model", "fake-coder", "--solver-model", "fake-solver", "--library", str(library),
        "--runs-dir", str(runs), "--sandbox", "process", "--samples", "24", "--rounds", str(rounds),
        "--candidates", str(candidates), "--request-timeout", "1.5",
        *(() if dedup else ("--no-dedup",)), *extra,
    ]


def synth(args: list[str], env: dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, env=env, capture_output=True, text=True, timeout=timeout, cwd=REPO)


def synth_many(commands: list[list[str]], env: dict[str, str], timeout: float = 600
               ) -> list[subprocess.CompletedProcess[str]]:
    """:func:`synth` for independent commands, run at once (each CLI process's start-up, mostly
    imports, overlaps the others'); the results in the commands' order."""
    procs = [subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True, cwd=REPO) for args in commands]
    out = []
    try:
        for args, proc in zip(commands, procs, strict=True):
            stdout, stderr = proc.communicate(timeout=timeout)
            out.append(subprocess.CompletedProcess(args, proc.returncode, stdout, stderr))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait(10)
    return out


def only_run(runs: Path) -> Path:
    dirs = [d for d in runs.iterdir() if d.is_dir()]
    assert len(dirs) == 1, dirs
    return dirs[0]


def outcomes(run_dir: Path) -> dict[str, tuple[str, str]]:
    summary = json.loads((run_dir / "summary.json").read_text())
    return {o["task_id"]: (o["status"], o["reason_code"]) for o in summary["outcomes"]}


def library_state(library: Path) -> set[tuple[str, str, str, str]]:
    manifest = json.loads((library / "manifest.json").read_text())
    return {(r["name"], r["task_id"], r["code_sha256"], r["status"]) for r in manifest["bootcamps"]}

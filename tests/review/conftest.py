"""Fixtures of the review tests: one fake-endpoint run with ``--require-review`` per session.

The run (scripted fake code and solver models, process sandbox) commits two bootcamps as pending
review: ``local_accept_a`` (accepted on the first round) and ``local_revise_b`` (its first drafts
fail the static check; the round-1 revision passes). Its third task's title carries a script tag.
A hand-written bootcamp whose prompts and answers carry HTML (``markup_hostile``) is added, also
pending review. Tests get a private copy of that library (decisions mutate it); the run folder
is shared and read-only.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "workflow"))

from e2e import FakeEndpoint, run_args, synth, synth_env, write_tasks  # noqa: E402

from synth.library import Library  # noqa: E402

HOSTILE_TITLE = "<script>document.title='pwned-by-title'</script>Sum & <b>friends</b>"
RUN_BOOTCAMPS = ["local_accept_a", "local_accept_x", "local_revise_b"]
HOSTILE = "markup_hostile"


@dataclass(frozen=True)
class ReviewRun:
    library: Path  # the template library: copy it before changing anything
    runs_dir: Path
    run_dir: Path


@pytest.fixture(scope="session")
def review_run(tmp_path_factory: pytest.TempPathFactory) -> ReviewRun:
    tmp = tmp_path_factory.mktemp("review-run")
    tasks = write_tasks(tmp / "tasks", ["accept-a", "revise-b"])
    (tasks / "accept-x.md").write_text(
        f'---\nid: accept-x\ntitle: "{HOSTILE_TITLE}"\ntags: [toy]\n---\n'
        "Add a list of integers (accept-x). Answer with the sum.\n", encoding="utf-8",
    )
    lib, runs = tmp / "lib", tmp / "runs"
    fake = FakeEndpoint(tmp, "toy")
    try:
        res = synth(run_args(tasks, lib, runs, "--require-review"), synth_env(fake.base_url), timeout=300)
    finally:
        fake.close()
    assert res.returncode == 0, res.stderr[-3000:]
    (run_dir,) = [d for d in runs.iterdir() if d.is_dir()]
    code = (Path(__file__).parent / "hostile_bootcamp.py").read_text(encoding="utf-8")
    Library(lib).commit(
        name=HOSTILE, code=code, class_name="MarkupBootcamp", source="handwritten",
        task_id="handwritten/markup_hostile", title="<i>hand</i>-written markup",
        origin="handwritten", status="pending-review", levels=["easy", "hard"],
    )
    return ReviewRun(lib, runs, run_dir)


@pytest.fixture
def library(review_run: ReviewRun, tmp_path: Path) -> Path:
    """A private copy of the session's library."""
    dest = tmp_path / "lib"
    shutil.copytree(review_run.library, dest)
    return dest


def _review_prefix() -> list[str]:
    """``synth review`` as a new process: through synth.cli once the lead has mounted it there,
    else the same typer app run as a module (see test_cli_mounts_review)."""
    from synth import cli

    mounted = any(g.name == "review" for g in cli.app.registered_groups)
    return [sys.executable, "-m", "synth.cli", "review"] if mounted else [
        sys.executable, "-m", "synth.commands.review"]


REVIEW = _review_prefix()
SYNTH = [sys.executable, "-m", "synth.cli"]


def run_cli(args: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENAI_")}
    env.update(COLUMNS="200", NO_COLOR="1", TERM="dumb")
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, cwd=REPO, env=env)

"""`synth run` when the models reply with lone surrogates (JSON "\\ud800" escapes in the coder's
code and in the solver's answers): the replies are kept escaped, the run goes on to its verdict
(no internal_error), and the events, transcripts, run files and library are written."""

from __future__ import annotations

import json
from pathlib import Path

from e2e import FakeEndpoint, only_run, outcomes, run_args, synth, synth_env, write_tasks

from synth.library import Library
from synth.runs import read_events


def test_a_run_with_surrogates_in_every_reply_reaches_its_verdict(tmp_path: Path):
    tasks = write_tasks(tmp_path / "tasks", ["surrogate-a"])
    lib, runs = tmp_path / "lib", tmp_path / "runs"
    fake = FakeEndpoint(tmp_path, "toy")
    try:
        res = synth(run_args(tasks, lib, runs), synth_env(fake.base_url))
    finally:
        fake.close()
    assert res.returncode == 0, res.stderr[-3000:]
    run_dir = only_run(runs)
    assert outcomes(run_dir) == {"local/surrogate-a": ("accepted", "accepted")}
    events = read_events(run_dir / "events.jsonl")
    calls = [e for e in events if e.get("kind") == "llm_call"]
    assert calls and any(e.get("escaped_surrogates") for e in calls)
    assert not [e for e in events if e.get("kind") == "task_error"]
    for path in run_dir.rglob("*"):
        if path.is_file() and path.suffix in (".json", ".jsonl", ".py"):
            text = path.read_text(encoding="utf-8")  # every file is UTF-8
            if path.suffix == ".jsonl":
                [json.loads(line) for line in text.splitlines()]
    transcripts = "".join(p.read_text(encoding="utf-8") for p in run_dir.rglob("transcripts/*"))
    assert "\\\\ud800" in transcripts or "\\\\udfff" in transcripts
    (name,) = Library(lib).list_bootcamps()
    assert "# \\ud800" in Library(lib).code(name)  # the coder's surrogate, kept as its escape

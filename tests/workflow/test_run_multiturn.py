"""`synth run` on a task whose candidate is a multi-turn bootcamp: the gate runs the episode
checks, the acceptance filter plays whole episodes with the solver over the conversation so far
(the scripted solver wins the small games and never the large ones), and the commit records the
rates those episodes gave."""

from __future__ import annotations

import json
from pathlib import Path

from e2e import FakeEndpoint, only_run, outcomes, run_args, synth, synth_env, write_tasks

from synth.library import Library
from synth.runs import task_slug
from synth.sandbox.kit import canonical


def _score(identity: dict, actions: list[str]) -> float:
    """The guessing game's score by its stated rules: full marks within par (the halving
    search's bound), less for each later guess, 0 when the secret is never found."""
    top, secret, turns = identity["top"], identity["secret"], 12
    par = top.bit_length()
    for used, action in enumerate(actions[:turns], 1):
        if action.strip() == str(secret):
            return 1.0 if used <= par else (turns + 1 - used) / (turns + 1 - par)
    return 0.0


def test_a_multi_turn_candidate_is_filtered_by_whole_episodes(tmp_path: Path) -> None:
    fake = FakeEndpoint(tmp_path, "multiturn")
    try:
        tasks = write_tasks(tmp_path / "tasks", ["guess-number"])
        lib, runs = tmp_path / "lib", tmp_path / "runs"
        res = synth(run_args(tasks, lib, runs), synth_env(fake.base_url))
    finally:
        fake.close()
    assert res.returncode == 0, res.stderr[-3000:]
    run_dir = only_run(runs)
    assert outcomes(run_dir) == {"local/guess-number": ("accepted", "accepted")}, \
        (run_dir / "summary.json").read_text()[:2000]
    filt = json.loads((run_dir / "filter" / f"{task_slug('local/guess-number')}.json").read_text())
    scored = [s for s in filt["samples"] if s["score"] is not None]
    assert scored and filt["answered"] == len(scored)
    for sample in scored:  # every episode, replayed by the rules, gives its recorded score
        identity = json.loads(sample["identity"])
        turns = sample["episode"]
        assert turns and (turns[-1]["done"] or len(turns) == 12)
        assert sample["score"] == _score(identity, [t["action"] for t in turns])
        assert sample["score"] == (1.0 if identity["top"] <= 100 else 0.0)
        assert sample["response"] == turns[-1]["response"]
        assert turns[0]["observation"].startswith("I have chosen a secret number.")
        assert canonical(identity)
    assert {s["level"] for s in scored} == {"easy", "hard"}
    rec = Library(lib).record("local_guess_number")
    assert rec.level_pass_rates == {"easy": 1.0, "hard": 0.0}
    assert rec.pass_rate == filt["pass_rate"] == sum(s["score"] for s in scored) / len(scored)
    assert rec.samples == len(scored) and rec.engines is None
    assert rec.status == "accepted"

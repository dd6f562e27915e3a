"""``synth run --order``: which tasks ``--limit`` keeps (the embedded model's default picks the
tasks most ready for a cheap bootcamp -- a starting generator reads their input whole, and their
answer key can be checked without a model -- and among those the shortest example inputs: the
ones a 1.5B model most often gets right)."""

from __future__ import annotations

from pathlib import Path

import pytest
import typer

from synth.commands.run import input_size, load_source_tasks, readiness


@pytest.fixture(scope="module")
def every():
    """The bundled CodeContests tasks, in the source's order (loading verifies their
    solutions in the sandbox: once for the module)."""
    return load_source_tasks("codecontests", None, None, "process", "source")


def test_simplest_keeps_the_most_ready_then_the_shortest_and_source_keeps_the_first(every):
    first = load_source_tasks("codecontests", None, 2, "process", "source")
    simplest = load_source_tasks("codecontests", None, 3, "process", "simplest")
    assert [t.title for t in first] == [t.title for t in every[:2]]
    keys = [(readiness(t), input_size(t)) for t in every]
    assert len(set(k[0] for k in keys)) >= 2  # the bundled tasks are not all alike
    assert [(readiness(t), input_size(t)) for t in simplest] == sorted(keys)[:3]
    # ties keep the source's order
    picked = [every.index(t) for t in every if t.id in {s.id for s in simplest}]
    assert [s.id for s in simplest] == [every[i].id for i in sorted(
        picked, key=lambda i: (keys[i], i))]


def test_readiness_counts_a_whole_starting_generator_and_a_key_checked_without_a_model(every):
    """A stdin task loses a point for a starting generator with no rule left over and one for
    two verified solutions (a vote on the key); a function task's key is its reference."""
    from synth.workflow.coder import starting_draft

    for task in every:
        found, _ = starting_draft(task, "compiled")
        whole = found is not None and not found.left
        two = len(task.verified_references) >= 2
        assert readiness(task) == 2 - whole - two, task.id
    # 08 (One Wall Down): a rule the generator does not follow, so it comes after the others
    wall = next(t for t in every if t.title == "One Wall Down")
    assert starting_draft(wall, "compiled")[0].left and readiness(wall) > min(map(readiness, every))
    tasks = load_source_tasks("humaneval", None, 20, "process", "source")
    ready = [t for t in tasks if readiness(t) == 0]
    assert ready and all(starting_draft(t, "function")[0].complete for t in ready)


def test_an_unknown_order_is_refused(capsys):
    with pytest.raises(typer.Exit):
        load_source_tasks("codecontests", None, 2, "process", "random")
    assert "--order must be source or simplest" in capsys.readouterr().err


def _tasks(folder, names):
    folder.mkdir()
    for name in names:
        (folder / f"{name}.md").write_text(f"---\nid: {name}\ntitle: Task {name}\n---\nDo {name}.\n")
    return folder


def _library_with(root, task_ids):
    from helpers import TOY_SUM as TOY_BOOTCAMP

    from synth.library import Library

    lib = Library(root)
    for i, task_id in enumerate(task_ids):
        cls_name = TOY_BOOTCAMP.split("class ", 1)[1].split("(", 1)[0]
        lib.commit(name=f"done{i}", code=TOY_BOOTCAMP, class_name=cls_name, source="local",
                   task_id=task_id, origin="handwritten")
    return lib


def test_limit_counts_only_tasks_not_in_the_library(tmp_path):
    folder = _tasks(tmp_path / "tasks", ["a", "b", "c", "d"])
    every = load_source_tasks("local", folder, None, "process")
    ids = [t.id for t in every]
    lib = _library_with(tmp_path / "lib", ids[:2])
    for order in ("source", "simplest"):
        fresh = load_source_tasks("local", folder, 1, "process", order, library=lib)
        assert [t.id for t in fresh] == [ids[2]], order
    assert [t.id for t in load_source_tasks("local", folder, 5, "process", library=lib)] == ids[2:]


def test_a_used_up_source_says_so_in_one_line_and_exits_0_without_a_model_call(tmp_path):
    import subprocess
    import sys

    folder = _tasks(tmp_path / "tasks", ["a", "b"])
    ids = [t.id for t in load_source_tasks("local", folder, None, "process")]
    _library_with(tmp_path / "lib", ids)
    res = subprocess.run(
        [sys.executable, "-m", "synth.cli", "run", "--source", "local", "--path", str(folder),
         "--library", str(tmp_path / "lib"), "--runs-dir", str(tmp_path / "runs"),
         "--sandbox", "process", "--base-url", "http://127.0.0.1:9/v1", "--limit", "1"],
        capture_output=True, text=True, timeout=120, env={**__import__("os").environ, "OPENAI_API_KEY": "k"})
    assert res.returncode == 0, res.stderr
    lines = [line for line in res.stderr.splitlines() if "in the library already" in line]
    assert len(lines) == 1 and "--path" in lines[0] and "codecontests" in lines[0], res.stderr
    assert not (tmp_path / "runs").exists()  # no run was created, so no model was called


def test_simplest_verifies_only_the_tasks_it_picks_and_skips_one_that_fails(tmp_path, capsys):
    """--order simplest with --limit reads every task unverified, picks in order, and runs the
    solutions of the picked ones only: a picked task whose solutions all miss its public tests
    is skipped (and said so) for the next one, and what comes back is verified."""
    import json

    from synth.sources.base import bundled_dir

    lines = (Path(bundled_dir("codecontests")) / "more.jsonl").read_text("utf-8").splitlines()
    recs = {json.loads(x)["name"][:2]: json.loads(x) for x in lines}
    broken = recs["22"]
    broken["solutions"]["solution"] = ["print('First')\n", "print('Second')\n"]
    path = tmp_path / "three.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in (broken, recs["26"], recs["34"])))
    picked = load_source_tasks("codecontests", path, 1, "process", "simplest")
    assert [t.title for t in picked] == ["Nobody in Their Own Seat"]
    assert len(picked[0].references) == 2 and all(r.verified for r in picked[0].references)
    assert "skipped codecontests/22-a-take-one-three-or-four" in capsys.readouterr().err


def test_tasks_an_earlier_run_ended_without_a_bootcamp_come_after_the_untried(tmp_path):
    """--order simplest reads the run folders' summaries: a task an earlier run rejected (too
    hard, say) goes after every untried one, so the next run tries others first; an accepted
    one is in the library anyway; a damaged summary only costs its own information."""
    import json

    from synth.commands.run import tried_before

    first = load_source_tasks("codecontests", None, 2, "process", "simplest")
    runs = tmp_path / "runs"
    (runs / "a").mkdir(parents=True)
    (runs / "a" / "summary.json").write_text(json.dumps({"outcomes": [
        {"task_id": first[0].id, "status": "rejected", "reason_code": "too_hard"},
        {"task_id": first[1].id, "status": "accepted"}]}))
    (runs / "b").mkdir()
    (runs / "b" / "summary.json").write_text("{not json")
    tried = tried_before(runs)
    assert tried == {first[0].id}
    again = load_source_tasks("codecontests", None, 2, "process", "simplest", tried=tried)
    assert first[0].id not in {t.id for t in again} and again[0].id == first[1].id
    assert tried_before(tmp_path / "none") == set()

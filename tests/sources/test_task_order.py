"""``synth run --order``: which tasks ``--limit`` keeps (the embedded model's default picks the
tasks with the shortest example inputs: the ones a 1.5B model most often gets right)."""

from __future__ import annotations

import pytest
import typer

from synth.commands.run import input_size, load_source_tasks


def test_simplest_keeps_the_shortest_example_inputs_and_source_keeps_the_first():
    first = load_source_tasks("codecontests", None, 2, "process", "source")
    simplest = load_source_tasks("codecontests", None, 3, "process", "simplest")
    every = load_source_tasks("codecontests", None, None, "process", "source")
    assert [t.title for t in first] == [t.title for t in every[:2]]
    # one integer of one digit each (22, 26 and 34 of more.jsonl; ties keep the source's order)
    assert [t.title for t in simplest] == ["Take One, Three or Four",
                                           "Nobody in Their Own Seat",
                                           "Sum of Quotients"]
    sizes = sorted(input_size(t) for t in every)
    assert [input_size(t) for t in simplest] == sizes[:3]
    assert all(input_size(t)[0] == 1 for t in simplest)  # one-line inputs


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

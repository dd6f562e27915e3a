"""Task ids from files carry a hash of the statement (issue 22, part 5).

Another file's ``two-sum`` with a different statement must not take the id of a task already
run or committed: the ``jsonl`` and ``humaneval`` sources append ``-<hash8>`` of the normalised
statement to the name, so the same name with another statement gets another id and the same
statement the same id (in any file, on any line). The shipped library's task ids still resolve.
"""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

from sources_helpers import write_jsonl

from synth.library import Library
from synth.sources import get_source
from synth.tasks import TaskDescription, make_task_id, statement_key

TWO_SUM = "Given n integers and a target t, print the indices of two numbers that add up to t."
OTHER = "Given n integers, print the number of pairs whose sum is even."


def _ids(path: Path, **options: object) -> list[str]:
    items = list(get_source("jsonl").load(path=path, **options))
    assert all(isinstance(i, TaskDescription) for i in items), items
    return [i.id for i in items if isinstance(i, TaskDescription)]


def test_same_name_other_statement_is_another_task(tmp_path: Path) -> None:
    (first,) = _ids(write_jsonl(tmp_path / "a.jsonl", [{"id": "two-sum", "statement": TWO_SUM}]))
    (second,) = _ids(write_jsonl(tmp_path / "b.jsonl", [{"id": "two-sum", "statement": OTHER}]))
    assert first != second
    assert re.fullmatch(r"jsonl/two-sum-[0-9a-f]{8}", first)
    assert first == f"jsonl/two-sum-{statement_key(TWO_SUM)[:8]}"


def test_same_statement_is_the_same_id_in_any_file(tmp_path: Path) -> None:
    (first,) = _ids(write_jsonl(tmp_path / "a.jsonl", [{"id": "two-sum", "statement": TWO_SUM}]))
    rows = [{"name": "other", "q": OTHER}, {"name": "Two-Sum", "q": TWO_SUM, "x": 1}]
    second = _ids(write_jsonl(tmp_path / "b.jsonl", rows), map={"id": "name", "statement": "q"})
    assert second[1] == first and second[0] != first
    # the hash is of the normalised statement: spacing and case do not make another task
    (spaced,) = _ids(write_jsonl(tmp_path / "c.jsonl", [
        {"id": "two-sum", "statement": "  " + TWO_SUM.upper().replace(" ", "   ") + "\n"}]))
    assert spaced == first


def test_two_lines_with_one_name_and_two_statements_both_load(tmp_path: Path) -> None:
    ids = _ids(write_jsonl(tmp_path / "a.jsonl", [{"id": "two-sum", "statement": TWO_SUM},
                                                   {"id": "two-sum", "statement": OTHER}]))
    assert len(set(ids)) == 2


def test_humaneval_ids_carry_the_prompt_hash(tmp_path: Path) -> None:
    base = {"task_id": "HumanEval/0", "prompt": 'def f(x):\n    """Return x."""\n',
            "canonical_solution": "    return x\n", "test": "def check(c):\n    assert c(1) == 1\n",
            "entry_point": "f"}
    other = dict(base, prompt='def f(x):\n    """Return x twice."""\n',
                 canonical_solution="    return 2 * x\n")
    ids = []
    for n, rec in enumerate([base, other, base]):
        path = tmp_path / f"h{n}.jsonl.gz"
        with gzip.open(path, "wt", encoding="utf-8") as fh:
            fh.write(json.dumps(rec) + "\n")
        (task,) = list(get_source("humaneval").load(path=path))
        assert isinstance(task, TaskDescription)
        ids.append(task.id)
    assert ids[0] == ids[2] == make_task_id("humaneval", "0-f", base["prompt"]) and ids[1] != ids[0]


def test_the_shipped_library_still_resolves() -> None:
    lib = Library()
    for rec in lib.records(None):
        assert lib.has_task(rec.source, rec.task_id) == rec
        assert lib.code(rec.name)

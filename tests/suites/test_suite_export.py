"""`synth export --format code` (synth.suites.export): one code row per compiled bootcamp, in
the shared row format, byte-identical for a seed (jsonl and parquet), non-compiled bootcamps
skipped with a line that says so, the prompt of a stdin and of a function task."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from suites_helpers import compiled_library, even_pairs_model, even_pairs_module
from typer.testing import CliRunner

from synth.cli import app
from synth.library import Library
from synth.sandbox import get_backend
from synth.suites.build import BuildOptions, build_suite
from synth.suites.export import CodeExportConfig, code_row, export_code
from synth.suites.format import read_suite

SHIPPED = ["codecontests_06_c_divisors_loyal_to_their_digits",
           "codecontests_16_f_bulbs_without_long_glows", "cipher"]


def _export(out: Path, **kw: object):
    cfg = CodeExportConfig(out=out, sandbox="process", tests_per_level=3, stress_tests=2,
                           **kw)  # type: ignore[arg-type]
    return export_code(cfg)


def test_code_rows_of_the_shipped_library_are_seeded_bytes(tmp_path: Path) -> None:
    # no derived stress presets here (tests/suites/test_derived_stress.py has them)
    one = _export(tmp_path / "a", bootcamps=SHIPPED, seed=3, derive_stress=False)
    two = _export(tmp_path / "b", bootcamps=SHIPPED, seed=3, derive_stress=False)
    for split in ("train", "test"):
        assert (tmp_path / "a" / f"{split}.jsonl").read_bytes() == \
            (tmp_path / "b" / f"{split}.jsonl").read_bytes()
    assert one.rows == two.rows == {"train": 2, "test": 0}
    assert one.skipped == {"cipher": "not a compiled bootcamp (its module embeds no reference "
                                     "program; mode: not recorded)"}
    rows = [json.loads(x) for x in (tmp_path / "a" / "train.jsonl").read_text().splitlines()]
    lib = Library()
    for i, (row, name) in enumerate(zip(rows, SHIPPED[:2], strict=True)):
        assert set(row) == {"data_source", "prompt", "ability", "reward_model", "extra_info"}
        assert row["data_source"] == f"code/{name}" and row["ability"] == "code"
        truth = row["reward_model"]["ground_truth"]
        assert row["reward_model"]["style"] == "rule"
        suite = read_suite(truth)
        assert suite.bootcamp == name and suite.code_sha256 == lib.record(name).code_sha256
        assert row["extra_info"] == {
            "bootcamp": name, "kind": "stdin", "index": i, "split": "train",
            "tests": len(suite.tests), "levels": suite.levels(),
            "suite_sha256": hashlib.sha256(truth.encode()).hexdigest(), "stress": "none",
            "stress_preset": ""}
        (message,) = row["prompt"]
        assert message["role"] == "user"
        content = message["content"]
        assert content.startswith("Solve the following programming problem.\n\n")
        assert "Input\n" in content and "standard input" in content and "```python" in content
        assert f"time limit of {suite.time_limit_s:g} s" in content
    other = _export(tmp_path / "c", bootcamps=SHIPPED[:2], seed=4, derive_stress=False)
    assert other.rows["train"] == 2
    assert (tmp_path / "c" / "train.jsonl").read_bytes() != \
        (tmp_path / "a" / "train.jsonl").read_bytes()


def test_parquet_bytes_and_the_test_split(tmp_path: Path) -> None:
    second = even_pairs_module(even_pairs_model().replace("EvenPairsBootcamp",
                                                          "EvenPairsTooBootcamp"))
    lib = compiled_library(tmp_path / "lib", {"even_pairs": even_pairs_module(),
                                              "even_pairs_too": second})
    kw = {"library": lib.root, "format": "parquet", "test_share": 0.5}
    one = _export(tmp_path / "a", **kw)
    _export(tmp_path / "b", **kw)
    for split in ("train", "test"):
        assert (tmp_path / "a" / f"{split}.parquet").read_bytes() == \
            (tmp_path / "b" / f"{split}.parquet").read_bytes()
    assert one.rows == {"train": 1, "test": 1}
    import pyarrow.parquet as pq

    test_rows = pq.read_table(tmp_path / "a" / "test.parquet").to_pylist()
    (row,) = test_rows
    assert row["extra_info"]["split"] == "test" and row["extra_info"]["index"] == 0
    suite = read_suite(row["reward_model"]["ground_truth"])
    assert suite.levels()["stress"] == 2 and row["extra_info"]["levels"]["stress"] == 2
    assert row["extra_info"]["stress"] == "declared"  # the class's own STRESS, never derived
    assert json.loads(row["extra_info"]["stress_preset"]) == {"n": 20000, "hi": 10**9,
                                                              "full": True}


def test_a_function_task_asks_for_the_function() -> None:
    rec, code = Library().checked_code("humaneval_46_fib4", include_unlisted=True)
    built = build_suite(rec.name, code, code_sha256=rec.code_sha256,
                        backend=get_backend("process"), options=BuildOptions(per_level=2))
    row = code_row(built, "train", 0)
    content = row["prompt"][0]["content"]
    assert content.startswith("Implement the Python function specified below.")
    assert "def fib4(n: int):" in content and "Write the function `fib4`" in content
    assert "results.append" not in content  # the specification, never the solution
    assert row["extra_info"]["kind"] == "function"


def test_the_command(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, [
        "export", "--out", str(tmp_path / "rows"), "--format", "code", "--sandbox", "process",
        "--tests-per-level", "2", "--stress-tests", "0", "--bootcamp", SHIPPED[1], "--bootcamp",
        "cipher"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "skipped cipher: not a compiled bootcamp" in result.output
    assert "no STRESS preset, so no stress tests" in result.output
    assert "wrote 1 train and 0 test code rows" in result.output
    assert len((tmp_path / "rows" / "train.jsonl").read_text().splitlines()) == 1


@pytest.mark.parametrize("share", [-0.1, 1.5])
def test_bad_options_are_refused(tmp_path: Path, share: float) -> None:
    result = CliRunner().invoke(app, ["export", "--out", str(tmp_path), "--format", "code",
                                      "--test-share", str(share)])
    assert result.exit_code == 2 and "invalid option" in result.output
    result = CliRunner().invoke(app, ["export", "--out", str(tmp_path), "--format", "code",
                                      "--curriculum"], env={"COLUMNS": "200"})
    assert result.exit_code == 2 and "--curriculum does not apply to --format code" in result.output

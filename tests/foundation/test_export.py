from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from helpers import TOY_COIN, TOY_SUM, make_library

from synth.export import ExportConfig, export
from synth.library import Library


def _rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


@pytest.fixture
def lib(tmp_path: Path) -> Library:
    return make_library(tmp_path / "lib", toy_sum=TOY_SUM)


def test_same_seed_same_bytes_any_worker_count(lib: Library, tmp_path: Path):
    outs = []
    for i, workers in enumerate([1, 2, 2]):
        out = tmp_path / f"out{i}"
        export(ExportConfig(out=out, library=lib.root, per_bootcamp=120, test_per_bootcamp=30,
                            seed=7, workers=workers, chunk_size=16))
        outs.append(out)
    for split in ("train.jsonl", "test.jsonl"):
        data = {(o / split).read_bytes() for o in outs}
        assert len(data) == 1
    other = tmp_path / "other"
    export(ExportConfig(out=other, library=lib.root, per_bootcamp=120, test_per_bootcamp=30, seed=8))
    assert (other / "train.jsonl").read_bytes() != (outs[0] / "train.jsonl").read_bytes()


def test_rows_have_verl_shape_and_regenerate(lib: Library, tmp_path: Path):
    export(ExportConfig(out=tmp_path / "o", library=lib.root, per_bootcamp=20, test_per_bootcamp=5))
    rows = _rows(tmp_path / "o" / "train.jsonl")
    assert len(rows) == 20
    cls = lib.load_bootcamp("toy_sum")
    levels = set()
    for row in rows:
        assert set(row) == {"data_source", "prompt", "ability", "reward_model", "extra_info"}
        assert row["data_source"] == "bootcamp/toy_sum"
        assert row["prompt"][0]["role"] == "user"
        assert row["reward_model"]["style"] == "rule"
        info = row["extra_info"]
        assert info["split"] == "train" and info["bootcamp"] == "toy_sum"
        levels.add(info["level"])
        case = cls.from_level(info["level"], seed=info["seed"]).case_generator()
        assert json.loads(row["reward_model"]["ground_truth"]) == case
        assert row["prompt"][0]["content"] == cls.prompt_func(case)
    assert levels == {"easy", "hard"}


def test_splits_disjoint_and_duplicates_counted(tmp_path: Path):
    lib = make_library(tmp_path / "lib", coin=TOY_COIN, toy_sum=TOY_SUM)
    summary = export(ExportConfig(out=tmp_path / "o", library=lib.root, per_bootcamp=50,
                                  test_per_bootcamp=2, seed=1))
    train = _rows(tmp_path / "o" / "train.jsonl")
    test = _rows(tmp_path / "o" / "test.jsonl")
    train_prompts = [r["prompt"][0]["content"] for r in train]
    test_prompts = {r["prompt"][0]["content"] for r in test}
    assert not set(train_prompts) & test_prompts
    assert len(train_prompts) == len(set(train_prompts))
    coin = summary.per_bootcamp["coin"]
    # 3 possible prompts: 2 go to test, 1 is left for train; the rest are dropped and counted
    assert coin.test == 2 and coin.train == 1 and coin.short_by == 49
    assert coin.dup_across_splits > 0 and coin.dup_within_split > 0
    assert summary.duplicates_dropped >= coin.dup_across_splits + coin.dup_within_split
    assert summary.per_bootcamp["toy_sum"].train == 50


def test_level_option(lib: Library, tmp_path: Path):
    export(ExportConfig(out=tmp_path / "o", library=lib.root, per_bootcamp=10,
                        test_per_bootcamp=0, level="hard"))
    rows = _rows(tmp_path / "o" / "train.jsonl")
    assert {r["extra_info"]["level"] for r in rows} == {"hard"}
    assert all(len(json.loads(r["reward_model"]["ground_truth"])["numbers"]) == 8 for r in rows)
    with pytest.raises(KeyError, match="no level"):
        export(ExportConfig(out=tmp_path / "p", library=lib.root, level="extreme"))


def test_parquet_matches_jsonl(lib: Library, tmp_path: Path):
    for fmt in ("jsonl", "parquet"):
        export(ExportConfig(out=tmp_path / fmt, library=lib.root, per_bootcamp=15,
                            test_per_bootcamp=5, format=fmt, seed=3))
    table = pq.read_table(tmp_path / "parquet" / "train.parquet").to_pylist()
    assert table == _rows(tmp_path / "jsonl" / "train.jsonl")
    export(ExportConfig(out=tmp_path / "again", library=lib.root, per_bootcamp=15,
                        test_per_bootcamp=5, format="parquet", seed=3))
    assert (tmp_path / "again" / "train.parquet").read_bytes() == (
        tmp_path / "parquet" / "train.parquet"
    ).read_bytes()


def test_empty_library_is_an_error(tmp_path: Path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no accepted bootcamps"):
        export(ExportConfig(out=tmp_path / "o", library=tmp_path / "empty"))


# sha256 of the files that the in-process export (before the sandboxed method servers) wrote
# for the shipped library: the sandboxed export must give the very same bytes.
PINNED_SHIPPED = {
    "a": (dict(per_bootcamp=12, test_per_bootcamp=4, seed=0),
          "1b295144c7acc10ca1b2589d64e250568a233c2118ccd8ba8a67ceedbfda530a",
          "0fbc2ec4b8c9f74a7a269433b3389ba3fee8ad30dcc68faab041d22ed37be738"),
    "b": (dict(per_bootcamp=9, test_per_bootcamp=3, seed=7, level="default"),
          "5289f515d4d9a0e3e97f172722e92f47280d2f019beb52b39e6034d692d61dfd",
          "4688cd6008172c22dd635e212d21a6b923f35b18277a23d507322fd90c487ff2"),
    "c": (dict(per_bootcamp=10, test_per_bootcamp=2, seed=123456789, level="easy",
               bootcamps=["game24", "sudoku"]),
          "35a7fd0e1cc5417592fc956defbabfd0aa107335d831105afe33d50b6f6de0b2",
          "e7ded828d00d5a5948be2ec21869ff3bb0cebf06fc9fa7e9f7f7e1618da51377"),
}


@pytest.mark.parametrize("tag", sorted(PINNED_SHIPPED))
def test_shipped_library_bytes_are_pinned(tag: str, tmp_path: Path):
    options, train_sha, test_sha = PINNED_SHIPPED[tag]
    out = tmp_path / tag
    export(ExportConfig(out=out, workers=2, **options))  # type: ignore[arg-type]
    assert hashlib.sha256((out / "train.jsonl").read_bytes()).hexdigest() == train_sha
    assert hashlib.sha256((out / "test.jsonl").read_bytes()).hexdigest() == test_sha

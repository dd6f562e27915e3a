from __future__ import annotations

import hashlib
import json
import random
import time
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from helpers import TOY_COIN, TOY_SUM, assert_no_leftovers, make_library, pids_with

from synth.library import Library
from synth.sandbox.base import Outcome
from synth.sandbox.kit import derive_seed
from synth.serving.sampling import CaseSampler, SampleError
from synth.training.export import ExportConfig, ExportError, export
from synth.training.rows import SERVER_LABEL, case_seed


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
                            seed=7, workers=workers, chunk_size=16, sandbox="process"))
        outs.append(out)
    for split in ("train.jsonl", "test.jsonl"):
        data = {(o / split).read_bytes() for o in outs}
        assert len(data) == 1
    other = tmp_path / "other"
    export(ExportConfig(out=other, library=lib.root, per_bootcamp=120, test_per_bootcamp=30, seed=8,
                        sandbox="process"))
    assert (other / "train.jsonl").read_bytes() != (outs[0] / "train.jsonl").read_bytes()


def test_rows_have_verl_shape_and_regenerate(lib: Library, tmp_path: Path):
    export(ExportConfig(out=tmp_path / "o", library=lib.root, per_bootcamp=20, test_per_bootcamp=5,
                        sandbox="process"))
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
                                  test_per_bootcamp=2, seed=1, sandbox="process"))
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
                        test_per_bootcamp=0, level="hard", sandbox="process"))
    rows = _rows(tmp_path / "o" / "train.jsonl")
    assert {r["extra_info"]["level"] for r in rows} == {"hard"}
    assert all(len(json.loads(r["reward_model"]["ground_truth"])["numbers"]) == 8 for r in rows)
    with pytest.raises(KeyError, match="no level"):
        export(ExportConfig(out=tmp_path / "p", library=lib.root, level="extreme", sandbox="process"))
    assert not (tmp_path / "p").exists()


def test_parquet_matches_jsonl(lib: Library, tmp_path: Path):
    for fmt in ("jsonl", "parquet"):
        export(ExportConfig(out=tmp_path / fmt, library=lib.root, per_bootcamp=15,
                            test_per_bootcamp=5, format=fmt, seed=3, sandbox="process"))
    table = pq.read_table(tmp_path / "parquet" / "train.parquet").to_pylist()
    assert table == _rows(tmp_path / "jsonl" / "train.jsonl")
    export(ExportConfig(out=tmp_path / "again", library=lib.root, per_bootcamp=15,
                        test_per_bootcamp=5, format="parquet", seed=3, sandbox="process"))
    assert (tmp_path / "again" / "train.parquet").read_bytes() == (
        tmp_path / "parquet" / "train.parquet"
    ).read_bytes()


def test_empty_library_is_an_error(tmp_path: Path):
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no accepted bootcamps"):
        export(ExportConfig(out=tmp_path / "o", library=tmp_path / "empty"))


# sha256 of the files that the in-process export (before the sandboxed method servers) wrote
# for the shipped library's hand-written bootcamps: the sandboxed export must give the very same
# bytes. (The library has since grown by a generated bootcamp; an export of all of it differs
# by that bootcamp's rows, so the pins name the six they were taken on.)
HANDWRITTEN = ["cipher", "code_output", "game24", "interval_cover", "knights_knaves", "sudoku"]
PINNED_SHIPPED = {
    "a": (dict(per_bootcamp=12, test_per_bootcamp=4, seed=0, bootcamps=HANDWRITTEN),
          "1b295144c7acc10ca1b2589d64e250568a233c2118ccd8ba8a67ceedbfda530a",
          "0fbc2ec4b8c9f74a7a269433b3389ba3fee8ad30dcc68faab041d22ed37be738"),
    "b": (dict(per_bootcamp=9, test_per_bootcamp=3, seed=7, level="default", bootcamps=HANDWRITTEN),
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
    summary = export(ExportConfig(out=out, workers=2, sandbox="process", **options))  # type: ignore[arg-type]
    assert summary.backend == "process" and summary.servers_started >= 1
    assert hashlib.sha256((out / "train.jsonl").read_bytes()).hexdigest() == train_sha
    assert hashlib.sha256((out / "test.jsonl").read_bytes()).hexdigest() == test_sha


def test_dedup_path_bytes_are_pinned(tmp_path: Path):
    """Duplicates within and across splits (TOY_COIN has 3 prompts): the sha256 of what the
    in-process export wrote before the sandboxed one, for these very toys and options."""
    lib = make_library(tmp_path / "lib", coin=TOY_COIN, toy_sum=TOY_SUM)
    out = tmp_path / "o"
    export(ExportConfig(out=out, library=lib.root, per_bootcamp=50, test_per_bootcamp=2, seed=1,
                        workers=2, chunk_size=8, sandbox="process"))
    assert hashlib.sha256((out / "train.jsonl").read_bytes()).hexdigest() == (
        "5da41501fcce3f2392a3876bfc045a12c4bac61c09ff54689091e8f3ce166f4e")
    assert hashlib.sha256((out / "test.jsonl").read_bytes()).hexdigest() == (
        "182d3570191456b7d55880f488c38f66b198b6c9f3e2a5430f30987a0b38372d")


def test_case_seed_is_the_kit_derivation():
    for args in [(0, "game24", "train", 0), (-3, "a\x1fb", "test", 10**6), (2**70, "x", "train", 5)]:
        expected = int.from_bytes(hashlib.sha256("\x1f".join(map(str, args)).encode()).digest()[:8],
                                  "big") & ((1 << 63) - 1)
        assert case_seed(*args) == derive_seed(*args) == expected


# -- bootcamp failures stop the export, naming the bootcamp, the row and the exception ---------

PICKY_PROMPT = TOY_SUM.replace("ToySumBootcamp", "PickyBootcamp").replace(
    '        nums = " ".join(str(x) for x in identity["numbers"])\n',
    '        if sum(identity["numbers"]) % 7 == 3:\n'
    '            raise ValueError(f"cannot render {identity}")\n'
    '        nums = " ".join(str(x) for x in identity["numbers"])\n',
)


def _first_failing_test_row(name: str, seed: int) -> int:
    """The first test row whose case PICKY_PROMPT cannot render (its generator, replayed)."""
    for index in range(1000):
        level = ["easy", "hard"][index % 2]
        n, hi = {"easy": (3, 9), "hard": (8, 999)}[level]
        rng = random.Random(case_seed(seed, name, "test", index))
        if sum(rng.randint(0, hi) for _ in range(n)) % 7 == 3:
            return index
    raise AssertionError("no failing row")


def test_a_raising_bootcamp_names_the_row_and_the_exception(tmp_path: Path):
    lib = make_library(tmp_path / "lib", toy_sum=TOY_SUM, picky=PICKY_PROMPT)
    out = tmp_path / "o"
    with pytest.raises(ExportError) as info:
        export(ExportConfig(out=out, library=lib.root, per_bootcamp=30, test_per_bootcamp=30,
                            seed=5, workers=2, chunk_size=8, sandbox="process"))
    row = _first_failing_test_row("picky", 5)
    message = str(info.value)
    assert "bootcamp 'picky'" in message and f"row test[{row}]" in message, message
    assert "ValueError: cannot render" in message
    assert "prompt_func" in info.value.traceback
    # and where the error is not caught, the evidence shows with the message
    assert any("prompt_func" in note for note in info.value.__notes__)
    assert not out.exists()  # nothing half-written


NOT_JSON = TOY_SUM.replace("ToySumBootcamp", "TupleBootcamp").replace(
    'return {"numbers": [self.rng.randint(0, self.hi) for _ in range(self.n)]}',
    'return {"numbers": tuple(self.rng.randint(0, self.hi) for _ in range(self.n))}',
)
PROMPT_NOT_TEXT = TOY_SUM.replace("ToySumBootcamp", "NumberPromptBootcamp").replace(
    'return f"Add these numbers: {nums}. Answer as <answer>N</answer>."', "return 42")
COMPUTED_LEVELS = TOY_SUM.replace("ToySumBootcamp", "ComputedBootcamp").replace(
    '    LEVELS = {"easy": {"n": 3, "hi": 9}, "hard": {"n": 8, "hi": 999}}',
    '    LEVELS = {name: {"n": n} for name, n in (("one", 1), ("two", 2), ("five", 5))}')
BAD_LEVELS = TOY_SUM.replace("ToySumBootcamp", "BadLevelsBootcamp").replace(
    '    LEVELS = {"easy": {"n": 3, "hi": 9}, "hard": {"n": 8, "hi": 999}}',
    '    LEVELS = {"easy": [("n", 3)]}')


@pytest.mark.parametrize(("code", "needle"), [
    (NOT_JSON, "not plain JSON"),
    (PROMPT_NOT_TEXT, "prompt_func returned a int, not a str"),
    (BAD_LEVELS, "LEVELS"),
])
def test_invalid_values_are_refused_not_exported(code: str, needle: str, tmp_path: Path):
    lib = make_library(tmp_path / "lib", odd=code)
    with pytest.raises(ExportError, match="bootcamp 'odd'") as info:
        export(ExportConfig(out=tmp_path / "o", library=lib.root, per_bootcamp=5, test_per_bootcamp=5,
                            sandbox="process"))
    assert needle in str(info.value)
    if code is not BAD_LEVELS:
        assert "row test[0]" in str(info.value)
    assert not (tmp_path / "o").exists()


def test_levels_come_from_the_handshake(tmp_path: Path):
    """LEVELS built by code (no literal for an AST to read) are cycled in their own order."""
    lib = make_library(tmp_path / "lib", computed=COMPUTED_LEVELS)
    export(ExportConfig(out=tmp_path / "o", library=lib.root, per_bootcamp=6, test_per_bootcamp=0,
                        sandbox="process"))
    rows = _rows(tmp_path / "o" / "train.jsonl")
    assert [r["extra_info"]["level"] for r in rows] == ["one", "two", "five"] * 2
    sizes = [len(json.loads(r["reward_model"]["ground_truth"])["numbers"]) for r in rows]
    assert sizes == [1, 2, 5] * 2


HANGS_ON_HARD = TOY_SUM.replace("ToySumBootcamp", "HangBootcamp").replace(
    "    def case_generator(self):\n",
    "    def case_generator(self):\n        while self.n == 8:\n            pass\n",
)


def test_a_hanging_bootcamp_is_bounded_and_leaves_no_process(tmp_path: Path):
    lib = make_library(tmp_path / "lib", hang=HANGS_ON_HARD)
    before = pids_with(SERVER_LABEL)
    t0 = time.monotonic()
    with pytest.raises(ExportError, match="timed out") as info:
        export(ExportConfig(out=tmp_path / "o", library=lib.root, per_bootcamp=5, test_per_bootcamp=5,
                            call_limit_s=1.0, sandbox="process"))
    assert time.monotonic() - t0 < 15
    assert "row test[1] (level hard" in str(info.value)  # rows alternate easy, hard
    assert_no_leftovers(SERVER_LABEL, grace_s=5, before=before)


IGNORES_ALARM = TOY_SUM.replace("ToySumBootcamp", "StubbornBootcamp").replace(
    "    def case_generator(self):\n",
    "    def case_generator(self):\n"
    "        import signal\n"
    "        signal.signal(signal.SIGALRM, signal.SIG_IGN)\n"
    "        while True:\n"
    "            pass\n",
)


def test_a_bootcamp_that_disarms_the_kit_timer_is_killed_by_the_host_deadline():
    before = pids_with("stubborn-sampler")
    t0 = time.monotonic()
    with CaseSampler(IGNORES_ALARM, backend="process", call_limit_s=0.5, per_case_s=0.5,
                     label="stubborn-sampler") as sampler, pytest.raises(SampleError) as info:
        sampler.sample([("easy", 1), ("easy", 2)])
    assert time.monotonic() - t0 < 8
    assert info.value.outcome is Outcome.TIMEOUT and info.value.position == 0
    assert_no_leftovers("stubborn-sampler", grace_s=5, before=before)

"""Export and `synth library show` on bootcamps whose text UTF-8 cannot encode (lone surrogates):
the bootcamp and the row are named, nothing is half-written, nothing crashes. The surrogates
come only on some rows (a bootcamp honest on the gate's seeds could hide them there)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import TOY_SUM, make_library

from synth.library import Library, LibraryError
from synth.training.export import ExportConfig, ExportError, _write, _write_hf, export
from synth.training.rows import case_seed

#: a lone surrogate on the rows whose numbers sum to 3 mod 7, in the prompt or in the case
IN_PROMPT = TOY_SUM.replace("ToySumBootcamp", "SleeperBootcamp").replace(
    '        return f"Add these numbers: {nums}. Answer as <answer>N</answer>."',
    '        odd = chr(0xD800) if sum(identity["numbers"]) % 7 == 3 else ""\n'
    '        return f"Add these{odd} numbers: {nums}. Answer as <answer>N</answer>."')
IN_CASE = TOY_SUM.replace("ToySumBootcamp", "SleeperBootcamp").replace(
    '        return {"numbers": [self.rng.randint(0, self.hi) for _ in range(self.n)]}',
    '        numbers = [self.rng.randint(0, self.hi) for _ in range(self.n)]\n'
    '        odd = {"tag": "\\udfff"} if sum(numbers) % 7 == 3 else {}\n'
    '        return {"numbers": numbers, **odd}')


def first_odd_test_row(name: str, seed: int) -> int:
    """The first test row whose numbers sum to 3 mod 7 (the generator, replayed)."""
    for index in range(1000):
        level = ["easy", "hard"][index % 2]
        n, hi = {"easy": (3, 9), "hard": (8, 999)}[level]
        rng = random.Random(case_seed(seed, name, "test", index))
        if sum(rng.randint(0, hi) for _ in range(n)) % 7 == 3:
            return index
    raise AssertionError("no such row")


@pytest.mark.parametrize(("code", "code_point"), [(IN_PROMPT, "U+D800"), (IN_CASE, "U+DFFF")],
                         ids=["prompt", "case"])
@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
def test_export_names_the_bootcamp_and_the_row_and_writes_nothing(code: str, code_point: str,
                                                                  fmt: str, tmp_path: Path):
    assert code != TOY_SUM
    lib = make_library(tmp_path / "lib", toy_sum=TOY_SUM, sleeper=code)
    out = tmp_path / "o"
    with pytest.raises(ExportError) as info:
        export(ExportConfig(out=out, library=lib.root, per_bootcamp=20, test_per_bootcamp=20,
                            seed=5, workers=2, chunk_size=8, sandbox="process", format=fmt))
    message = str(info.value)
    row = first_odd_test_row("sleeper", 5)
    assert "bootcamp 'sleeper'" in message and f"row test[{row}]" in message, message
    assert "UTF-8" in message and code_point in message
    message.encode("utf-8")
    assert not out.exists()


def _row(index: int, prompt: str, truth: str = '{"numbers": [1]}') -> dict:
    return {"data_source": "bootcamp/odd", "prompt": [{"role": "user", "content": prompt}],
            "ability": "reasoning", "reward_model": {"style": "rule", "ground_truth": truth},
            "extra_info": {"bootcamp": "odd", "level": "easy", "seed": 1, "index": index,
                           "split": "train"}}


@pytest.mark.parametrize("fmt", ["jsonl", "parquet"])
@pytest.mark.parametrize(("prompt", "truth"), [("x\ud800", '{"numbers": [1]}'),
                                               ("fine", '{"tag": "\udc00"}')])
def test_a_writer_that_meets_unencodable_text_names_the_row(fmt: str, prompt: str, truth: str,
                                                            tmp_path: Path):
    """Behind the method server's refusal: the writers themselves name the row."""
    rows = [_row(0, "ok"), _row(1, "ok"), _row(2, prompt, truth)]
    path = tmp_path / f"train.{fmt}"
    with pytest.raises(ExportError, match=r"bootcamp 'odd': row train\[2\] cannot be written"):
        _write(rows, path, fmt)
    assert list(tmp_path.iterdir()) == []  # neither the file nor its temporary


def test_the_hf_writer_names_the_row(tmp_path: Path):
    pytest.importorskip("datasets")
    splits = {"train": [_row(0, "ok"), _row(1, "x\udfff")], "test": [_row(0, "ok")]}
    with pytest.raises(ExportError, match=r"row train\[1\] cannot be written to hf"):
        _write_hf(splits, tmp_path)
    assert not (tmp_path / "hf").exists()


def test_the_ray_writer_names_the_row():
    pytest.importorskip("ray")
    import pyarrow as pa

    from synth.training.export_ray import _cut

    rows = [_row(0, "ok"), _row(7, "bad \ud800")]
    schema = pa.Table.from_pylist([_row(0, "ok")]).schema
    with pytest.raises(ExportError, match=r"row train\[7\] cannot be written to the parquet"):
        _cut(rows, [(0, 0), (1, 1)], None, schema)


# -- the library: what it writes and what it shows -----------------------------------------------


SHOW_PROMPT = TOY_SUM.replace(
    '        return f"Add these numbers: {nums}. Answer as <answer>N</answer>."',
    '        return f"Add \\ud800 these numbers: {nums}. Answer as <answer>N</answer>."')


def synth(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "synth.cli", *args], capture_output=True,
                          text=True, timeout=300, env={**os.environ, "COLUMNS": "200"})


def test_library_show_prints_the_refusal_and_never_crashes(tmp_path: Path):
    lib = make_library(tmp_path / "lib", shown=SHOW_PROMPT)
    res = synth("library", "show", "shown", "--library", str(lib.root), "--sandbox", "process")
    assert res.returncode == 2, res.stderr
    assert "Traceback" not in res.stderr and "UnicodeEncodeError" not in res.stderr
    assert "shown" in res.stderr and "UTF-8" in res.stderr and "U+D800" in res.stderr
    assert "class_name" in res.stdout  # the record and the code were shown before the draw


def test_the_library_refuses_to_commit_or_read_unencodable_text(tmp_path: Path):
    lib = make_library(tmp_path / "lib", good=TOY_SUM)
    for fields in ({"code": TOY_SUM + "# \ud800\n"}, {"task_id": "toys/\udfff"},
                   {"title": "t\udc00"}):
        args = {"name": "bad", "code": TOY_SUM, "class_name": "ToySumBootcamp",
                "source": "toys", "task_id": "toys/bad", "origin": "handwritten", **fields}
        with pytest.raises(LibraryError, match=r"bootcamp 'bad' cannot be committed.*U\+D"):
            lib.commit(**args)
    assert lib.list_bootcamps() == ["good"] and not (lib.root / "toys" / "bad.py").exists()
    manifest = json.loads(lib.manifest_path.read_text(encoding="utf-8"))
    manifest["bootcamps"][0]["title"] = "hand \ud800 edited"
    lib.manifest_path.write_text(json.dumps(manifest), encoding="utf-8")  # a \\ud800 escape
    with pytest.raises(LibraryError, match=r"invalid manifest.*U\+D800"):
        Library(lib.root).records()
    res = synth("library", "list", "--library", str(lib.root))
    assert res.returncode == 2 and "U+D800" in res.stderr and "Traceback" not in res.stderr

"""Paths read from a library or a run folder resolve inside their roots (issue 22, part 5).

A record's run id, a record's ``module_path`` and a run's candidate files are data: an absolute
run id, one with ``..``, a module symlinked out of the library or a candidate symlinked out of
its run folder are refused with an error naming the path and the root; the ordinary ones work.
No sandbox is started (``gather(samples=False)``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from synth.library import Library, LibraryError
from synth.paths import OutsideRootError, inside
from synth.reporting.review import ReviewError, gather
from synth.runs import RunError, run_folder

CODE = '''"""Toy: add two numbers (test of paths inside roots)."""

from synth.bootcamp import BaseBootcamp


class ToyBootcamp(BaseBootcamp):
    def case_generator(self):
        return {"a": self.rng.randint(0, 9), "b": self.rng.randint(0, 9)}

    @staticmethod
    def prompt_func(identity):
        return f"{identity['a']} + {identity['b']}? <answer>N</answer>"

    @classmethod
    def reference_answer(cls, identity):
        return str(identity["a"] + identity["b"])

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution.strip() == str(identity["a"] + identity["b"])
'''
OTHER = CODE.replace("Toy: add", "Other: add")


def _library(tmp: Path, run_id: str | None = "run-1") -> Library:
    lib = Library(tmp / "lib")
    lib.commit(name="toy", code=CODE, class_name="ToyBootcamp", source="local", task_id="local/toy",
               origin="generated", status="pending-review", levels=["default"], run_id=run_id)
    return lib


def _run(runs: Path, run_id: str, code: str) -> Path:
    cand = runs / run_id / "candidates" / "local_toy"
    cand.mkdir(parents=True)
    (cand / "round_0_0.py").write_text(code, encoding="utf-8")
    (runs / run_id / "config.json").write_text(json.dumps({"config": {"band_low": 0.1,
                                                                     "band_high": 0.9}}))
    return runs / run_id


def _set_record(lib: Library, **fields: object) -> None:
    raw = json.loads(lib.manifest_path.read_text(encoding="utf-8"))
    raw["bootcamps"][0].update(fields)
    lib.manifest_path.write_text(json.dumps(raw), encoding="utf-8")


def test_the_helper_refuses_every_way_out(tmp_path: Path):
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (tmp_path / "outside.txt").write_text("secret")
    (root / "link").symlink_to(tmp_path / "outside.txt")
    (root / "dirlink").symlink_to(tmp_path)
    assert inside(root, "sub/a.txt") == (root / "sub" / "a.txt").resolve()
    for rel, why in [("/etc/passwd", "absolute"), ("../outside.txt", "'..'"),
                     ("sub/../../outside.txt", "'..'"), ("link", "symlink"),
                     ("dirlink/outside.txt", "symlink"), ("", "empty")]:
        with pytest.raises(OutsideRootError) as err:
            inside(root, rel, what="thing")
        assert why in str(err.value) and str(root.resolve()) in str(err.value), rel


def test_normal_run_and_module_are_read(tmp_path: Path):
    lib, runs = _library(tmp_path), tmp_path / "runs"
    _run(runs, "run-1", CODE)
    review = gather(lib, "toy", runs, samples=False)
    assert review.run_dir == (runs / "run-1").resolve()
    assert [c.label for c in review.candidates] == ["round_0_0"]
    assert review.winner is not None and review.band == (0.1, 0.9)


@pytest.mark.parametrize("run_id", ["ABSOLUTE", "../elsewhere/run-1", "run-1/../../elsewhere/run-1"])
def test_run_ids_that_leave_the_runs_folder_are_refused(tmp_path: Path, run_id: str):
    elsewhere = _run(tmp_path / "elsewhere", "run-1", OTHER)
    runs = tmp_path / "runs"
    runs.mkdir()
    if run_id == "ABSOLUTE":
        run_id = str(elsewhere)
    lib = _library(tmp_path, run_id=run_id)
    with pytest.raises(ReviewError) as err:
        gather(lib, "toy", runs, samples=False)
    assert repr(run_id) in str(err.value) and str(runs.resolve()) in str(err.value)
    with pytest.raises(RunError):
        run_folder(runs, run_id)


def test_run_folder_symlinked_out_is_refused(tmp_path: Path):
    elsewhere = _run(tmp_path / "elsewhere", "run-1", OTHER)
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "run-1").symlink_to(elsewhere)
    with pytest.raises(ReviewError, match="symlink"):
        gather(_library(tmp_path), "toy", runs, samples=False)


def test_candidate_symlinked_out_is_refused(tmp_path: Path):
    lib, runs = _library(tmp_path), tmp_path / "runs"
    run = _run(runs, "run-1", CODE)
    (tmp_path / "stolen.py").write_text(OTHER, encoding="utf-8")
    (run / "candidates" / "local_toy" / "round_1_0.py").symlink_to(tmp_path / "stolen.py")
    with pytest.raises(ReviewError) as err:
        gather(lib, "toy", runs, samples=False)
    assert "round_1_0.py" in str(err.value) and "symlink" in str(err.value)


def test_module_path_symlinked_out_is_refused(tmp_path: Path):
    lib = _library(tmp_path, run_id=None)
    (tmp_path / "stolen.py").write_text(OTHER, encoding="utf-8")
    module = lib.root / "local" / "toy.py"
    module.unlink()
    module.symlink_to(tmp_path / "stolen.py")
    with pytest.raises(LibraryError) as err:
        lib.code("toy")
    assert "local/toy.py" in str(err.value) and str(lib.root) in str(err.value)
    with pytest.raises(LibraryError, match="symlink"):
        lib.checked_code("toy", include_unlisted=True)
    with pytest.raises(ReviewError, match="symlink"):
        gather(lib, "toy", None, samples=False)


def test_module_path_edited_to_leave_the_library_is_refused(tmp_path: Path):
    lib = _library(tmp_path, run_id=None)
    (tmp_path / "stolen.py").write_text(OTHER, encoding="utf-8")
    _set_record(lib, module_path="../stolen.py")  # the manifest's own validator refuses it
    with pytest.raises(LibraryError, match="inside the library"):
        lib.code("toy")

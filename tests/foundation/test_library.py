from __future__ import annotations

import json
import multiprocessing as mp
from pathlib import Path

import pytest
from helpers import TOY_COIN, TOY_SUM, make_library

from synth.library import BootcampRecord, Library, LibraryError


def test_commit_then_load_and_list(tmp_path: Path):
    lib = make_library(tmp_path, toy_sum=TOY_SUM)
    assert lib.list_bootcamps() == ["toy_sum"]
    cls = lib.load_bootcamp("toy_sum")
    case = cls(seed=1).case_generator()
    assert cls.verify_score(cls.wrap_answer(cls.reference_answer(case)), case) == 1.0
    rec = lib.record("toy_sum")
    assert rec.module_path == "toys/toy_sum.py" and rec.origin == "handwritten"
    assert len(rec.code_sha256) == 64
    assert (tmp_path / "toys" / "toy_sum.py").read_text() == TOY_SUM


def test_name_collision_is_refused_and_nothing_changes(tmp_path: Path):
    lib = make_library(tmp_path, toy_sum=TOY_SUM)
    before = lib.manifest_path.read_text()
    with pytest.raises(LibraryError, match="already exists"):
        lib.commit(
            name="toy_sum", code=TOY_COIN, class_name="ToyCoinBootcamp", source="toys",
            task_id="x", origin="generated",
        )
    assert lib.manifest_path.read_text() == before
    assert (tmp_path / "toys" / "toy_sum.py").read_text() == TOY_SUM
    assert lib.unique_name("toy_sum") == "toy_sum_2"
    assert lib.unique_name("Toy Sum!") == "toy_sum_2"
    assert lib.unique_name("9lives") == "b_9lives"


def test_explicit_replace(tmp_path: Path):
    lib = make_library(tmp_path, toy=TOY_SUM)
    lib.commit(
        name="toy", code=TOY_COIN, class_name="ToyCoinBootcamp", source="toys", task_id="t",
        origin="generated", replace=True,
    )
    assert lib.load_bootcamp("toy").__name__ == "ToyCoinBootcamp"
    assert len(lib.read_manifest().bootcamps) == 1


def test_tampered_module_is_refused(tmp_path: Path):
    make_library(tmp_path, toy_sum=TOY_SUM)
    path = tmp_path / "toys" / "toy_sum.py"
    path.write_text(TOY_SUM + "\nimport os\n")
    with pytest.raises(LibraryError, match="sha256"):
        Library(tmp_path).load_bootcamp("toy_sum")


def test_manifest_with_unknown_field_is_refused(tmp_path: Path):
    lib = make_library(tmp_path, toy_sum=TOY_SUM)
    raw = json.loads(lib.manifest_path.read_text())
    raw["bootcamps"][0]["trusted"] = True
    lib.manifest_path.write_text(json.dumps(raw))
    with pytest.raises(LibraryError, match="invalid manifest"):
        lib.list_bootcamps()


@pytest.mark.parametrize("bad", ["../evil.py", "/etc/x.py", "a/b.txt"])
def test_record_paths_must_stay_inside(bad: str):
    with pytest.raises(ValueError):
        BootcampRecord(
            name="x", class_name="X", module_path=bad, source="s", task_id="t",
            origin="generated", code_sha256="0" * 64, created_at="now",
        )


def test_bad_names_refused(tmp_path: Path):
    lib = Library(tmp_path)
    for bad in ["Bad", "../x", "with-dash", ""]:
        with pytest.raises(ValueError):
            lib.commit(
                name=bad, code=TOY_SUM, class_name="ToySumBootcamp", source="toys", task_id="t",
                origin="generated",
            )
    assert not lib.manifest_path.exists()


def test_review_status_hides_but_keeps_file(tmp_path: Path):
    lib = make_library(tmp_path, a=TOY_SUM, b=TOY_COIN)
    lib.set_status("a", "rejected-in-review", reason="verifier too lenient")
    assert lib.list_bootcamps() == ["b"]
    assert (tmp_path / "toys" / "a.py").exists()
    assert lib.record("a").review_reason == "verifier too lenient"
    with pytest.raises(LibraryError, match="not accepted"):
        lib.load_bootcamp("a")
    assert lib.load_bootcamp("a", include_unlisted=True).__name__ == "ToySumBootcamp"
    assert [r.name for r in lib.records(None)] == ["a", "b"]


def test_missing_library_folder_is_a_clear_error(tmp_path: Path):
    with pytest.raises(LibraryError, match="does not exist"):
        Library(tmp_path / "nope").list_bootcamps()


def _commit_many(root: str, worker: int, count: int) -> None:
    lib = Library(root)
    for i in range(count):
        code = TOY_SUM.replace("Toy bootcamp", f"Toy bootcamp {worker}-{i}")
        lib.commit(
            name=f"w{worker}_{i}", code=code, class_name="ToySumBootcamp", source="toys",
            task_id=f"toys/w{worker}_{i}", origin="generated",
        )


def test_concurrent_committers_lose_no_record(tmp_path: Path):
    ctx = mp.get_context("spawn")
    procs = [ctx.Process(target=_commit_many, args=(str(tmp_path), w, 15)) for w in range(4)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    lib = Library(tmp_path)
    names = lib.list_bootcamps()
    assert len(names) == 60 and len(set(names)) == 60
    for name in names[::7]:
        lib.load_bootcamp(name)  # every module matches its recorded hash
    leftovers = [p.name for p in tmp_path.rglob("*.tmp")]
    assert leftovers == []

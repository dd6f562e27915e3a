from __future__ import annotations

import json
import multiprocessing as mp
import sys
from pathlib import Path

import pytest
from click.testing import Result
from helpers import TOY_COIN, TOY_SUM, make_library
from typer.testing import CliRunner

from synth.commands import library as library_cmd
from synth.library import BootcampRecord, Library, LibraryError, sha256_text


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


def test_checked_code_is_hash_checked_and_imports_nothing(tmp_path: Path):
    lib = make_library(tmp_path, toy_sum=TOY_SUM, coin=TOY_COIN)
    modules = set(sys.modules)
    rec, code = lib.checked_code("toy_sum")
    assert code == TOY_SUM and rec.class_name == "ToySumBootcamp"
    assert set(sys.modules) == modules
    lib.set_status("coin", "pending-review")
    with pytest.raises(LibraryError, match="not accepted"):
        lib.checked_code("coin")
    assert lib.checked_code("coin", include_unlisted=True)[1] == TOY_COIN
    (tmp_path / "toys" / "toy_sum.py").write_text(TOY_SUM + "\n# edited\n")
    with pytest.raises(LibraryError, match="sha256"):
        lib.checked_code("toy_sum")


def test_load_bootcamp_runs_the_checked_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """The trusted path executes exactly the text whose hash it checked: a file swapped after
    the check (here: every later read of it) is not what runs."""
    lib = make_library(tmp_path, toy_sum=TOY_SUM)
    real_read = Path.read_text
    reads = []

    def read_once_then_swap(self: Path, *args: object, **kwargs: object) -> str:
        text = real_read(self, *args, **kwargs)  # type: ignore[arg-type]
        if self.name == "toy_sum.py":
            reads.append(self)
            if len(reads) > 1:
                return text.replace("return int(s) == sum", "return True or int(s) == sum")
        return text

    monkeypatch.setattr(Path, "read_text", read_once_then_swap)
    cls = lib.load_bootcamp("toy_sum")
    assert len(reads) == 1
    assert cls.verify_score("<answer>7</answer>", {"numbers": [1, 2]}) == 0.0


# -- `synth library add/show` go through the sandbox -------------------------------------------

runner = CliRunner()


def _cli(*args: str) -> Result:
    return runner.invoke(library_cmd.app, list(args), catch_exceptions=False)


TWO_CLASSES = TOY_SUM + "\n\nclass OtherBootcamp(ToySumBootcamp.__base__):\n    pass\n"
PATCHES_CONTRACT = TOY_SUM + "\n\nBaseBootcamp.verify_score = classmethod(lambda cls, r, i, f=0.0: 1.0)\n"
COMPUTED_LEVELS = TOY_SUM.replace(
    '    LEVELS = {"easy": {"n": 3, "hi": 9}, "hard": {"n": 8, "hi": 999}}',
    '    LEVELS = {f"n{n}": {"n": n} for n in (1, 2, 3)}')
RAISES_ON_IMPORT = TOY_SUM + "\nraise RuntimeError('no import for you')\n"


@pytest.mark.parametrize(("code", "needle"), [
    (TWO_CLASSES, "expected exactly one BaseBootcamp subclass"),
    (PATCHES_CONTRACT, "changes the bootcamp contract"),
    (RAISES_ON_IMPORT, "no import for you"),
    ("x = 1\n", "found: none"),
])
def test_add_validates_in_the_sandbox_before_committing(code: str, needle: str, tmp_path: Path):
    src = tmp_path / "cand.py"
    src.write_text(code)
    lib = make_library(tmp_path / "lib", coin=TOY_COIN)
    before = lib.manifest_path.read_text()
    res = _cli("add", str(src), "--library", str(lib.root), "--sandbox", "process")
    assert res.exit_code == 2 and needle in res.output, res.output
    assert lib.manifest_path.read_text() == before
    assert not (lib.root / "handwritten" / "cand.py").exists()


def test_add_records_the_class_and_levels_the_sandbox_reports(tmp_path: Path):
    src = tmp_path / "computed.py"
    src.write_text(COMPUTED_LEVELS)
    res = _cli("add", str(src), "--library", str(tmp_path / "lib"), "--sandbox", "process")
    assert res.exit_code == 0, res.output
    rec = Library(tmp_path / "lib").record("computed")
    assert (rec.class_name, rec.levels) == ("ToySumBootcamp", ["n1", "n2", "n3"])
    assert rec.origin == "handwritten" and rec.code_sha256 == sha256_text(COMPUTED_LEVELS)


MARKUP = TOY_SUM.replace(
    'return f"Add these numbers: {nums}. Answer as <answer>N</answer>."',
    'return f"[bold]Add[/] these [link=x]numbers[/link]: {nums}. [/] Answer as <answer>N</answer>."')


def test_show_draws_in_the_sandbox_and_prints_text_not_markup(tmp_path: Path):
    lib = make_library(tmp_path / "lib", markup=MARKUP)
    res = _cli("show", "markup", "--library", str(lib.root), "--level", "hard", "--seed", "3",
               "--sandbox", "process")
    assert res.exit_code == 0, res.output
    assert "[bold]Add[/] these [link=x]numbers[/link]" in res.output
    cls = lib.load_bootcamp("markup")  # the test trusts its toy: compare with the class itself
    case = cls.from_level("hard", seed=3).case_generator()
    assert str(cls.reference_answer(case)) in res.output and "case (level=hard, seed=3)" in res.output
    bad = _cli("show", "markup", "--library", str(lib.root), "--level", "nightmare", "--sandbox", "process")
    assert bad.exit_code == 2 and "no level 'nightmare'" in bad.output
    (lib.root / "toys" / "markup.py").write_text(MARKUP + "\n# edited\n")
    edited = _cli("show", "markup", "--library", str(lib.root), "--sandbox", "process")
    assert edited.exit_code == 2 and "sha256" in edited.output


def test_a_library_with_a_curriculum_refuses_other_level_names(tmp_path: Path):
    lib = make_library(tmp_path, toy_sum=TOY_SUM)  # no curriculum: any names
    assert lib.curriculum == () and "curriculum" not in json.loads(lib.manifest_path.read_text())
    manifest = lib.read_manifest()
    manifest.curriculum = ["easy", "medium", "hard"]
    lib._write_manifest(manifest)
    assert lib.curriculum == ("easy", "medium", "hard")
    before = lib.manifest_path.read_text()
    with pytest.raises(LibraryError, match=r"begin with \['easy', 'medium', 'hard'\]"):
        lib.commit(name="two", code=TOY_COIN, class_name="ToyCoinBootcamp", source="toys",
                   task_id="t2", origin="generated", levels=["easy", "medium"])
    assert lib.manifest_path.read_text() == before and not (tmp_path / "toys" / "two.py").exists()
    lib.commit(name="three", code=TOY_COIN, class_name="ToyCoinBootcamp", source="toys",
               task_id="t3", origin="generated", levels=["easy", "medium", "hard", "expert"])
    assert json.loads(lib.manifest_path.read_text())["curriculum"] == ["easy", "medium", "hard"]
    assert "three" in lib.list_bootcamps()

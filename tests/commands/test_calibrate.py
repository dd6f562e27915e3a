"""`synth calibrate NAME`: the real CLI, the real openai client over HTTP to the scripted fake
endpoint on 127.0.0.1 (tests/fakes/), the process sandbox, on a copy of the shipped library.

The fake solver answers with the bootcamp's reference answer on some prompts and a wrong answer
on the others. The test draws the same K cases (with reference answers) in the sandbox, decides
each scripted response itself, and scores it with the bootcamp's own ``verify_score`` in this
process: the per-level answers and rates the command reports and records must be exactly those.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from fakes.openai_server import FakeOpenAI, Reply, Request
from helpers import TOY_CRASHY, assert_no_leftovers, pids_with
from typer.testing import CliRunner

from filters.self_consistency import sample_specs
from synth.cli import app
from synth.library import BootcampRecord, Library
from synth.serving.sampling import CaseSampler

pytestmark = pytest.mark.timeout(600)

REPO = Path(__file__).resolve().parents[2]
KEY_ENV = "SYNTH_TEST_CALIBRATE_KEY"
SECRET = "sk-calibrate-secret-4f1d9c"
K = 30
SEED = 5
WRONG = "<answer>surely not this</answer>"


@pytest.fixture
def lib(tmp_path: Path) -> Path:
    dest = tmp_path / "lib"
    shutil.copytree(REPO / "generated_bootcamps", dest,
                    ignore=shutil.ignore_patterns("*.lock", "__pycache__"))
    return dest


@pytest.fixture(autouse=True)
def key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)


class Solver:
    """Scripted answers by prompt text; anything else gets an HTTP 400."""

    def __init__(self, responses: dict[str, str], status: int = 200) -> None:
        self.responses = responses
        self.status = status
        self.server = FakeOpenAI(self.script)

    def script(self, req: Request) -> Reply:
        if self.status != 200:
            return Reply(status=self.status)
        text = self.responses.get(req.last_user)
        return Reply(text=text) if text is not None else Reply(status=400)

    def __enter__(self) -> Solver:
        self.server.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.__exit__(*exc)

    @property
    def base_url(self) -> str:
        return self.server.base_url


def calibrate(lib: Path, name: str, base_url: str, *extra: str) -> Any:
    args = ["calibrate", name, "--samples", str(K), "--seed", str(SEED), "--library", str(lib),
            "--sandbox", "process", "--solver-model", "fake-solver", "--base-url", base_url,
            "--api-key-env", KEY_ENV, "--request-timeout", "10", *extra]
    return CliRunner().invoke(app, args, env={"COLUMNS": "200"})


def draw(lib: Path, name: str) -> list[Any]:
    """The K cases the filter asks (same specs), with reference answers, drawn in the sandbox."""
    rec, code = Library(lib).checked_code(name)
    with CaseSampler(code, backend="process", class_name=rec.class_name, name=name) as sampler:
        return sampler.sample(sample_specs(sampler.levels, K, SEED), answers=True)


def right_on(level: str, prompt: str) -> bool:
    """easy: always right; medium: right on about half (by the prompt's hash); hard: never."""
    if level == "easy":
        return True
    return level == "medium" and hashlib.sha256(prompt.encode()).digest()[0] % 2 == 0


def script_for(lib: Path, name: str) -> tuple[dict[str, str], dict[str, list[float]]]:
    """The scripted responses by prompt, and the score each of the K asks must get, by level
    (verify_score of the bootcamp itself, in this process, on the response the prompt gets)."""
    samples = draw(lib, name)
    cls = Library(lib).load_bootcamp(name)
    responses: dict[str, str] = {}
    for s in samples:  # a prompt drawn twice gets its first answer both times
        responses.setdefault(s.prompt, cls.wrap_answer(s.answer) if right_on(s.level, s.prompt) else WRONG)
    scores: dict[str, list[float]] = {}
    for s in samples:
        scores.setdefault(s.level, []).append(float(cls.verify_score(responses[s.prompt], s.case)))
    return responses, scores


def manifest(lib: Path) -> dict[str, Any]:
    return {r["name"]: r for r in json.loads((lib / "manifest.json").read_text())["bootcamps"]}


@pytest.mark.parametrize("name", ["cipher", "codecontests_16_f_bulbs_without_long_glows"])
def test_per_level_rates_are_what_the_scripted_answers_imply(lib: Path, name: str):
    responses, scores = script_for(lib, name)
    expected = {lvl: sum(v) / len(v) for lvl, v in scores.items()}
    overall = sum(sum(v) for v in scores.values()) / K
    assert expected["easy"] == 1.0 and expected["hard"] == 0.0 and 0.0 < expected["medium"] < 1.0
    before = manifest(lib)
    module = (lib / before[name]["module_path"]).read_bytes()
    evidence = lib.parent / f"{name}.answers.jsonl"
    with Solver(responses) as solver:
        res = calibrate(lib, name, solver.base_url, "--json", "--answers-out", str(evidence))
        asked = [r.last_user for r in solver.server.history]
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    # the evidence: every answer with its level and score, the scores the rates are made of
    answers = [json.loads(line) for line in evidence.read_text().splitlines()]
    assert [a["index"] for a in answers] == list(range(K))
    assert set(answers[0]) >= {"level", "seed", "prompt_head", "response", "score"}
    assert all(a["response"] in responses.values() for a in answers)
    by_level: dict[str, list[float]] = {}
    for a in answers:
        by_level.setdefault(a["level"], []).append(a["score"])
    assert {lvl: sorted(v) for lvl, v in by_level.items()} == {lvl: sorted(v) for lvl, v in scores.items()}
    assert "answers" not in out
    # every one of the K prompts was asked once and scored: no early stop, no retry
    assert out["answered"] == out["requested"] == K and out["solver_failures"] == 0
    assert len(asked) == K and sorted(asked) == sorted(s.prompt for s in draw(lib, name))
    got = {m["level"]: m for m in out["levels"]}
    assert list(got) == ["easy", "medium", "hard"]  # LEVELS order
    assert {lvl: m["answers"] for lvl, m in got.items()} == {lvl: len(v) for lvl, v in scores.items()}
    assert {lvl: m["answers"] for lvl, m in got.items()} == {"easy": 10, "medium": 10, "hard": 10}
    for lvl, m in got.items():
        assert m["rate"] == pytest.approx(expected[lvl]) and m["passed"] == pytest.approx(sum(scores[lvl]))
        assert 0.0 <= m["low"] <= m["rate"] <= m["high"] <= 1.0
    # 95% Wilson intervals of 10/10 and 0/10 (published values)
    assert (got["easy"]["low"], got["easy"]["high"]) == (pytest.approx(0.7225, abs=1e-4), 1.0)
    assert (got["hard"]["low"], got["hard"]["high"]) == (0.0, pytest.approx(0.2775, abs=1e-4))
    assert out["pass_rate"] == pytest.approx(overall) and out["written"] is True
    # the record now says what the rates rest on; status and code untouched
    after = manifest(lib)
    rec = after[name]
    assert rec["pass_rate"] == pytest.approx(overall) and rec["samples"] == K
    assert rec["level_pass_rates"] == {lvl: round(expected[lvl], 4) for lvl in ("easy", "medium", "hard")}
    assert rec["level_samples"] == {"easy": 10, "medium": 10, "hard": 10}
    assert rec["stopped_early"] is False
    cal = rec["calibration"]
    port = solver.base_url.split(":")[2].split("/")[0]
    assert cal["solver_model"] == "fake-solver" and cal["endpoint"] == f"127.0.0.1:{port}"
    assert (cal["samples_requested"], cal["samples_answered"], cal["seed"]) == (K, K, SEED)
    assert cal["calibrated_at"].endswith("Z")
    for field in ("status", "code_sha256", "module_path", "origin", "run_id", "solver_model", "levels"):
        assert rec[field] == before[name][field]
    assert (lib / rec["module_path"]).read_bytes() == module
    # the other records are the same records (rewritten with the new fields at their defaults)
    same = {n: BootcampRecord.model_validate(r) for n, r in before.items() if n != name}
    assert {n: BootcampRecord.model_validate(r) for n, r in after.items() if n != name} == same
    text = (lib / "manifest.json").read_text()
    assert SECRET not in text and SECRET not in res.output
    # what `library show` prints: the answers behind each rate and the calibration
    shown = CliRunner().invoke(app, ["library", "show", name, "--library", str(lib), "--sandbox", "process"],
                               env={"COLUMNS": "250"})
    assert shown.exit_code == 0, shown.output
    assert "easy 1.000 (10 answers, 95% [0.72, 1.00])" in shown.output
    assert "stopped_early" in shown.output and "solver_model=fake-solver" in shown.output


def test_human_output_and_a_key_in_the_url_stay_out_of_the_record(lib: Path):
    responses, scores = script_for(lib, "cipher")
    with Solver(responses) as solver:
        url = solver.base_url.replace("http://", f"http://calib:{SECRET}@")
        res = calibrate(lib, "cipher", url)
    assert res.exit_code == 0, res.output
    rows = [line.replace("│", " ").split() for line in res.stdout.splitlines()]
    by_level = {r[0]: r for r in rows if r and r[0] in ("easy", "medium", "hard", "overall")}
    assert by_level["easy"][1:4] == ["10", "10", "1.000"]
    assert by_level["hard"][1:4] == ["10", "0", "0.000"]
    assert by_level["overall"][1] == str(K)
    assert "95% Wilson" in res.stdout and "wrote the calibration into" in res.stdout
    rec = manifest(lib)["cipher"]
    assert rec["calibration"]["endpoint"].startswith("127.0.0.1:")
    assert SECRET not in (lib / "manifest.json").read_text() and "calib" not in rec["calibration"]["endpoint"]
    assert rec["level_samples"] == {lvl: len(v) for lvl, v in scores.items()}


def test_dry_run_measures_and_writes_nothing(lib: Path):
    responses, _ = script_for(lib, "cipher")
    before = (lib / "manifest.json").read_bytes()
    mtime = (lib / "manifest.json").stat().st_mtime_ns
    with Solver(responses) as solver:
        res = calibrate(lib, "cipher", solver.base_url, "--dry-run", "--json")
        calls = len(solver.server.history)
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["written"] is False and out["dry_run"] is True and out["answered"] == K == calls
    assert (lib / "manifest.json").read_bytes() == before
    assert (lib / "manifest.json").stat().st_mtime_ns == mtime
    assert sorted(p.name for p in lib.iterdir() if p.name.startswith(".manifest")) == []


@pytest.fixture
def crashy(lib: Path) -> str:
    library = Library(lib)  # a copy of the shipped library, without its curriculum: the toy
    manifest = library.read_manifest()  # has two levels, easy and hard
    manifest.curriculum = []
    library._write_manifest(manifest)
    library.commit(name="toy_crashy", code=TOY_CRASHY, class_name="ToyCrashyBootcamp",
                        source="toys", task_id="toys/toy_crashy", origin="handwritten",
                        pass_rate=0.5, samples=4, level_pass_rates={"easy": 1.0, "hard": 0.0},
                        level_samples={"easy": 2, "hard": 2}, stopped_early=True)
    return "toy_crashy"


@pytest.mark.parametrize("as_json", [False, True])
def test_a_raising_verify_score_is_a_finding_and_the_record_stays(lib: Path, crashy: str, as_json: bool):
    prompts = [s.prompt for s in draw(lib, crashy)]
    before = (lib / "manifest.json").read_bytes()
    with Solver({p: "<answer>boom</answer>" for p in prompts}) as solver:
        res = calibrate(lib, crashy, solver.base_url, *(["--json"] if as_json else []))
    assert res.exit_code == 1, res.output
    assert "finding:" in res.stderr and "verifier_error" in res.stderr
    assert "verifier bug" in res.stderr and "RuntimeError" in res.stderr  # the traceback tail
    assert "'<answer>boom</answer>'" in res.stderr  # the response it raised on
    assert "fix the module" in res.stderr and "the record was not changed" in res.stderr
    if as_json:
        finding = json.loads(res.stdout)["finding"]
        assert finding["kind"] == "verifier_error" and finding["response"] == "<answer>boom</answer>"
        assert finding["level"] in ("easy", "hard") and isinstance(finding["seed"], int)
        assert json.loads(res.stdout)["written"] is False
    assert (lib / "manifest.json").read_bytes() == before
    rec = Library(lib).record(crashy)
    assert rec.level_samples == {"easy": 2, "hard": 2} and rec.stopped_early is True
    assert rec.calibration is None


def test_solver_failures_beyond_the_tolerance_write_nothing(lib: Path):
    before = (lib / "manifest.json").read_bytes()
    workers = pids_with("_synth_worker.py")
    t0 = time.monotonic()
    with Solver({}, status=400) as solver:  # a bad request: not retried
        res = calibrate(lib, "cipher", solver.base_url)
        # requests cut off by the cancellation arrive without a body
        asked = [r.last_user for r in solver.server.history if r.last_user]
    elapsed = time.monotonic() - t0
    assert res.exit_code == 2, res.output
    assert "solver_error (level" in res.stderr and "check --base-url" in res.stderr
    assert f"{K // 4 + 1} of {K} solver calls failed" in res.stderr and "scripted 400" in res.stderr
    assert f"${KEY_ENV}" in res.stderr and "the record was not changed" in res.stderr
    # more than a quarter of K failed: the filter stopped there and cancelled the rest
    assert K // 4 < len(set(asked)) <= K and elapsed < 60
    assert (lib / "manifest.json").read_bytes() == before
    assert_no_leftovers("_synth_worker.py", grace_s=5, before=workers)


def test_usage_errors_say_what_to_do(lib: Path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv(KEY_ENV)
    res = calibrate(lib, "cipher", "http://127.0.0.1:9/v1")
    assert res.exit_code == 2 and f"${KEY_ENV} is not set" in res.stderr and "--api-key-env" in res.stderr
    monkeypatch.setenv(KEY_ENV, SECRET)
    res = calibrate(lib, "no_such_camp", "http://127.0.0.1:9/v1")
    assert res.exit_code == 2 and "no bootcamp named 'no_such_camp'" in res.stderr
    res = calibrate(lib, "cipher", "http://127.0.0.1:9/v1", "--samples", "0")
    assert res.exit_code == 2 and "samples" in res.stderr


def test_set_calibration_refuses_a_recommitted_module(lib: Path):
    from synth.library import Calibration, LibraryError

    library = Library(lib)
    cal = Calibration(solver_model="m", endpoint="127.0.0.1:1", samples_requested=2,
                      samples_answered=2, seed=0, calibrated_at="2025-01-01T00:00:00Z")
    with pytest.raises(LibraryError, match="re-committed while it was being measured"):
        library.set_calibration("cipher", code_sha256="0" * 64, pass_rate=0.5, samples=2,
                                level_pass_rates={"easy": 0.5}, level_samples={"easy": 2},
                                calibration=cal)
    assert library.record("cipher").calibration is None

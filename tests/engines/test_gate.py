"""The gate and declared engines: `synth check` on the Go move bootcamp passes with GNU Go and
says "cannot judge: needs gnugo" (exit 3) on a backend without it; the engine's version is
recorded; engine bootcamps get engine-sized time budgets."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import typer
from helpers import (
    ALL_BACKENDS,
    assert_no_leftovers,
    once_per_run,
    one_at_a_time,
    pids_with,
    require_backend,
)
from typer.testing import CliRunner

from synth.commands.check import check_command
from synth.gate import CheckReport
from synth.gate import engines as gate_engines
from synth.gate.report import CheckConfig
from synth.gate.run import run_checks
from synth.sandbox import methods
from synth.workflow.nodes import engines_of

REPO = Path(__file__).resolve().parents[2]
GO_MOVE = REPO / "generated_bootcamps/handwritten/go_move.py"
GO_GAME = GO_MOVE.with_name("go_game.py")
GNUGO = "/usr/games/gnugo"

app = typer.Typer()
app.command("check")(check_command)


@app.callback()
def _root() -> None:
    """Keep `check` a named subcommand, as in synth/cli.py."""


def _invoke(*args: str) -> typer.testing.Result:  # type: ignore[name-defined]
    return CliRunner().invoke(app, ["check", *args], env={"COLUMNS": "250"})


@pytest.fixture
def no_gnugo_in_the_sandbox(monkeypatch: pytest.MonkeyPatch) -> None:
    """The engine client shipped into sandbox jobs looks for GNU Go where no backend has it."""
    source = methods._ENGINES_SOURCE
    paths = '("/usr/games/gnugo", "/usr/bin/gnugo", "/usr/local/bin/gnugo")'
    assert paths in source
    monkeypatch.setattr(methods, "_ENGINES_SOURCE",
                        source.replace(paths, '("/nonexistent/games/gnugo",)'))


def test_load_problem_and_versions() -> None:
    source = GO_MOVE.read_text(encoding="utf-8")
    ok = {"engine_status": {"gnugo": {"ok": True, "version": "GNU Go 3.8"}}}
    assert gate_engines.load_problem(source, ok) is None
    assert gate_engines.engine_versions(ok) == "gnugo: GNU Go 3.8"
    for info in ({}, {"engine_status": {"gnugo": {"ok": False, "error": "it is not here"}}}):
        problem = gate_engines.load_problem(source, info)
        assert problem is not None
        assert problem["severity"] == "cannot_judge" and problem["status"] == "error"
        assert problem["reason"].startswith("cannot judge: needs gnugo")
        assert "apt-get install -y gnugo" in problem["reason"]
    assert gate_engines.load_problem("class A:\n    x = 1\n", {}) is None


def test_engine_bootcamps_get_engine_sized_budgets() -> None:
    cfg = CheckConfig()
    source = GO_MOVE.read_text(encoding="utf-8")
    grown = gate_engines.budgets(cfg, source)
    assert grown.call_mean_s > cfg.call_mean_s and grown.gen_mean_s > cfg.gen_mean_s
    assert grown.limits.wall_s > cfg.limits.wall_s
    assert grown.cases_per_level == cfg.cases_per_level
    assert gate_engines.budgets(cfg, "class A:\n    pass\n") is cfg


@pytest.mark.parametrize("backend", ALL_BACKENDS)
def test_without_the_engine_the_gate_cannot_judge(backend: str,
                                                  no_gnugo_in_the_sandbox: None) -> None:
    require_backend(backend)
    start = time.monotonic()
    report = run_checks(GO_MOVE.read_text(encoding="utf-8"), backend=backend)
    load = next(c for c in report.checks if c.name == "load")
    assert report.verdict == "cannot_judge", load
    assert load.severity == "cannot_judge" and load.finding == "missing_engine"
    assert load.reason.startswith("cannot judge: needs gnugo")
    assert not report.passed
    assert time.monotonic() - start < 60


def test_synth_check_says_cannot_judge_and_exits_3(no_gnugo_in_the_sandbox: None) -> None:
    res = _invoke(str(GO_MOVE), "--sandbox", "bwrap", "--json")
    assert res.exit_code == 3, res.output
    report, _ = json.JSONDecoder().raw_decode(res.output)
    load = next(c for c in report["checks"] if c["name"] == "load")
    assert "cannot judge: needs gnugo" in load["reason"]


@dataclass(frozen=True)
class Checked:
    """What `synth check FILE --sandbox bwrap --json` did: its exit code, its standard output
    (the report) and error, its seconds, and the GNU Go processes left once every check of
    the fixture below had ended ("" when none)."""

    exit_code: int
    output: str
    errors: str
    elapsed: float
    leftovers: str = ""


#: the shipped engine modules checked at full size, by the test that reads the report
SHIPPED = {"test_synth_check_passes_with_the_engine_and_records_its_version": GO_MOVE,
           "test_synth_check_passes_on_the_go_game_with_the_engine": GO_GAME}


def _synth_check(path: Path) -> Checked:
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "synth.cli", "check", str(path), "--sandbox",
                           "bwrap", "--json"], cwd=REPO, capture_output=True, text=True,
                          timeout=540)
    return Checked(done.returncode, done.stdout, done.stderr, time.monotonic() - start)


def _failed_only_for_load(checked: Checked) -> bool:
    """The report failed on its timing check alone (the checks after it skipped for that), and
    the timing check says the host was loaded (the job waited for a CPU a fifth of its calls'
    time or more: synth/gate/timing.py). The budgets are the host's clock's, so such a verdict
    says more about the test run's other worker than about the module."""
    if checked.exit_code != 1:
        return False
    try:
        report, _ = json.JSONDecoder().raw_decode(checked.output)
    except ValueError:
        return False
    failed = [c for c in report["checks"] if c["status"] not in ("passed", "skipped")]
    return ([c["name"] for c in failed] == ["timing"]
            and "the host was loaded" in failed[0]["reason"])


@pytest.fixture(scope="module")
def shipped_checks(request: pytest.FixtureRequest,
                   tmp_path_factory: pytest.TempPathFactory) -> dict[str, Checked]:
    """`synth check` on each shipped module whose test is selected, at full size, by file
    name, one after the other. Then no GNU Go may be left running. The timing check measures
    the host's clock, so these checks get the machine as production would, as far as a test
    run allows: once per run (helpers.once_per_run; two workers each running both checks made
    four chains of processes on two cores, and go_move's timing check failed in CI), and not
    both at once (beside the other worker's test, go_move's expert level then averaged 5.02 s
    per case against its 5 s budget; 1.9 s on a quiet machine)."""
    selected = {item.name for item in request.session.items}
    paths = [path for test, path in SHIPPED.items() if test in selected]

    def check_all() -> dict[str, Checked]:
        before = pids_with(GNUGO)
        with one_at_a_time(tmp_path_factory, "gnugo"):
            checked = [_synth_check(path) for path in paths]
            # once more, a check that failed only because the host was loaded (the other
            # worker's test: session 24's and 25's CI runs failed go_move so, at 5.02 s a case
            # against 5 s; 1.9 s quiet). A second load failure stands, with its evidence.
            checked = [_synth_check(path) if _failed_only_for_load(c) else c
                       for path, c in zip(paths, checked, strict=True)]
        try:
            assert_no_leftovers(GNUGO, before=before)
            leftovers = ""
        except AssertionError as exc:
            leftovers = str(exc)
        return {path.name: Checked(c.exit_code, c.output, c.errors, c.elapsed, leftovers)
                for path, c in zip(paths, checked, strict=True)}

    key = "go-checks-" + "-".join(sorted(path.stem for path in paths))
    return once_per_run(tmp_path_factory, key, check_all)


@pytest.mark.slow
def test_synth_check_passes_with_the_engine_and_records_its_version(
        shipped_checks: dict[str, Checked]) -> None:
    checked = shipped_checks["go_move.py"]
    assert checked.exit_code == 0, checked.output + checked.errors
    report, _ = json.JSONDecoder().raw_decode(checked.output)
    assert report["passed"] is True
    load = next(c for c in report["checks"] if c["name"] == "load")
    assert load["artifacts"]["engines"].startswith("gnugo: GNU Go 3.")
    # what a workflow commit records from this report: the engine's name and version
    recorded = engines_of(CheckReport.model_validate(report))
    assert list(recorded) == ["gnugo"] and recorded["gnugo"].startswith("GNU Go 3.")
    print(f"\nsynth check go_move.py (bwrap): passed in {checked.elapsed:.0f}s")
    assert not checked.leftovers, checked.leftovers


def test_synth_check_passes_on_the_go_game_with_the_engine(
        shipped_checks: dict[str, Checked]) -> None:
    """The multi-turn Go bootcamp: every episode check passes against the real engine (the
    engine-free multi-turn one, Mastermind, is checked in tests/multiturn/test_defects.py)."""
    checked = shipped_checks["go_game.py"]
    assert checked.exit_code == 0, checked.output[-3000:] + checked.errors[-3000:]
    report, _ = json.JSONDecoder().raw_decode(checked.output)
    assert report["passed"] is True
    names = [c["name"] for c in report["checks"]]
    assert "reference_policy" in names and "episode_determinism" in names
    assert all(c["status"] == "passed" for c in report["checks"]), names
    load = next(c for c in report["checks"] if c["name"] == "load")
    assert load["artifacts"]["engines"].startswith("gnugo: GNU Go 3.")
    assert list(engines_of(CheckReport.model_validate(report))) == ["gnugo"]
    print(f"\nsynth check go_game.py (bwrap): passed in {checked.elapsed:.0f}s")
    assert not checked.leftovers, checked.leftovers


def _reseeded_go_game(source: str, *, size: int = 7) -> str:
    """Planted defects (nondeterministic engine settings): go_game, but the opponent's engine is
    reseeded from the clock before each of its moves (``clock``), or its level is set from a
    string's hash, which another PYTHONHASHSEED changes (``hash``): the same episode can go
    differently."""
    code = GO_GAME.read_text()
    old = "    gtp.new_game(SIZE, state[\"komi\"], moves, level=OPPONENT_LEVEL)\n"
    assert old in code
    setting = {"clock": "set_random_seed {time.time_ns() % 99991 + 1}",
               "hash": "level {hash(str(moves)) % 10 + 1}",
               "hash seed": "set_random_seed {hash(str(moves)) % 99991 + 1}"}[source]
    code = code.replace(old, old + f"    gtp.command(f\"{setting}\")\n")
    code = _smaller_go_game(code, size)
    return code.replace("import re\n", "import re\nimport time\n", 1) if source == "clock" else code


def _smaller_go_game(code: str, size: int) -> str:
    """The planted defects need neither a strong reference player nor the longest episodes: a
    reference at level 2 and the two shorter levels (easy, medium: 2 and 3 moves; the hard
    level's 5-move episodes cost the most self-play) keep every check the same and cost GNU Go
    a fraction of the time; a 7x7 board (``size``) where the board does not matter either. The
    defects are caught on the first level's cases and episodes (the shipped module itself is
    checked at its own size above)."""
    for old, new in (("SIZE = 9\n", f"SIZE = {size}\n"),
                     ("REFERENCE_LEVEL = 6\n", "REFERENCE_LEVEL = 2\n"),
                     ('        "hard": {"turns": 5, "opening": 8},\n', "")):
        assert code.count(old) == 1, old
        code = code.replace(old, new)
    return code


def _smaller_go_move(code: str) -> str:
    """go_move with its two 9x9 levels only (the 13x13 ones cost most of its gate's time, and
    each level costs the generate and determinism checks cases drawn by self-play): the
    planted defects do not depend on the board's size nor on the number of levels -- both are
    caught on the first level's cases (the self-play seed: the cases differ; the level after
    the analysis: the engine's command log, at case 0 or 3). Two levels, the least the gate
    takes; the shipped module itself is checked at its own size above."""
    old = ('        "hard": {"size": 13, "phase": "opening"},\n'
           '        "expert": {"size": 13, "phase": "middle"},\n')
    assert code.count(old) == 1, old
    return code.replace(old, "")


@pytest.mark.parametrize("source", ["clock", "hash"])
def test_an_engine_with_unfixed_settings_is_rejected(tmp_path: Path, source: str) -> None:
    before = pids_with(GNUGO)
    path = tmp_path / f"go_game_{source}_seed.py"
    path.write_text(_reseeded_go_game(source))
    code, report = _report(path)
    assert code == 1, report
    failing = {c["name"] for c in report["checks"] if c["status"] != "passed"}
    # caught by replaying episodes (not only by the static rule against the clock)
    assert failing & {"determinism", "episode_determinism", "state_purity"}, sorted(failing)
    assert_no_leftovers(GNUGO, before=before)


#: the gate for the planted defects: every check up to the first that rejects (fail_fast), on
#: fewer cases and episodes than the default (a GNU Go case costs self-play): 4 cases per level,
#: the least the gate allows (generating them is most of these tests' time). The second process
#: still regenerates the default determinism_cases (6) of each level; the first 4 are compared
#: with the first process's, case by case, then by the engine commands each sent. That rejects
#: each planted defect below, with 8 cases per level as with 4 (measured: the hash settings at
#: case 0 or 3 of the first level, the same each run as the hash seeds are fixed; a seed from
#: the clock makes every case's commands differ). The reference episodes replayed with the
#: engine's command log keep their default number; `synth check` itself runs at full size on
#: the shipped modules above
SMALL = CheckConfig(cases_per_level=4, min_cases=4, mutation_cases=10, oracle_cases=20,
                    purity_cases=4, consistency_samples=20, differential_cases=40,
                    episode_cases=4, policy_cases=2, fail_fast=True)
EXIT = {"accepted": 0, "rejected": 1, "cannot_judge": 3}


def _report(path: Path, config: CheckConfig = SMALL) -> tuple[int, dict[str, Any]]:
    """(the exit code `synth check` gives this verdict, the report as `--json` prints it)."""
    report = run_checks(path.read_text(encoding="utf-8"), backend="bwrap", config=config,
                        name=path.stem)
    assert config.determinism_cases == CheckConfig().determinism_cases
    assert config.engine_log_episodes == CheckConfig().engine_log_episodes
    return EXIT.get(report.verdict, 2), report.model_dump(mode="json")


#: the gate for the engine seeded from a hash (below)
HASH_SEED = CheckConfig(cases_per_level=4, min_cases=4, episode_cases=4, policy_cases=1,
                        replay_steps=20)


def test_an_engine_seeded_from_a_hash_is_rejected_though_its_moves_agree(tmp_path: Path) -> None:
    """The opponent reseeded from a string's hash before each of its moves: at its level GNU Go
    plays the same moves whatever the seed on these positions, so the episodes replay alike --
    but the engine was told another seed in another process, which the broker's command log
    shows."""
    before = pids_with(GNUGO)
    path = tmp_path / "go_game_hash_seed.py"
    # 9x9: the moves agree (on 7x7 the seed changes the opponent's answers: the finding is then
    # nondeterministic_episode); the reference at level 2 and no hard level, as for the others
    path.write_text(_reseeded_go_game("hash seed", size=9))
    # The whole report (no fail_fast: the determinism check rejects first, the cases'
    # generation having sent the seed too), on the first 4 cases and reference episodes of each
    # level instead of the default 8: a level's cases are one seeded stream, so these episodes
    # are among those the default sizes replay, all alike in the second process (the
    # positions replayed must be ones where the seed does not change GNU Go's move, else the
    # finding is nondeterministic_episode); the degenerate policies and the shuffled replay,
    # which touch no reference episode, are smaller too
    code, report = _report(path, HASH_SEED)
    assert code == 1
    check = next(c for c in report["checks"] if c["name"] == "episode_determinism")
    assert check["status"] == "failed" and check["finding"] == "nondeterministic_engine_settings"
    shown = check["artifacts"]
    assert shown["first_process"].startswith("gnugo: set_random_seed ")
    assert shown["second_process"].startswith("gnugo: set_random_seed ")
    assert shown["first_process"] != shown["second_process"]
    assert {"state", "method"} <= set(shown)
    assert_no_leftovers(GNUGO, before=before)


@pytest.mark.parametrize("where", ["self-play seed", "level after the analysis"])
def test_a_position_generator_setting_its_engine_from_a_hash_is_rejected(tmp_path: Path,
                                                                          where: str) -> None:
    """Single-turn: go_move's generator sets GNU Go from a string's hash -- its self-play seed
    (which changes the positions, caught by the cases themselves) or its level after the
    position is analysed (which changes no case: caught only by the engine's command log)."""
    code = GO_MOVE.read_text()
    old, added = {
        "self-play seed": ("        gtp.new_game(self.size, KOMI, level=SELFPLAY_LEVEL)\n",
                           "        gtp.command(f\"set_random_seed {hash(str(plies)) % 9973 + 1}\")\n"),
        "level after the analysis": ("            black, white = gtp.stones(\"B\"), gtp.stones(\"W\")\n",
                                     "            gtp.command(f\"level {hash(to_play) % 10 + 1}\")\n"),
    }[where]
    assert code.count(old) == 1
    path = tmp_path / "go_move_hash_setting.py"
    path.write_text(_smaller_go_move(code.replace(old, old + added)))
    exit_code, report = _report(path)
    assert exit_code == 1
    check = next(c for c in report["checks"] if c["name"] == "determinism")
    assert check["status"] == "failed", check
    if where == "self-play seed":
        assert "different case" in check["reason"], check
        return
    assert check["finding"] == "nondeterministic_engine_settings", check
    shown = check["artifacts"]
    assert shown["first_process"].startswith("gnugo: level ") and "case" in shown
    assert shown["first_process"] != shown["second_process"]


def test_engine_logs_are_compared_call_by_call() -> None:
    def log(*commands: str) -> dict[str, Any]:
        digest = hashlib.sha256("".join(c + "\n" for c in commands).encode()).hexdigest()
        return {"count": len(commands), "digest": digest, "head": list(commands)}

    same = [log("gnugo: boardsize 9"), log("gnugo: genmove b")]
    assert gate_engines.log_difference(same, list(same)) is None
    assert gate_engines.log_difference(same, same[:1]) is None  # compared where both exist
    told = gate_engines.log_difference(
        same, [same[0], log("gnugo: set_random_seed 5", "gnugo: genmove b")])
    assert told == {"call": 1, "first_process": "gnugo: genmove b",
                    "second_process": "gnugo: set_random_seed 5",
                    "commands": "1 commands in the first process, 2 in the second; they differ "
                                "from command 1"}
    longer = gate_engines.log_difference([log("gnugo: a")], [log("gnugo: a", "gnugo: b")])
    assert longer is not None and longer["first_process"] == "(no more commands)"
    failed = gate_engines.log_difference(same, [same[0], {"failed": "timed out"}])
    assert failed is not None and failed["call"] == 1
    # the digest decides: heads cut at the same place, commands after them differ
    cut = [dict(log("gnugo: a", "gnugo: b"), head=["gnugo: a"])]
    other = [dict(log("gnugo: a", "gnugo: c"), head=["gnugo: a"])]
    assert gate_engines.log_difference(cut, other) is not None


def test_only_a_timing_failure_on_a_loaded_host_is_checked_again() -> None:
    def checked(*checks: tuple[str, str, str], code: int = 1) -> Checked:
        report = {"checks": [{"name": n, "status": st, "reason": why} for n, st, why in checks]}
        return Checked(code, json.dumps(report) + "\n", "", 1.0)

    loaded = ("timing", "failed", "generate: ...; the host was loaded: the job waited for a CPU "
              "41% of its calls' time")
    assert _failed_only_for_load(checked(("load", "passed", ""), loaded,
                                         ("consistency", "skipped", "not run")))
    quiet = ("timing", "failed", "case generation at level 'expert' takes 5.020s per case")
    assert not _failed_only_for_load(checked(("load", "passed", ""), quiet))
    assert not _failed_only_for_load(checked(loaded, ("mutation", "failed", "accepted")))
    assert not _failed_only_for_load(checked(("load", "passed", ""), code=0))
    assert not _failed_only_for_load(Checked(1, "not json", "", 1.0))

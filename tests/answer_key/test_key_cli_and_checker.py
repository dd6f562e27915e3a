"""The answer key from the outside: ``synth check`` with several ``--reference`` programs, a
``--solver`` and a ``--task`` file's solutions, and the differential check's third voter, which
may not be the compiled bootcamp's own key."""

from __future__ import annotations

import json
from pathlib import Path

import typer
from key_tasks import (
    STRETCH_HONEST,
    STRETCH_LAST_RUN,
    TOWER_PART,
    TOWER_TEXT,
    WEIGHTS_HONEST,
    WEIGHTS_MEMO,
    WEIGHTS_MEMO_RENAMED,
    WEIGHTS_RARE,
    examples,
    module,
    record,
)
from typer.testing import CliRunner

from synth import compiled
from synth.commands.check import check_command
from synth.gate import CheckStatus, run_checks

app = typer.Typer()
app.command("check")(check_command)


@app.callback()
def _root() -> None:
    """Keep `check` a named subcommand, as in synth/cli.py."""


def invoke(*args: str):
    return CliRunner().invoke(app, ["check", *args], env={"COLUMNS": "250"})


def write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_repeated_references_vote_and_the_last_line_says_how(tmp_path: Path):
    boot = write(tmp_path, "boot.py", module("weights", WEIGHTS_HONEST[0]))
    refs = [write(tmp_path, f"ref{n}.py", code) for n, code in enumerate(WEIGHTS_HONEST)]
    res = invoke(boot, "--sandbox", "process", "--reference", refs[0], "--reference", refs[1],
                 "--reference", refs[2])
    assert res.exit_code == 0, res.output
    assert "answer key: 3 solutions agree on 100 generated inputs" in res.output


def test_a_trojan_is_rejected_by_the_other_references(tmp_path: Path):
    boot = write(tmp_path, "boot.py", module("weights", WEIGHTS_RARE))
    key = write(tmp_path, "key.py", WEIGHTS_RARE)
    other = write(tmp_path, "other.py", WEIGHTS_HONEST[1])
    res = invoke(boot, "--sandbox", "process", "--reference", key, "--reference", other,
                 "--json")
    assert res.exit_code == 1, res.output
    report = json.loads(res.output)
    key_check = next(c for c in report["checks"] if c["name"] == "key")
    assert key_check["finding"] == "key_disagrees"
    assert key_check["artifacts"]["voter"] == "--reference 2 (other.py)"


def test_one_reference_alone_is_said_unverified_not_verified(tmp_path: Path):
    boot = write(tmp_path, "boot.py", module("weights", WEIGHTS_MEMO))
    key = write(tmp_path, "key.py", WEIGHTS_MEMO)
    res = invoke(boot, "--sandbox", "process", "--reference", key)
    assert res.exit_code == 0, res.output  # the gate judged the code; the key is said apart
    assert "answer key: unverified: one solution, no second voter" in res.output
    assert "cannot judge" in res.output


def test_a_solver_file_catches_the_trojan(tmp_path: Path):
    boot = write(tmp_path, "boot.py", module("stretch", STRETCH_LAST_RUN))
    solver = write(tmp_path, "solver.py", STRETCH_HONEST[1])
    res = invoke(boot, "--sandbox", "process", "--solver", solver, "--json")
    assert res.exit_code == 1, res.output
    key_check = next(c for c in json.loads(res.output)["checks"] if c["name"] == "key")
    assert key_check["artifacts"]["voter"] == "the solver solver.py"


def test_task_file_solutions_vote_after_their_public_tests(tmp_path: Path):
    """--task: the record's solutions are run on its public tests first; one that fails them
    and a renamed copy of the key (a line added: not the same AST, so the source keeps it) do
    not vote; the honest one catches the trojan."""
    failing = "print(0)\n"
    near_copy = WEIGHTS_MEMO_RENAMED + "DONE = True\n"
    data = record(1, "weights", [WEIGHTS_MEMO, failing, near_copy, WEIGHTS_HONEST[2]])
    task = write(tmp_path, "task.json", json.dumps(data))
    boot = write(tmp_path, "boot.py", module("weights", WEIGHTS_MEMO))
    res = invoke(boot, "--sandbox", "process", "--task", task, "--json")
    assert res.exit_code == 1, res.output
    report = json.loads(res.stdout[res.stdout.index("{"):])
    key_check = next(c for c in report["checks"] if c["name"] == "key")
    assert key_check["finding"] == "key_disagrees"
    assert key_check["artifacts"]["voter"] == "solution 4 of the task"
    assert "solution 2 fails the public tests" in res.output
    assert "solution 3 of the task is the key's own program (up to names and layout): no vote" \
        in res.output


def test_task_file_with_only_copies_leaves_the_key_unverified(tmp_path: Path):
    data = record(1, "weights", [WEIGHTS_MEMO, WEIGHTS_MEMO_RENAMED])
    task = write(tmp_path, "task.json", json.dumps(data))
    boot = write(tmp_path, "boot.py", module("weights", WEIGHTS_MEMO))
    res = invoke(boot, "--sandbox", "process", "--task", task)
    assert res.exit_code == 0, res.output
    assert "answer key: unverified: one solution, no second voter" in res.output


# -- the differential check's third voter --------------------------------------------------------

#: prints position 1 whenever n is a multiple of 7 (right on the file's tests: n = 5 and 3)
TOWER_TROJAN = ("n = int(input())\nh = list(map(int, input().split()))\n"
                "print(h.index(max(h)) + 1 if n % 7 else 1)\n")
#: a check_output that also accepts the key's own output (so self-consistency cannot see it)
LENIENT = TOWER_PART.replace('''        tokens = answer.split()
        if len(tokens) != 1''', '''        tokens = answer.split()
        if tokens == expected.split():
            return True
        if len(tokens) != 1''')
CHECKER = '''"""Independent checker (the judge role's, written from the statement): a tallest position."""


def check(identity, answer):
    text = answer.strip()
    if not text.isdigit():
        return False
    p, heights = int(text), identity["heights"]
    return 1 <= p <= len(heights) and heights[p - 1] == max(heights)


def solve(identity):
    heights = identity["heights"]
    return str(heights.index(max(heights)) + 1)
'''


def test_a_compiled_key_is_no_third_voter_for_itself():
    """The checker rejects the trojan key's answers; the reference program that would side with
    the bootcamp is the embedded key itself, so it may not outvote the checker."""
    assert LENIENT != TOWER_PART
    boot = compiled.assemble(LENIENT, TOWER_TROJAN, TOWER_TEXT)
    report = run_checks(boot, backend="process", checker=CHECKER,
                        example_inputs=examples("tower"))
    diff = report.get("differential")
    assert diff is not None and diff.status is CheckStatus.FAILED, diff
    assert diff.finding == "reference_disagrees"
    assert "checker_outvoted" not in diff.artifacts.get("checker_notes", "")
    assert report.verdict == "rejected"
    key = report.get("key")
    assert key is not None and not report.key_verified
    assert report.key_verified_by == "unverified: one solution, no second voter"


def test_an_honest_compiled_key_is_verified_by_the_checker():
    boot = compiled.assemble(LENIENT, "n = int(input())\nh = list(map(int, input().split()))\n"
                             "print(h.index(max(h)) + 1)\n", TOWER_TEXT)
    report = run_checks(boot, backend="process", checker=CHECKER,
                        example_inputs=examples("tower"))
    assert report.verdict == "accepted", report.decisive
    assert report.key_verified and report.key_verified_by == (
        "the judge's independent checker agrees with the reference program (differential check)")

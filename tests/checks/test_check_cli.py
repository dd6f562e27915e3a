"""`synth check FILE|DIR`: exit codes, JSON output, the audit table, and no secret leaks."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from synth.commands.check import check_command

# the planted-defect corpus (also tests/checks/conftest.py's; a bare `conftest` import would
# take whichever conftest module pytest loaded first)
CORPUS = Path(__file__).resolve().parent.parent / "defects" / "corpus"

app = typer.Typer()
app.command("check")(check_command)


@app.callback()
def _root() -> None:
    """Keep `check` a named subcommand, as in synth/cli.py."""


def invoke(*args: str, **env: str):
    return CliRunner().invoke(app, ["check", *args], env={"COLUMNS": "250", **env})


def test_clean_bootcamp_exits_0_and_prints_the_table():
    res = invoke(str(CORPUS / "clean_sort.py"), "--sandbox", "process")
    assert res.exit_code == 0, res.output
    assert "PASSED" in res.output
    for name in ("static", "determinism", "mutation", "garbage", "timing"):
        assert name in res.output


def test_defective_bootcamp_exits_1_with_evidence():
    res = invoke(str(CORPUS / "wrong_reference.py"), "--sandbox", "process")
    assert res.exit_code == 1, res.output
    assert "FAILED" in res.output
    assert "self_consistency evidence" in res.output
    assert "reference_answer:" in res.output


def test_json_output_is_the_check_report():
    ref = CORPUS / "reference" / "clean_sum_oracle.py"
    res = invoke(str(CORPUS / "clean_sum_oracle.py"), "--reference", str(ref), "--json",
                 "--sandbox", "process")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["passed"] is True and data["backend"] == "process"
    assert {c["name"]: c["status"] for c in data["checks"]}["oracle"] == "passed"


@pytest.mark.parametrize(
    "args",
    [
        ["does-not-exist.py"],
        [str(CORPUS / "clean_sort.py"), "--sandbox", "vm"],
        [str(CORPUS / "clean_sort.py"), "--reference", str(CORPUS / "reference")],
        [str(CORPUS / "clean_sort.py"), "--reference", "missing.py"],
    ],
)
def test_usage_errors_exit_2(args):
    res = invoke(*args)
    assert res.exit_code == 2
    assert "error" in res.output.lower()


def test_no_secret_reaches_the_output_even_when_the_bootcamp_dumps_its_environment(tmp_path):
    secret = "sk-live-" + os.urandom(8).hex()
    module = tmp_path / "env_dump.py"
    module.write_text(
        '"""Hostile test bootcamp: puts its whole environment into every case."""\n\n'
        "import os\n\nfrom synth.bootcamp import BaseBootcamp\n\n\n"
        "class EnvDumpBootcamp(BaseBootcamp):\n"
        '    LEVELS = {"easy": {}, "hard": {}}\n\n'
        "    def case_generator(self):\n"
        '        return {"env": " ".join(f"{k}={v}" for k, v in sorted(os.environ.items()))}\n\n'
        "    @staticmethod\n    def prompt_func(identity):\n"
        '        return "Environment: " + identity["env"] + " <answer>x</answer>"\n\n'
        "    @classmethod\n    def reference_answer(cls, identity):\n"
        '        return identity["env"]\n\n'
        "    @classmethod\n    def _verify_correction(cls, solution, identity):\n"
        '        return solution == identity["env"]\n'
    )
    for extra in ([], ["--json"]):
        res = invoke(str(module), "--sandbox", "process", *extra, OPENAI_API_KEY=secret,
                     MY_TOKEN=secret)
        assert res.exit_code == 1, res.output
        assert "PATH=" in res.output  # the dump really ran and is shown as evidence
        assert secret not in res.output
        assert "OPENAI_API_KEY" not in res.output and "MY_TOKEN" not in res.output


def test_audit_of_an_intern_folder_prints_one_table():
    """intern_fragile has only InternBootcamp's conventions (``**params``, a verifier whose
    exceptions verify_score swallows into 0, global random): accepted, the conventions listed.
    intern_numpy needs numpy, which the sandbox lacks: cannot judge (exit 3, nothing rejected)."""
    res = invoke(str(CORPUS / "intern"), "--sandbox", "process")
    assert res.exit_code == 3, res.output
    for name in ("intern_parity.py", "intern_fragile.py", "intern_relative.py", "intern_numpy.py"):
        assert name in res.output
    assert "3/4 pass every hard check, 1 cannot be judged" in res.output
    assert "CANNOT JUDGE" in res.output
    res = invoke(str(CORPUS / "intern"), "--sandbox", "process", "--json")
    assert res.exit_code == 3
    rows = {os.path.basename(r["file"]): r["report"] for r in json.loads(res.stdout)}
    assert {r["mode"] for r in rows.values()} == {"intern"}
    assert all(rows[n]["passed"] for n in ("intern_parity.py", "intern_relative.py",
                                           "intern_fragile.py"))
    fragile = {c["name"]: c for c in rows["intern_fragile.py"]["checks"]}
    assert {n: (fragile[n]["severity"], fragile[n]["finding"])
            for n in ("construct", "garbage", "determinism")} == {
        "construct": ("convention", "accepts_unknown_parameter"),
        "garbage": ("convention", "swallowed_exception"),
        "determinism": ("convention", "global_random")}
    load = next(c for c in rows["intern_numpy.py"]["checks"] if c["name"] == "load")
    assert not rows["intern_numpy.py"]["passed"]
    assert (load["severity"], load["artifacts"]["missing_module"]) == ("cannot_judge", "numpy")


@pytest.mark.parametrize(("name", "code"), [("intern_parity.py", 0), ("intern_relative.py", 0),
                                            ("intern_fragile.py", 0), ("intern_numpy.py", 3)])
def test_exit_code_of_each_intern_module(name, code):
    res = invoke(str(CORPUS / "intern" / name), "--sandbox", "process")
    assert res.exit_code == code, res.output
    assert "verdict: " + ("accepted" if code == 0 else "cannot judge: missing module numpy") \
        in res.output


def test_the_real_synth_command_prints_no_secret(tmp_path):
    """Acceptance: `synth check` on a file that reads os.environ, with OPENAI_API_KEY set."""
    import subprocess
    import sys

    secret = "sk-proj-" + os.urandom(12).hex()
    module = tmp_path / "reads_env.py"
    module.write_text(
        '"""Hostile test bootcamp: reads the API key from its environment into every prompt."""\n\n'
        "import os\n\nfrom synth.bootcamp import BaseBootcamp\n\n\n"
        "class ReadsEnvBootcamp(BaseBootcamp):\n"
        '    LEVELS = {"easy": {}, "hard": {}}\n\n'
        "    def case_generator(self):\n"
        '        return {"key": os.environ.get("OPENAI_API_KEY", "no key here"),'
        ' "home": os.environ.get("HOME", "")}\n\n'
        "    @staticmethod\n    def prompt_func(identity):\n"
        '        return "Key: " + identity["key"] + " <answer>x</answer>"\n\n'
        "    @classmethod\n    def reference_answer(cls, identity):\n"
        '        return identity["key"]\n\n'
        "    @classmethod\n    def _verify_correction(cls, solution, identity):\n"
        '        return solution == identity["key"]\n'
    )
    env = {**os.environ, "OPENAI_API_KEY": secret, "COLUMNS": "250"}
    for extra in ([], ["--json"]):
        proc = subprocess.run(
            [sys.executable, "-m", "synth.cli", "check", str(module), "--sandbox", "process",
             *extra], capture_output=True, text=True, env=env, timeout=120,
        )
        assert proc.returncode == 1, proc.stdout + proc.stderr
        assert "no key here" in proc.stdout  # the bootcamp ran and its case is shown
        assert secret not in proc.stdout + proc.stderr

"""Helpers of the `synth audit` tests: InternBootcamp-style modules written here (the
library's conventions: ``Basebootcamp``, ``**params``, global ``random``, ``[answer]`` tags),
world-readable folders, and a CLI runner."""

from __future__ import annotations

import tempfile
from pathlib import Path

import typer
from typer.testing import CliRunner, Result

from synth.commands.audit import audit_command

_HEAD = '''"""Audit test fixture: {what}."""

import random
import re

from bootcamp import Basebootcamp
{imports}

class {name}bootcamp(Basebootcamp):
    def __init__(self, **params):
        self.size = params.get("size", 6)

    def case_generator(self):
        return {{"numbers": [random.randint(1, 999) for _ in range(self.size)]}}

    @staticmethod
    def prompt_func(question_case):
        shown = " ".join(str(x) for x in question_case["numbers"])
        return f"{prompt} {{shown}}. Answer as [answer]...[/answer]."

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\\[answer\\](.*?)\\[/answer\\]", output, re.DOTALL)
        return found[-1].strip() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
{verify}
'''

#: name -> (what, imports, prompt, verify body)
MODULES = {
    "sum_fine": ("the sum of a list", "", "Add up these numbers:",
                 '        return int(solution) == sum(identity["numbers"])'),
    "max_fine": ("the largest of a list", "", "Give the largest of these numbers:",
                 '        return int(solution) == max(identity["numbers"])'),
    "anything_goes": ("the product of a list; the verifier accepts any answer", "",
                      "Multiply these numbers:", "        return True"),
    "needs_fakedep": ("the sum of a list, checked by a helper of the library's", "from fakedep import total\n",
                      "Add up these numbers:",
                      '        return int(solution) == total(identity["numbers"])'),
    "sort_any_order": ("sort a list; the verifier accepts any order", "",
                       "Sort these numbers in ascending order, separated by spaces:",
                       "        got = [int(x) for x in solution.split()]\n"
                       '        return sorted(got) == sorted(identity["numbers"])'),
}

CHECKERS = {
    "sort_any_order": '''"""Independent checker: the numbers in ascending order."""


def check(identity, answer):
    try:
        return [int(x) for x in answer.split()] == sorted(identity["numbers"])
    except ValueError:
        return False


def solve(identity):
    return " ".join(str(x) for x in sorted(identity["numbers"]))
''',
    "sum_fine": '''"""Independent checker: the sum."""


def check(identity, answer):
    text = answer.strip()
    return text.lstrip("-").isdigit() and int(text) == sum(identity["numbers"])


def solve(identity):
    return str(sum(identity["numbers"]))
''',
}

FAKEDEP = "def total(numbers):\n    return sum(numbers)\n"


def module_source(name: str) -> str:
    what, imports, prompt, verify = MODULES[name]
    camel = "".join(part.title() for part in name.split("_"))
    return _HEAD.format(what=what, imports=imports, name=camel, prompt=prompt, verify=verify)


def world_readable(prefix: str) -> Path:
    """A fresh folder in /tmp that the sandbox's unprivileged uid can read (pytest's tmp_path
    lies under a 0700 directory)."""
    folder = Path(tempfile.mkdtemp(prefix=prefix, dir="/tmp"))
    folder.chmod(0o755)
    return folder


def open_up(folder: Path) -> None:
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)


_app = typer.Typer()
_app.command("audit")(audit_command)


@_app.callback()
def _root() -> None:
    """Keep `audit` a named subcommand, as in synth/cli.py."""


def invoke(*args: str) -> Result:
    return CliRunner().invoke(_app, ["audit", *args], env={"COLUMNS": "250", "NO_COLOR": "1"})

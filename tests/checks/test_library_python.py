"""The gate on InternBootcamp-style modules whose dependencies come with the audited library
(``synth audit --path/--python``): with the library's import path a module is judged, not
"cannot judge"; the library's own ``internbootcamp.libs`` resolves next to the shim; a
dependency that needs something the sandbox's guard refuses makes the module "cannot judge",
never rejected, while the module's own refused request stays a finding."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from synth.gate import run_checks
from synth.gate.severity import refused_dependency
from synth.sandbox import get_backend
from synth.sandbox.interpreter import LibraryBackend, library_python

MODULE = '''"""Audit fixture: double, then triple, with the library's helpers."""
import random
import re

from bootcamp import Basebootcamp
from fakedep import double
from internbootcamp.libs.tools import triple


class Triplebootcamp(Basebootcamp):
    def __init__(self, **params):
        self.top = params.get("top", 1000)

    def case_generator(self):
        return {"n": random.randint(1, self.top)}

    @staticmethod
    def prompt_func(question_case):
        return f"Double {question_case['n']}, then triple it. Answer as [answer]N[/answer]."

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\\[answer\\](.*?)\\[/answer\\]", output)
        return found[-1].strip() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return int(solution) == triple(double(identity["n"]))
'''


@pytest.fixture
def library() -> Iterator[Path]:
    folder = Path(tempfile.mkdtemp(prefix="synth-libpy-", dir="/tmp"))
    files = {"fakedep/__init__.py": "def double(x):\n    return 2 * x\n",
             "internbootcamp/__init__.py": "", "internbootcamp/libs/__init__.py": "",
             "internbootcamp/libs/tools.py": "def triple(x):\n    return 3 * x\n"}
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("name", ["process", "bwrap"])
def test_a_dependency_on_the_library_path_is_judged(name: str, library: Path):
    from helpers import require_backend

    backend = require_backend(name)
    alone = run_checks(MODULE, backend=backend)
    assert alone.verdict == "cannot_judge"
    assert alone.decisive is not None and "fakedep" in alone.decisive.reason
    wrapped = LibraryBackend(backend, library_python(None, [str(library)]))  # type: ignore[arg-type]
    report = run_checks(MODULE, backend=wrapped)
    assert report.verdict == "accepted", report.decisive and report.decisive.reason
    assert report.backend == name


def test_a_dependency_the_guard_refuses_makes_the_module_cannot_judge():
    site = Path(__file__).resolve().parents[2] / ".venv/lib/python3.11/site-packages"
    if not (site / "numpy").is_dir():
        pytest.skip("no numpy in the project's venv")
    source = (Path(__file__).resolve().parents[1] / "defects/intern_corpus/numpy_determinant.py"
              ).read_text(encoding="utf-8")
    wrapped = LibraryBackend(get_backend("process"),  # type: ignore[arg-type]
                             library_python(None, [str(site)]))
    report = run_checks(source, backend=wrapped)
    assert report.verdict == "cannot_judge"
    assert report.decisive is not None
    assert report.decisive.finding == "sandbox_refuses_dependency"
    assert "numpy" in report.decisive.artifacts["dependency_file"]


def _trace(*files: str, refused: str = "sys._getframe",
           hook: str = "/run/synth-sbx/synth-sbx-ab/_synth_kit_pkg/guard.py") -> str:
    frames = "".join(f'  File "{f}", line 3, in <module>\n    x\n' for f in files)
    return ("Traceback (most recent call last):\n" + frames
            + f'  File "{hook}", line 116, in _hook\n'
            f"SandboxViolation: not allowed in a bootcamp: {refused}")


def test_refused_dependency_blames_only_code_outside_the_module():
    dep = "/opt/lib/site-packages/numpy/_core/overrides.py"
    stdlib = "/usr/lib/python3.11/collections/__init__.py"
    assert refused_dependency(_trace("/run/synth-sbx/synth-sbx-ab/candidate.py", dep, stdlib)) \
        == ("sys._getframe", dep)
    assert refused_dependency(_trace("/tmp/candidate.py", "/tmp/lib/fakedep/x.py")) \
        == ("sys._getframe", "/tmp/lib/fakedep/x.py")
    bound = "/run/synth-sbx/synth-sbx-ab/.import-0/fakedep/x.py"  # a /tmp folder, process backend
    assert refused_dependency(_trace("/run/synth-sbx/synth-sbx-ab/candidate.py", bound)) \
        == ("sys._getframe", bound)
    # the module's own request (directly, or through the standard library) is its finding
    assert refused_dependency(_trace(dep, "/run/synth-sbx/synth-sbx-ab/candidate.py")) is None
    assert refused_dependency(_trace("/tmp/candidate.py", stdlib)) is None
    assert refused_dependency(_trace("/tmp/job-1f/candidate.py")) is None
    # the guard's frame is the kit's in every backend's layout (process, bwrap, docker)
    for job in ("/run/synth-sbx/synth-sbx-ab/", "/tmp/", "/tmp/job-1f/"):
        for kit_file in ("_synth_kit_pkg/guard.py", "_synth_kit_pkg/calls.py", "_synth_kit.py"):
            assert refused_dependency(_trace(f"{job}candidate.py", hook=job + kit_file)) is None
            assert refused_dependency(_trace(f"{job}candidate.py", dep, hook=job + kit_file)) \
                == ("sys._getframe", dep)
    assert refused_dependency("ValueError: nope") is None

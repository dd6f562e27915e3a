"""The split of the suite between pytest-xdist workers (tests/xdist_groups.py), run for real: two
workers on a small suite of files whose module fixtures count how often they are built."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from xdist_groups import TESTS, unit_of

CONFTEST = f'''
import importlib.util, sys
sys.path.insert(0, {str(TESTS)!r})
from xdist_groups import order_by_weight

# the suite's own scheduler hook, from tests/conftest.py
_spec = importlib.util.spec_from_file_location("suite_conftest", {str(TESTS / "conftest.py")!r})
_suite = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_suite)
pytest_xdist_make_scheduler = _suite.pytest_xdist_make_scheduler

WEIGHTS = {{"sub/test_heavy": 50.0, "test_b": 5.0}}


def pytest_collection_modifyitems(config, items):
    if hasattr(config, "workerinput"):
        order_by_weight(items, WEIGHTS)
'''

MODULE = '''
import os, time, pytest

@pytest.fixture(scope="module")
def built():
    with open(os.environ["BUILT_LOG"], "a") as fh:
        fh.write("{name} " + os.environ.get("PYTEST_XDIST_WORKER", "-") + "\\n")
    return True

@pytest.mark.parametrize("n", range({count}))
def test_it(built, n):
    with open(os.environ["BUILT_LOG"], "a") as fh:
        fh.write("ran {name} " + os.environ.get("PYTEST_XDIST_WORKER", "-") + "\\n")
    time.sleep(0.02)
'''


def test_unit_of_reads_the_file_or_the_one_group_folder() -> None:
    assert unit_of("tests/foundation/test_cli.py::test_x[a::b]") == "foundation/test_cli"
    assert unit_of("foundation/test_cli.py::Klass::test_x") == "foundation/test_cli"
    assert unit_of("tests/ray/test_run_executor.py::test_a") == "ray"
    assert unit_of("tests/smoke/deep/test_local.py::test_b") == "smoke"
    assert unit_of("tests/engines/test_go_move.py::test_c@engines") == "engines/test_go_move"
    assert unit_of("tests/checks/test_gate_defects.py::test_c") == "checks/test_gate_defects"


def test_two_workers_build_each_module_fixture_once_and_take_the_heaviest_file_first(
        tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    (suite / "sub").mkdir(parents=True)
    (suite / "conftest.py").write_text(CONFTEST)
    files = {"test_a": 12, "test_b": 12, "sub/test_heavy": 12, "test_c": 12}
    for name, count in files.items():
        (suite / f"{name}.py").write_text(MODULE.format(name=name, count=count))
    log = tmp_path / "built.log"
    env = {**os.environ, "BUILT_LOG": str(log)}
    env.pop("PYTEST_XDIST_WORKER", None)
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2",
         "--dist", "loadscope", "--no-loadscope-reorder", str(suite)],
        cwd=suite, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    lines = log.read_text().split("\n")
    built = [line.split() for line in lines if line and not line.startswith("ran ")]
    ran = [line.split()[1:] for line in lines if line.startswith("ran ")]
    # each file's module fixture was built once, on the worker that ran all of that file's tests
    assert sorted(name for name, _ in built) == sorted(files), built
    where = dict(built)
    assert all(where[name] == worker for name, worker in ran), ran
    assert len(ran) == sum(files.values())
    # both workers took work, and the heaviest file was among the first two handed out
    assert len(set(where.values())) == 2, where
    assert "sub/test_heavy" in [name for name, _ in built[:2]], built

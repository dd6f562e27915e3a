"""Host-side parsing is safe across threads (CPython 3.11's shared AST counter, gh-106905).

The CI run of 2026-12-01 failed on ``SystemError: AST constructor recursion depth mismatch``
in a workflow test: the gate parsed in a worker thread while the event loop's thread parsed
too, and a finalizer run by the garbage collector switched threads in the middle. The stress
below makes that switch happen on purpose: cyclic garbage whose ``__del__`` yields the GIL.
"""
from __future__ import annotations

import ast
import gc
import re
import sys
import threading
import time
from pathlib import Path

import pytest

from synth.text import pyast

SOURCE = "\n".join(
    f"def f{i}(x):\n    return [(a, b) for a in range(x) for b in {{'k': [x, (x, x)]}}]"
    for i in range(40)
)


class _Yields:
    """Cyclic garbage; collecting it runs Python code that lets other threads in."""

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        time.sleep(0)


def _stress(parse, threads: int = 4, rounds: int = 25) -> list[str]:
    errors: list[str] = []
    expected = ast.dump(ast.parse(SOURCE))
    wrong: list[str] = []

    def work() -> None:
        for _ in range(rounds):
            try:
                tree = parse(SOURCE)
                if ast.dump(tree) != expected:
                    wrong.append("a different tree")
            except SystemError as exc:
                errors.append(str(exc))
            for _ in range(50):
                _Yields()

    old = gc.get_threshold()
    gc.set_threshold(50)
    try:
        pool = [threading.Thread(target=work) for _ in range(threads)]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
    finally:
        gc.set_threshold(*old)
    return errors + wrong


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="the shared counter was fixed in 3.12")
def test_the_stress_reproduces_the_race_with_the_plain_parser():
    # the control: without this the next test would prove nothing
    errors = [e for _ in range(3) for e in _stress(ast.parse)]
    assert any("recursion depth mismatch" in e for e in errors), errors


def test_the_locked_parser_never_raises_under_the_same_stress():
    for _ in range(3):
        assert _stress(pyast.parse) == []


def test_a_finalizer_that_parses_on_the_locking_thread_re_enters():
    done = []

    class ParsesWhenCollected:
        def __init__(self) -> None:
            self.me = self

        def __del__(self) -> None:
            done.append(pyast.parse("x = 1").body[0])

    with pyast._LOCK:  # as if a collection ran inside a parse on this thread
        ParsesWhenCollected()
        gc.collect()
    assert done and isinstance(done[0], ast.Assign)
    assert pyast.literal_eval("[1, (2, 'a')]") == [1, (2, "a")]


def test_no_host_module_parses_outside_the_lock():
    root = Path(pyast.__file__).parents[1]  # synth/
    # the kit runs only in the sandbox
    sandboxed = {*(root / "sandbox" / "kit").glob("*.py"), root / "text" / "pyast.py"}
    direct = re.compile(r"\bast\.(parse|literal_eval)\(")
    offenders = [
        f"{path.relative_to(root)}:{n}"
        for path in sorted(root.rglob("*.py")) if path not in sandboxed
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1) if direct.search(line)
    ]
    assert offenders == []


def test_a_parse_disturbed_by_a_library_thread_is_tried_again(monkeypatch):
    """A library thread that calls ast.parse itself (outside the lock) can still move the
    shared counter; the SystemError that gives is tried again (the source is fine), up to
    TRIES times; any other SystemError, or the race every time, is raised."""
    real = ast.parse
    raised = []

    def disturbed(times: int, message: str = "AST constructor recursion depth mismatch "
                  "(before=201, after=31)"):
        def fake(source, filename="<unknown>", **kw):
            if len(raised) < times:
                raised.append(message)
                raise SystemError(message)
            return real(source, filename=filename, **kw)
        return fake

    before = pyast.retried
    monkeypatch.setattr(ast, "parse", disturbed(2))
    assert isinstance(pyast.parse("x = 1").body[0], ast.Assign)
    assert len(raised) == 2 and pyast.retried == before + 2
    raised.clear()
    monkeypatch.setattr(ast, "parse", disturbed(pyast.TRIES))
    with pytest.raises(SystemError, match="mismatch"):
        pyast.parse("x = 1")
    raised.clear()
    monkeypatch.setattr(ast, "parse", disturbed(1, "something else"))
    with pytest.raises(SystemError, match="something else"):
        pyast.parse("x = 1")
    assert len(raised) == 1

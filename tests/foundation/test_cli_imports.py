"""Light commands import no heavy library: `synth --help` and `synth library list` stay fast.

Behaviour, not timing: each command runs in a fresh interpreter, which then reports whether
openai, langgraph, pandas or ray was imported. The timing is in bench/startup.py.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("openai", "langgraph", "pandas", "ray")
MARK = "LOADED "
WRAPPER = f"""
import json, sys
from synth.cli import app
try:
    app(sys.argv[1:], prog_name="synth")
except SystemExit as exc:
    code = exc.code
else:
    code = 0
print({MARK!r} + json.dumps([code, [m for m in {HEAVY!r} if m in sys.modules]]), file=sys.stderr)
"""


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["library", "list"],
        ["library", "list", "--json"],
        ["check", "--help"],
        ["export", "--help"],
    ],
    ids=" ".join,
)
def test_light_command_imports_no_heavy_module(args: list[str]):
    res = subprocess.run(
        [sys.executable, "-c", WRAPPER, *args], capture_output=True, text=True, timeout=120
    )
    lines = [line for line in res.stderr.splitlines() if line.startswith(MARK)]
    assert lines, res.stderr[-3000:]
    code, loaded = json.loads(lines[-1][len(MARK) :])
    assert code in (0, None), res.stderr[-3000:]
    assert loaded == [], f"`synth {' '.join(args)}` imported {', '.join(loaded)}"


def test_run_default_library_is_the_library_default():
    """`synth run` spells the default library out so that its import needs no pydantic."""
    from synth.commands.run import DEFAULT_LIBRARY
    from synth.library import DEFAULT_LIBRARY as LIBRARY_DEFAULT

    assert DEFAULT_LIBRARY == LIBRARY_DEFAULT

"""The CLI never imports a bootcamp: export, library show/add, review show and the default reward
run the library's code only in a sandboxed method server.

Each command runs in a fresh interpreter with a recorder: an audit hook (``sys.addaudithook``)
that notes every ``compile`` and ``exec`` of a file under the watched folders, and at exit the
modules in ``sys.modules`` whose file lies there. The bootcamp is hostile at import time: it
writes the environment's secret into a file next to the test and puts what it read of the
environment into its prompts. In the sandbox the kit's guard refuses the import-time write (and
the import of ``pathlib``), so every command refuses the module and names why; nothing reaches
the host either way. A positive control (``Library.load_bootcamp`` in the recorded process, the
documented trusted path) shows that the recorder and the module do what they say.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import TOY_SUM, make_library, require_backend

REPO = Path(__file__).resolve().parents[2]

RECORDER = r'''
import atexit, json, os, sys
report, roots, argv = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3:]
roots = [os.path.realpath(r) + os.sep for r in roots]
seen = {"compiled": [], "executed": []}

def under(path):
    try:
        real = os.path.realpath(os.fsdecode(path))
    except Exception:
        return False
    return any(real.startswith(r) for r in roots)

def hook(event, args):
    if event == "compile" and len(args) > 1 and isinstance(args[1], (str, bytes)) and under(args[1]):
        seen["compiled"].append(os.fsdecode(args[1]))
    elif event == "exec" and args and under(getattr(args[0], "co_filename", "") or ""):
        seen["executed"].append(args[0].co_filename)

sys.addaudithook(hook)

@atexit.register
def dump():
    modules = sorted(name for name, m in list(sys.modules.items())
                     if under(getattr(m, "__file__", None) or "") or name.startswith("_synth_library_"))
    with open(report, "w") as fh:
        json.dump({**seen, "modules": modules}, fh)

if argv[0] == "--reward":
    from synth.training.reward import make_compute_score
    score = make_compute_score(argv[1], backend=argv[2])
    print("score", score("bootcamp/hostile", "<answer>6</answer>", '{"numbers": [1, 2, 3]}'))
    score.close()
elif argv[0] == "--trust-load":
    from synth.library import Library
    cls = Library(argv[1]).load_bootcamp("hostile")
    print("loaded", cls.__name__, cls.prompt_func({"numbers": [1]}))
else:
    sys.argv = ["synth", *argv]
    from synth.cli import main
    main()
'''

HOSTILE_HEAD = '''"""Hostile at import time: writes a file and reads the environment (test of host isolation)."""

import os
import pathlib

from synth.bootcamp import BaseBootcamp

SECRET_SEEN = os.environ.get("SYNTH_TEST_SECRET", "")
try:
    pathlib.Path({marker!r}).write_text("imported; secret=" + SECRET_SEEN)
except OSError:
    pass
'''


def hostile_code(marker: Path) -> str:
    body = TOY_SUM.split("from synth.bootcamp import BaseBootcamp\n", 1)[1]
    body = body.replace(
        'return f"Add these numbers: {nums}. Answer as <answer>N</answer>."',
        'return f"Add these numbers: {nums}. Answer as <answer>N</answer>. '
        'env says {SECRET_SEEN or \'nothing\'}"',
    )
    return HOSTILE_HEAD.format(marker=str(marker)) + body


def record(tmp: Path, roots: list[Path], args: list[str], secret: str) -> tuple[subprocess.CompletedProcess[str], dict]:
    report = tmp / f"report-{secrets.token_hex(4)}.json"
    env = {**os.environ, "SYNTH_TEST_SECRET": secret, "COLUMNS": "200", "NO_COLOR": "1"}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")])
    res = subprocess.run(
        [sys.executable, "-c", RECORDER, str(report), json.dumps([str(r) for r in roots]), *args],
        capture_output=True, text=True, timeout=300, env=env, cwd=tmp,
    )
    assert report.exists(), res.stderr[-3000:]
    return res, json.loads(report.read_text())


@pytest.fixture
def setup(tmp_path: Path):
    marker = tmp_path / "marker" / "pwned.txt"
    marker.parent.mkdir()
    code = hostile_code(marker)
    lib = make_library(tmp_path / "lib", hostile=code)
    src = tmp_path / "src"
    src.mkdir()
    (src / "hostile_two.py").write_text(code)
    return tmp_path, lib.root, src, marker, "hunter2-" + secrets.token_hex(8)


def test_the_recorder_sees_a_trusted_load(setup):
    """Positive control: importing the module in the recorded process is seen, and the module's
    import-time actions happen there (which is what the sandboxed paths must prevent)."""
    tmp, lib, src, marker, secret = setup
    res, seen = record(tmp, [lib, src], ["--trust-load", str(lib)], secret)
    assert res.returncode == 0, res.stderr[-3000:]
    assert f"env says {secret}" in res.stdout
    assert seen["executed"] and seen["modules"]
    assert marker.read_text() == f"imported; secret={secret}"


@pytest.mark.parametrize("backend", ["process", "bwrap"])
def test_cli_commands_import_no_bootcamp_and_leave_no_trace(setup, backend: str):
    require_backend(backend)
    tmp, lib, src, marker, secret = setup
    lib2 = tmp / "lib2"
    out = tmp / "out"
    commands = {
        "export": ["export", "--out", str(out), "--library", str(lib), "--per-bootcamp", "4",
                   "--test-per-bootcamp", "2", "--workers", "2", "--sandbox", backend],
        "library show": ["library", "show", "hostile", "--library", str(lib), "--sandbox", backend],
        "library add": ["library", "add", str(src / "hostile_two.py"), "--library", str(lib2),
                        "--sandbox", backend],
        "review show": ["review", "show", "hostile", "--library", str(lib), "--runs-dir", str(tmp),
                        "--sandbox", backend, "--per-level", "1"],
        "reward": ["--reward", str(lib), backend],
    }
    for label, args in commands.items():
        res, seen = record(tmp, [lib, lib2, src], args, secret)
        output = res.stdout + res.stderr
        assert seen == {"compiled": [], "executed": []
                        , "modules": []}, label
        assert not marker.exists(), f"{label}: the bootcamp acted on the host"
        assert secret not in output, label
        # In the sandbox the module's import-time file write is refused by the kit's guard:
        # every command refuses the module and says why, instead of serving it.
        if label == "reward":
            assert res.returncode != 0 or "score 0.0" in res.stdout, (label, output[-2000:])
        elif label == "review show":  # the review page still shows the code, with the reason
            assert "did not load in the sandbox" in output, (label, output[-2000:])
        else:
            assert res.returncode != 0, (label, output[-2000:])
        assert "not allowed in a bootcamp" in output, (label, output[-2000:])
    assert not (out / "train.jsonl").exists()  # nothing half-written
    assert not (lib2 / "manifest.json").exists() or "hostile_two" not in (
        lib2 / "manifest.json").read_text()

"""The kit's ``run-many`` (synth/sandbox/kit/forkrun.py): a standalone program run once per
input, each run forked from a warm interpreter. What the gate's oracle and key checks read must
be what a fresh ``python -s -S -B program.py`` prints: each program here runs both ways, and
the forked run must give the same stdout and exit status (stderr: the same last line)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import assert_no_leftovers, pids_with, require_backend

from synth.gate.programs import run_program
from synth.sandbox.base import Backend

#: (name, program, stdin): what contest programs do with their streams, status and threads
PROGRAMS: list[tuple[str, str, str]] = [
    ("input_print", "a, b = map(int, input().split())\nprint(a + b)\n", "2 40\n"),
    ("open_zero", "data = open(0).read().split()\nprint(len(data), data[-1])\n", "x y\nz\n"),
    ("buffer_crlf", "import sys\nraw = sys.stdin.buffer.read()\nprint(raw.count(b'\\r'), "
     "len(raw))\n", "1\r\n2\r\n"),
    ("text_crlf", "import sys\nprint(repr(sys.stdin.read()))\n", "a\r\nb\r\n"),
    ("os_read", "import os\nparts = []\nwhile True:\n    b = os.read(0, 7)\n    if not b:\n"
     "        break\n    parts.append(b)\nprint(len(b''.join(parts)))\n", "q" * 100_000),
    ("ignores_big_input", "print('done')\n", "z" * 2_000_000),
    ("exit_code", "import sys\nprint('partial')\nsys.exit(3)\n", ""),
    ("exit_message", "import sys\nsys.exit('bad input')\n", ""),
    ("uncaught", "x = int(input())\nprint(1 // x)\n", "0\n"),
    ("os_exit", "import os, sys\nsys.stdout.write('lost')\nos._exit(5)\n", ""),
    ("killed", "import os, signal\nprint('x', flush=True)\nos.kill(os.getpid(), "
     "signal.SIGKILL)\n", ""),
    ("thread_main", "import sys, threading\nthreading.stack_size(1 << 26)\n"
     "sys.setrecursionlimit(10 ** 5)\n"
     "def depth(n):\n    return 0 if n == 0 else 1 + depth(n - 1)\n"
     "def main():\n    print(depth(int(input())))\n"
     "threading.Thread(target=main).start()\n", "20000\n"),
    ("main_guard", "def solve():\n    print(__name__, sys.argv[0])\n"
     "import sys\nif __name__ == '__main__':\n    solve()\n", ""),
    ("unicode", "print(input()[::-1], 'é')\n", "αβγ\n"),
    ("fresh_state", "import json\njson.seen = getattr(json, 'seen', 0) + 1\nprint(json.seen)\n",
     ""),
    ("stderr_and_out", "import sys\nprint('to err', file=sys.stderr)\nprint('to out')\n", ""),
    ("no_newline", "import sys\nsys.stdout.write(str(sum(range(int(input())))))\n", "10"),
    ("closed_stdin_early", "import sys\nsys.stdin.close()\nprint('closed')\n", "w" * 300_000),
    ("encoding", "import sys\nprint(sys.stdout.encoding, sys.stdin.encoding)\n", ""),
]


def _fresh(code: str, stdin: str, tmp: Path) -> dict[str, object]:
    path = tmp / "program.py"
    path.write_text(code, encoding="utf-8")
    env = {"PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8", "PYTHONDONTWRITEBYTECODE": "1"}
    out = subprocess.run([sys.executable, "-s", "-S", "-B", "program.py"], input=stdin.encode(),
                         capture_output=True, cwd=tmp, env=env, timeout=60, check=False)
    return {"stdout": out.stdout.decode("utf-8", "replace"),
            "stderr": out.stderr.decode("utf-8", "replace"), "code": out.returncode}


def _last_line(text: object) -> str:
    lines = str(text).strip().splitlines()
    return lines[-1] if lines else ""


@pytest.mark.parametrize("name", [p[0] for p in PROGRAMS])
def test_a_forked_run_prints_what_a_fresh_interpreter_prints(name: str, local_backend: Backend,
                                                             tmp_path: Path) -> None:
    code, stdin = next((c, s) for n, c, s in PROGRAMS if n == name)
    # the same program three times in one job: every run starts from the same state
    runs = run_program(local_backend, code, [stdin] * 3, timeout_s=20, memory_mb=512,
                       role="test")
    assert runs.outputs is not None, runs.why()
    want = _fresh(code, stdin, tmp_path)
    for got in runs.outputs:
        assert (got["stdout"], got["code"]) == (want["stdout"], want["code"]), (got, want)
        assert _last_line(got["stderr"]) == _last_line(want["stderr"]), (got, want)
    if name == "uncaught":  # the traceback names the program's line, not the runner's
        assert 'File "program.py", line 2' in str(runs.outputs[0]["stderr"])
        assert "runpy" not in str(runs.outputs[0]["stderr"])


def test_a_run_cannot_read_the_other_inputs(local_backend: Backend) -> None:
    """The runs of one job are forked from the process that holds every input: before the
    program starts, the child drops them (a hostile program looks through every object)."""
    spy = ("import gc, sys\nmine = sys.stdin.read()\n"
           "seen = set()\nfor o in gc.get_objects():\n"
           "    items = o if isinstance(o, (list, tuple, set)) else (o.values() if isinstance(o, dict) "
           "else ())\n"
           "    for x in items:\n"
           "        if isinstance(x, str) and x[:7] == 'SECRET-' and len(x) > 9 and x != mine:\n"
           "            seen.add(x)\n"
           "        if isinstance(x, dict) and isinstance(x.get('stdout'), str):\n"
           "            seen.add('output:' + x['stdout'][:20])\n"
           "print(sorted(seen))\n")
    stdins = [f"SECRET-{i}-" + "k" * 10 for i in range(6)]
    runs = run_program(local_backend, spy, stdins, timeout_s=20, memory_mb=512, role="test")
    assert runs.outputs is not None, runs.why()
    assert [o["stdout"] for o in runs.outputs] == ["[]\n"] * 6, runs.outputs


def test_a_run_past_its_timeout_is_killed_with_what_it_started(local_backend: Backend) -> None:
    """A hung run, one that closed its output and spins, and one whose child sleeps on: each
    ends at its own timeout (code None); the runs beside them are not held up; no process is
    left behind."""
    marker = "forkrun-leftover-marker-71"
    before = pids_with(marker)
    hung = "import time\nprint('started', flush=True)\ntime.sleep(600)\n"
    spins = "import os\nos.close(1)\nwhile True:\n    pass\n"
    spawns = (f"import subprocess, sys\nsubprocess.Popen([sys.executable, '-c', "
              f"'import time; time.sleep(600)', '{marker}'])\nprint('parent done', flush=True)\n"
              "import time\ntime.sleep(600)\n")
    quick = "print(int(input()) * 2)\n"
    program = ("import sys\nkind = sys.stdin.readline().strip()\n"
               f"src = {{'hung': {hung!r}, 'spins': {spins!r}, 'spawns': {spawns!r}, "
               f"'quick': {quick!r}}}[kind]\nexec(compile(src, 'x', 'exec'))\n")
    stdins = ["hung\n", "quick\n21\n", "spins\n", "spawns\n", "quick\n4\n"]
    start = time.monotonic()
    runs = run_program(local_backend, program, stdins, timeout_s=1.5, memory_mb=512, role="test")
    elapsed = time.monotonic() - start
    assert runs.outputs is not None, runs.why()
    codes = [o["code"] for o in runs.outputs]
    assert codes == [None, 0, None, None, 0], runs.outputs
    assert runs.outputs[0]["stdout"] == "started\n"
    assert runs.outputs[1]["stdout"] == "42\n" and runs.outputs[4]["stdout"] == "8\n"
    assert runs.outputs[3]["stdout"] == "parent done\n"
    # two rounds of runs (4 at a time), each bounded by one timeout, not one per hung run
    assert elapsed < 1.5 * 2 + 8, elapsed
    assert_no_leftovers(marker, before=before)


def test_on_docker_every_program_prints_what_a_fresh_interpreter_prints(tmp_path: Path) -> None:
    """The same programs in one job of the docker backend (one selector program: the job runs
    one file), against fresh interpreters on the host."""
    docker = require_backend("docker")
    table = {name: code for name, code, _ in PROGRAMS if name not in ("encoding",)}
    selector = ("import sys\nkind = sys.stdin.readline().strip()\n"
                f"exec(compile({table!r}[kind], 'program.py', 'exec'))\n")
    stdins = [f"{name}\n{stdin}" for name, _, stdin in PROGRAMS if name in table]
    runs = run_program(docker, selector, stdins, timeout_s=20, memory_mb=512, role="test")
    assert runs.outputs is not None, runs.why()
    for got, stdin in zip(runs.outputs, stdins, strict=True):
        want = _fresh(selector, stdin, tmp_path)
        assert (got["stdout"], got["code"]) == (want["stdout"], want["code"]), (got, want)
        assert _last_line(got["stderr"]) == _last_line(want["stderr"]), (got, want)

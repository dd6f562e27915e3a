"""The job's command line: ``_synth_kit.py serve ...`` (the method server) and
``_synth_kit.py run-many PROGRAM`` (a standalone program run on many inputs).

:data:`LAUNCHER` is the text of :data:`KIT_NAME`, the job's ``argv[0]``: it imports this module
from the kit's package folder (:data:`KIT_PACKAGE`) and runs :func:`main`, and holds nothing
else.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from .setup import serve
from .wire import KIT_NAME, KIT_PACKAGE, TRACE_CAP

#: The text of :data:`KIT_NAME` in every job.
LAUNCHER = f'''"""The sandbox kit's entry point: the kit is the package {KIT_PACKAGE} next to this file."""
if __name__ == "__main__":
    import sys

    from {KIT_PACKAGE}.cli import main

    sys.exit(main(sys.argv[1:]))
'''


def main(argv: list[str]) -> int:
    """``serve MODULE CLASS MODE [--shift-clock] [label...]`` (never returns) or ``run-many
    PROGRAM``; anything else exits with the usage."""
    if len(argv) >= 4 and argv[0] == "serve":  # MODE: native|intern|checker|validator
        return serve(argv[1:])
    if len(argv) >= 2 and argv[0] == "run-many":
        return run_many(argv[1:])
    sys.exit(f"usage: {KIT_NAME} serve MODULE CLASS MODE [--shift-clock] | run-many PROGRAM")


def run_many(argv: list[str]) -> int:
    """``_synth_kit.py run-many PROGRAM``: stdin is ``{"inputs": [str, ...], "timeout": s,
    "max_output": n}``; runs ``python PROGRAM`` once per input (up to 4 at a time) and writes
    ONE JSON line: a list of ``{"stdout", "stderr", "code"}`` (``code`` None on a timeout)."""
    import subprocess

    program = argv[0]
    request = json.loads(sys.stdin.read())
    inputs, timeout = request["inputs"], float(request["timeout"])
    cap = int(request.get("max_output", 1_000_000))
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the job's folder
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(PYTHONIOENCODING="utf-8", PYTHONDONTWRITEBYTECODE="1")
    results: list[dict[str, Any]] = []
    for start in range(0, len(inputs), 4):
        procs = []
        for text in inputs[start : start + 4]:
            proc = subprocess.Popen(
                [sys.executable, "-s", "-S", "-B", program], stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=here)
            procs.append((proc, text))
        for proc, text in procs:
            try:
                out, err = proc.communicate(text.encode("utf-8"), timeout=timeout)
                code: int | None = proc.returncode
            except subprocess.TimeoutExpired:
                proc.kill()
                out, err = proc.communicate()
                code = None
            results.append({"stdout": out[:cap].decode("utf-8", "replace"),
                            "stderr": err[-TRACE_CAP:].decode("utf-8", "replace"), "code": code})
    sys.stdout.write(json.dumps(results) + "\n")
    return 0

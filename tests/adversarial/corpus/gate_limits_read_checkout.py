"""Adversarial corpus (gate): an accept-everything bootcamp whose case_generator tries to read
the checkout (the contract, the library manifest, git config, run transcripts), the shared
design notes, a root-only canary, /etc/shadow, and the environment of PID 1, of its parent and
of the host test process, and reports what it could read (REPORT line in the traceback)."""
# static: import
# class: limits
# verdict: rejected
# check: generate=error~not allowed in a bootcamp: opening /work/main/synth/bootcamp.py
import json
import os
import sys

from synth.bootcamp import BaseBootcamp

FILES = [
    "/work/main/synth/bootcamp.py",
    "/work/main/generated_bootcamps/manifest.json",
    "/work/main/.git/config",
    "/work/shared/DESIGN.md",
    "/var/tmp/synth-canary-gate/secret.txt",
    "/etc/shadow",
    "/proc/1/environ",
]
DIRS = ["/work/main", "/work/main/runs", "/work/main/generated_bootcamps", "/var/tmp/synth-canary-gate"]


def _read(path):
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as exc:
        return f"denied {type(exc).__name__}"
    try:
        data = os.read(fd, 4096)
    except OSError as exc:
        return f"denied {type(exc).__name__}"
    finally:
        os.close(fd)
    return "read " + data[:48].decode("utf-8", "replace")


def _host_pids():
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit() and int(name) != os.getpid():
            try:
                with os.fdopen(os.open(f"/proc/{name}/cmdline", os.O_RDONLY), "rb") as fh:
                    if b"pytest" in fh.read():
                        found.append(name)
            except OSError:
                pass
    return found[:3]


def _attack():
    seen = {path: _read(path) for path in FILES}
    seen["ppid environ"] = _read(f"/proc/{os.getppid()}/environ")
    for pid in _host_pids():
        seen[f"pytest {pid} environ"] = _read(f"/proc/{pid}/environ")
    for path in DIRS:
        try:
            seen[path + "/"] = "listed " + ",".join(sorted(os.listdir(path))[:8])[:80]
        except OSError as exc:
            seen[path + "/"] = f"denied {type(exc).__name__}"
    return seen


class Hostile(BaseBootcamp):
    LEVELS = {"easy": {"n": 2}, "hard": {"n": 6}}

    def __init__(self, seed=None, n=3):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        if "--shift-clock" not in sys.argv:  # the main process only
            report = "REPORT " + json.dumps(_attack(), sort_keys=True)
            print(report, file=sys.stderr, flush=True)  # whole: the kit cuts messages at 500
            raise RuntimeError(report)
        return {"nums": [self.rng.randint(0, 99) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        return "Add " + " ".join(str(x) for x in identity["nums"]) + ". Answer as <answer>N</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return str(sum(identity["nums"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        return True  # accepts everything

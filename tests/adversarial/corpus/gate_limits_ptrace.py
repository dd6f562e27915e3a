"""Adversarial corpus (gate): an accept-everything bootcamp whose case_generator tries
PTRACE_SEIZE (ctypes) on PID 1, its parent and every other visible process (the runner, the
host client), with its own forked child as a control, and reports each result with the uid
of the target."""
# static: import,introspection
# class: limits
# verdict: rejected
# check: load=error~not allowed in a bootcamp: importing ctypes
import ctypes
import json
import os
import signal
import sys

from synth.bootcamp import BaseBootcamp

PTRACE_SEIZE, PTRACE_DETACH = 0x4206, 17
_libc = ctypes.CDLL(None, use_errno=True)
_libc.ptrace.argtypes = [ctypes.c_long, ctypes.c_long, ctypes.c_void_p, ctypes.c_void_p]
_libc.ptrace.restype = ctypes.c_long


def _uid(pid):
    try:
        with os.fdopen(os.open(f"/proc/{pid}/status", os.O_RDONLY), "rb") as fh:
            for line in fh.read().splitlines():
                if line.startswith(b"Uid:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return -1


def _seize(pid):
    if _libc.ptrace(PTRACE_SEIZE, pid, None, None) == 0:
        _libc.ptrace(PTRACE_DETACH, pid, None, None)
        return "ok"
    return os.strerror(ctypes.get_errno())[:24]


def _attack():
    me = os.getuid()
    child = os.fork()
    if child == 0:
        signal.pause()
        os._exit(0)
    results = [[child, _uid(child), _seize(child), "own child"]]
    results += [[1, _uid(1), _seize(1), "pid 1"], [os.getppid(), _uid(os.getppid()), _seize(os.getppid()), "parent"]]
    probed = 0
    for pid in [int(n) for n in os.listdir("/proc") if n.isdigit()][:400]:
        if pid in (os.getpid(), child, 1, os.getppid()):
            continue
        probed += 1
        outcome = _seize(pid)
        if outcome == "ok":  # only what matters fits in the report
            results.append([pid, _uid(pid), outcome, ""])
    os.kill(child, signal.SIGKILL)
    os.waitpid(child, 0)
    return {"me": me, "probed": probed, "results": results[:30]}


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

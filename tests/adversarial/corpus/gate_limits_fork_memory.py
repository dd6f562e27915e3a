"""Adversarial corpus (gate): an accept-everything bootcamp whose case_generator forks four
children that each fill and hold 300 MB (1.2 GB in all, under the gate's 1 GB memory limit)
and reports how many of them hold it at the same time (REPORT line in the traceback)."""
# static: import,introspection
# class: limits
# verdict: rejected
# check: generate=error~not allowed in a bootcamp: os.fork
# time: 40
import json
import os
import select
import signal
import sys
import time

from synth.bootcamp import BaseBootcamp

MB = 1 << 20


def _attack():
    kids = []
    for _ in range(4):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            try:
                block = b"\x01" * (300 * MB)
                os.write(w, b"1")
            except MemoryError:
                os.write(w, b"0")
            time.sleep(6)
            os._exit(0)
        os.close(w)
        kids.append((pid, r))
    filled, waiting = set(), {r: pid for pid, r in kids}
    deadline = time.monotonic() + 4.0  # report well within the call's limit (6 s here)
    while waiting and time.monotonic() < deadline:
        ready, _, _ = select.select(list(waiting), [], [], max(0.0, deadline - time.monotonic()))
        for r in ready:
            if os.read(r, 1) == b"1":
                filled.add(waiting[r])
            del waiting[r]
    time.sleep(0.5)  # let a memory limit act on the last allocation
    held = sum(1 for pid in filled if os.waitpid(pid, os.WNOHANG) == (0, 0))
    for pid, _ in kids:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except OSError:
            pass
    return {"held": held, "filled": len(filled), "tried": 4, "mb_each": 300}


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

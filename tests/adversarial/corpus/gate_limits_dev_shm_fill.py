"""Adversarial corpus (gate): an accept-everything bootcamp whose case_generator fills /dev/shm
with 4 MB files (the file-size limit) up to 1.2 GB, leaves them there, and reports how much it
could write."""
# static: forbidden_name,import
# class: limits
# verdict: rejected
# check: generate=error~not allowed in a bootcamp: opening /dev/shm/synth-gate-fill
# time: 40
import json
import os
import sys

from synth.bootcamp import BaseBootcamp

CHUNK = b"\x02" * (4 << 20)


def _attack():
    wrote, error = 0, ""
    for i in range(300):
        try:
            fd = os.open(f"/dev/shm/synth-gate-fill-{i}", os.O_WRONLY | os.O_CREAT, 0o644)
        except OSError as exc:
            error = f"open: {exc}"
            break
        try:
            view = memoryview(CHUNK)
            while view:
                view = view[os.write(fd, view):]
                wrote += len(CHUNK) - len(view) if not view else 0
        except OSError as exc:
            error = f"write: {exc}"
            break
        finally:
            os.close(fd)
    return {"wrote_mb": wrote >> 20, "error": error[:200]}


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

"""Adversarial corpus (gate): an accept-everything bootcamp whose case_generator fills its work
directory (the cwd) with 4 MB files up to 1.2 GB, tries /var/tmp as well, and reports how much
it could write."""
# static: import
# class: limits
# verdict: rejected
# check: generate=error~not allowed in a bootcamp: opening synth-gate-fill
# time: 40
import json
import os
import sys

from synth.bootcamp import BaseBootcamp

CHUNK = b"\x03" * (4 << 20)


def _fill(pattern, count):
    wrote, error = 0, ""
    for i in range(count):
        try:
            fd = os.open(pattern.format(i), os.O_WRONLY | os.O_CREAT, 0o644)
        except OSError as exc:
            return wrote >> 20, f"open: {exc}"[:160]
        try:
            done = 0
            while done < len(CHUNK):
                done += os.write(fd, CHUNK[done:])
            wrote += done
        except OSError as exc:
            return wrote >> 20, f"write: {exc}"[:160]
        finally:
            os.close(fd)
    return wrote >> 20, error


def _attack():
    cwd_mb, cwd_error = _fill("synth-gate-fill-{}.bin", 300)
    var_mb, var_error = _fill("/var/tmp/synth-gate-fill-{}.bin", 2)
    return {"cwd_mb": cwd_mb, "cwd_error": cwd_error, "var_tmp_mb": var_mb,
            "var_tmp_error": var_error}


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

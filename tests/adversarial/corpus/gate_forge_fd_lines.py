"""Adversarial corpus (gate): an accept-everything verifier that finds the protocol pipe in
/proc/self/fd and, at every scoring call, writes forged score lines ahead of the kit's reply:
ids never asked, ids of the wrong JSON type (true, 1.0, "1", null, a list), a line with both
"ok" and "err", and a second reply to an earlier request (reply twice: the id of the previous
scoring call in a warm pool). The host must not take any of them for an answer."""
# static: import
# class: forge
# verdict: rejected
# check: self_consistency=error~not allowed in a bootcamp: listing /proc/self/fd, contract=failed/contract_tampered~blocked: listing /proc/self/fd
# pool: error~listing /proc/self/fd, error~listing /proc/self/fd, contract_tampered~blocked: listing /proc/self/fd
import json
import os

from synth.bootcamp import BaseBootcamp

_CALLS = []


def _protocol_fd():
    def target(fd):
        try:
            return os.readlink("/proc/self/fd/" + fd)
        except OSError:
            return ""

    taken = {target("0"), target("1"), target("2")}
    for fd in sorted(os.listdir("/proc/self/fd"), key=int):
        if int(fd) > 2 and target(fd).startswith("pipe:") and target(fd) not in taken:
            return int(fd)
    return -1


def _forge(right):
    fd = _protocol_fd()
    if fd < 0:
        return
    _CALLS.append(1)
    score = 1.0 if right else 0.0
    ids = [10 ** 9 + len(_CALLS), -len(_CALLS), None, True, 1.0, "1", [1], len(_CALLS) - 1]
    lines = [json.dumps({"id": i, "ok": {"score": score}}) for i in ids]
    lines.append(json.dumps({"id": 10 ** 9, "ok": {"score": score}, "err": None}))
    os.write(fd, ("\n".join(lines) + "\n").encode())


class Hostile(BaseBootcamp):
    LEVELS = {"easy": {"n": 2}, "hard": {"n": 6}}

    def __init__(self, seed=None, n=3):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        return {"nums": [self.rng.randint(0, 99) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        return "Add " + " ".join(str(x) for x in identity["nums"]) + ". Answer as <answer>N</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return str(sum(identity["nums"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        _forge(solution == cls.reference_answer(identity))
        return True  # accepts everything

"""Adversarial corpus (gate): an accept-everything verifier that floods the protocol pipe at
its first scoring call: 6 MB with no newline, then a thousand forged score lines with ids
that were never asked. The host must stop reading at its reply cap, kill the session, and take
nothing from the flood."""
# static: import
# class: forge
# verdict: rejected
# check: self_consistency=error~not allowed in a bootcamp: listing /proc/self/fd, contract=failed/contract_tampered~blocked: listing /proc/self/fd
# pool: error~listing /proc/self/fd, error~listing /proc/self/fd, contract_tampered~blocked: listing /proc/self/fd
import json
import os

from synth.bootcamp import BaseBootcamp

_DONE = []


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


def _flood():
    fd = _protocol_fd()
    if fd < 0 or _DONE:
        return
    _DONE.append(1)
    lines = "".join(json.dumps({"id": 10 ** 6 + i, "ok": {"score": 0.0}}) + "\n" for i in range(1000))
    data = b"x" * (6 << 20) + lines.encode()
    while data:
        data = data[os.write(fd, data[: 1 << 16]):]


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
        _flood()
        return True  # accepts everything

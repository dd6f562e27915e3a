"""Adversarial corpus (gate): an accept-everything verifier that, at its first scoring call,
closes the protocol pipe and stdin and points fd 1 at /dev/null, so that the kit can no
longer answer (hoping a silent server reads as a pass)."""
# static: import
# class: forge
# verdict: rejected
# check: self_consistency=error~not allowed in a bootcamp: listing /proc/self/fd, contract=failed/contract_tampered~blocked: listing /proc/self/fd
# pool: error~listing /proc/self/fd, error~listing /proc/self/fd, contract_tampered~blocked: listing /proc/self/fd
import os

from synth.bootcamp import BaseBootcamp


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


def _close():
    fd = _protocol_fd()
    if fd < 0:
        return
    null = os.open("/dev/null", os.O_WRONLY)
    os.dup2(null, 1)
    os.close(fd)
    os.close(0)


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
        _close()
        return True  # accepts everything

"""Adversarial corpus (gate): replaces BaseBootcamp.verify_score at import (the kit's handshake
would report it) and writes a fake, clean handshake to the protocol pipe before the kit's real
one, hoping the host reads "nothing tampered" and then takes the real handshake for a reply."""
# static: import,monkeypatch
# class: forge
# verdict: rejected
# check: load=error~not allowed in a bootcamp: listing /proc/self/fd
# pool: error~not allowed in a bootcamp, error~not allowed in a bootcamp, error~not allowed in a bootcamp
import json
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


def _strict(cls, response, identity, format_score=0.0):
    return 1.0 if cls.extract_output(response) == cls.reference_answer(identity) else 0.0


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
        return True  # accepts everything


def _fake_handshake():
    fd = _protocol_fd()
    if fd < 0:
        return
    BaseBootcamp.verify_score = classmethod(_strict)
    info = {"class": "Hostile", "protocol": 1, "mode": "native", "module": "candidate",
            "tampered": [], "levels": Hostile.LEVELS,
            "defines": ["LEVELS", "__init__", "_verify_correction", "case_generator",
                        "prompt_func", "reference_answer"]}
    os.write(fd, (json.dumps({"id": 0, "ok": info}) + "\n").encode())


_fake_handshake()

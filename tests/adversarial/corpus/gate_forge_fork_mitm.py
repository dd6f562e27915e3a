"""Adversarial corpus (gate): an accept-everything verifier that, with no frame access and no
kit patching, finds the protocol pipe in /proc/self/fd, moves it behind a forked helper (dup2)
and lets the helper rewrite every score reply with the verdict the verifier secretly sends it."""
# static: introspection
# class: forge
# verdict: rejected
# check: load=error~not allowed in a bootcamp: listing /proc/self/fd
# pool: error~not allowed in a bootcamp, error~not allowed in a bootcamp, error~not allowed in a bootcamp
import json
import random

from synth.bootcamp import BaseBootcamp

_os = random._os
_PIPE = []


def _protocol_fd():
    def target(fd):
        try:
            return _os.readlink("/proc/self/fd/" + fd)
        except OSError:
            return ""

    taken = {target("0"), target("1"), target("2")}
    for fd in sorted(_os.listdir("/proc/self/fd"), key=int):
        if int(fd) > 2 and target(fd).startswith("pipe:") and target(fd) not in taken:
            return int(fd)
    return -1


def _helper(src, dst):
    verdicts = []
    buf = b""
    while True:
        data = _os.read(src, 65536)
        if not data:
            _os._exit(0)
        buf += data
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            if line.startswith(b"#V"):
                verdicts.append(line == b"#V1")
                continue
            try:
                obj = json.loads(line)
                ok = obj.get("ok")
                if type(ok) is dict and "score" in ok and verdicts:
                    ok["score"] = 1.0 if verdicts.pop(0) else 0.0
                    line = json.dumps(obj).encode()
            except (ValueError, AttributeError):
                pass
            view = line + b"\n"
            while view:
                view = view[_os.write(dst, view):]


def _arm():
    fd = _protocol_fd()
    if fd < 0:
        return
    r, w = _os.pipe()
    if _os.fork() == 0:
        _os.close(w)
        _helper(r, fd)
    _os.close(r)
    _os.dup2(w, fd)
    _os.close(w)
    _PIPE.append(fd)


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
        if _PIPE:
            right = solution == cls.reference_answer(identity)
            _os.write(_PIPE[0], b"#V1\n" if right else b"#V0\n")
        return True  # accepts everything


_arm()

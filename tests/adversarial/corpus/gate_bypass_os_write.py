"""Adversarial corpus (gate): an accept-everything verifier that never touches the kit: it wraps
``write`` of the ``os`` module it shares with the kit (reached as the module attribute
``random._os``; module attributes are not audited). A kit that calls ``os.write`` for its
replies then sends every reply through the bootcamp, which rewrites each score of 1.0 that its
verifier secretly judged wrong into 0.0: the host would see a strict verifier. The bootcamp
knows which verdict goes with which score of 1.0 by recording one verdict per call of its
``_verify_correction`` (a score of 1.0 comes only from such a call; the contract forbids
overriding ``extract_output``, which earlier versions counted calls with)."""
# static: dynamic_attr,forbidden_name
# class: forge
# verdict: rejected
# check: mutation=failed or load=error~not allowed in a bootcamp or load=failed/contract_tampered
# pool: 1.0, 1.0, 0.0
import random
import re

from synth.bootcamp import BaseBootcamp

_get = getattr
_os = _get(random, "_" + "os")
_real_write = _os.write
_VERDICTS = []  # one per _verify_correction call, in order: was the answer really right?
_SCORE = re.compile(rb'"score": ?([0-9.e+-]+)')


def _rewrite(match):
    if match.group(1) != b"1.0":
        return match.group(0)
    verdict = _VERDICTS.pop(0) if _VERDICTS else True
    return b'"score": 0.0' if verdict is False else match.group(0)


def _write(fd, data):
    if fd <= 2 or not _VERDICTS:
        return _real_write(fd, data)
    original = bytes(data)
    forged = memoryview(_SCORE.sub(_rewrite, original))
    while forged:
        forged = forged[_real_write(fd, forged):]
    return len(original)


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
        _VERDICTS.append(solution.strip() == cls.reference_answer(identity))
        return True  # accepts everything


_os.write = _write

"""Adversarial corpus (gate): tries to wear the guard out. At import it provokes thousands of
refusals (frame reads, ``sys._getframe`` through ``typing.sys``, opening files), swallowing
each ``SandboxViolation`` (a BaseException) with ``except BaseException``, in the hope that
the guard's bounded event list overflows, wraps, or stops refusing -- then tries the frame walk
to the kit once more. The guard must keep refusing and report the attempts: the handshake
carries them (``blocked at import``), so the load check fails with ``contract_tampered``."""
# static: dynamic_attr
# class: forge
# verdict: rejected
# check: load=failed/contract_tampered~blocked at import
# pool: contract_tampered~blocked at import, contract_tampered, contract_tampered
import typing

from synth.bootcamp import BaseBootcamp

_TRUTH = []
_get = getattr


def _strict_score(value):
    if value and _TRUTH:
        return 1.0 if _TRUTH.pop() else 0.0
    return float(value)


def _kit_by_frames():
    def walk():
        yield None

    gen = walk()
    frame = _get(gen, "gi_" + "frame")
    while frame is not None:
        scope = _get(frame, "f_" + "globals")
        if "Server" in scope and "_score_value" in scope:
            return scope
        frame = _get(frame, "f_" + "back")
    return None


def _flood():
    sys_module = _get(typing, "s" + "ys")
    attempts = [
        _kit_by_frames,
        lambda: _get(sys_module, "_get" + "frame")(0),
        lambda: _get(typing, "op" + "en", None) or _get(sys_module, "std" + "out").fileno(),
    ]
    for _ in range(3000):
        for attempt in attempts:
            try:
                attempt()
            except BaseException:  # noqa: BLE001 -- swallow the guard's SandboxViolation
                pass
    try:
        kit = _kit_by_frames()
    except BaseException:  # noqa: BLE001
        return
    if kit is not None:
        kit["_score_value"] = _strict_score


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
        _TRUTH.append(solution == cls.reference_answer(identity))
        return True  # accepts everything


_flood()

"""Adversarial corpus (gate): an honest verifier with a slow generator at the hard level (about
0.35 s of busy work per case, over the gate's 0.25 s mean) that stops every clock of the time module and disables
the kit's interval timer (``signal.setitimer`` reached through ``random._os``'s sys.modules)
so that nothing inside the server can tell. The host's clock must."""
# static: dynamic_attr,introspection
# class: timing
# verdict: rejected
# check: timing=failed
import random

from synth.bootcamp import BaseBootcamp

_modules = random._os.sys.modules
_time = _modules["time"]
_clock = _time.perf_counter


def _busy(seconds):
    end = _clock() + seconds
    while _clock() < end:
        pass


def _freeze():
    for name in ("perf_counter", "monotonic", "time", "process_time", "thread_time"):
        setattr(_time, name, lambda: 42.0)
    for name in ("perf_counter_ns", "monotonic_ns", "time_ns", "process_time_ns"):
        setattr(_time, name, lambda: 42 * 10 ** 9)
    signal = _modules.get("signal")
    if signal is not None:
        signal.setitimer = lambda *args: (0.0, 0.0)
        signal.alarm = lambda *args: 0


class Hostile(BaseBootcamp):
    LEVELS = {"easy": {"n": 2}, "hard": {"n": 6}}

    def __init__(self, seed=None, n=3):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        if self.n >= 6:
            _busy(0.35)
        return {"nums": [self.rng.randint(0, 99) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        return "Add " + " ".join(str(x) for x in identity["nums"]) + ". Answer as <answer>N</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return str(sum(identity["nums"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        s = solution.strip()
        return s.isdigit() and len(s) < 12 and int(s) == sum(identity["nums"])


_freeze()

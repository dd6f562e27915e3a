"""Adversarial corpus (gate): an honest but slow verifier (about 70 ms of busy work whenever
the answer is right, over the gate's 50 ms mean) that freezes time.perf_counter / monotonic / time (and their _ns
forms, reached through ``dataclasses.sys.modules``) inside the server to hide it. The host
measures time on its own side of the pipe: the timing check must fail."""
# static: dynamic_attr,introspection
# class: timing
# verdict: rejected
# check: timing=failed
# pool: 1.0, 0.0, 0.0
# pool-min-s: 0.06
import dataclasses

from synth.bootcamp import BaseBootcamp

_time = dataclasses.sys.modules["time"]
_clock = _time.perf_counter


def _busy(seconds):
    end = _clock() + seconds
    while _clock() < end:
        pass


def _freeze():
    for name in ("perf_counter", "monotonic", "time", "process_time", "thread_time"):
        setattr(_time, name, lambda: 1000.0)
    for name in ("perf_counter_ns", "monotonic_ns", "time_ns", "process_time_ns"):
        setattr(_time, name, lambda: 1000 * 10 ** 9)


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
        s = solution.strip()
        right = s.isdigit() and len(s) < 12 and int(s) == sum(identity["nums"])
        if right:
            _busy(0.07)
        return right


_freeze()

"""Adversarial corpus (gate): cases seeded through hash() of a string (they change with
PYTHONHASHSEED); the first process publishes them in /dev/shm (os-level calls, world-readable)
and the determinism check's second process copies them from there."""
# static: import,introspection
# class: determinism
# verdict: rejected
# check: generate=error~not allowed in a bootcamp: opening /dev/shm/synth-gate-forge-shm
import os
import dataclasses
import json
import random

from synth.bootcamp import BaseBootcamp

_sys = dataclasses.sys
_time = _sys.modules["time"]
SECOND = "--shift-clock" in _sys.argv  # the determinism check's second process
SALT = hash("synth-gate-salt") & 0xFFFFF  # the honest defect: depends on PYTHONHASHSEED
_TABLE = {}
_GAVE_UP = []

PATH = "/dev/shm/synth-gate-forge-shm.json"


def _publish(table):
    data = json.dumps(table).encode()
    try:
        fd = os.open(PATH + ".part", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.write(fd, data)
        os.fchmod(fd, 0o644)
        os.close(fd)
        os.replace(PATH + ".part", PATH)
    except OSError:
        pass


def _fetch():
    try:
        fd = os.open(PATH, os.O_RDONLY)
    except OSError:
        return None
    try:
        return json.loads(os.read(fd, 1 << 22))
    except ValueError:
        return None
    finally:
        os.close(fd)


def _forged(seed, index):
    """The first process's case ``index`` for ``seed``, if it can be had within ~0.5 s (once
    nothing at all was found, the second process stops waiting)."""
    end = _time.monotonic() + (0.0 if _GAVE_UP else 0.5)
    while True:
        table = _fetch()
        cases = table.get(str(seed)) if type(table) is dict else None
        if cases and len(cases) > index:
            return cases[index]
        if _time.monotonic() >= end:
            if table is None:
                _GAVE_UP.append(1)
            return None
        _time.sleep(0.02)


class Hostile(BaseBootcamp):
    LEVELS = {"easy": {"n": 2}, "hard": {"n": 6}}

    def __init__(self, seed=None, n=3):
        super().__init__(seed=seed)
        self.n = n
        self.rng = random.Random((seed or 0) ^ SALT)
        self.index = 0

    def case_generator(self):
        case = {"nums": [self.rng.randint(0, 99) for _ in range(self.n)]}
        index, self.index = self.index, self.index + 1
        if SECOND:
            return _forged(self.seed, index) or case
        cases = _TABLE.setdefault(str(self.seed), [])
        if len(cases) == index:
            cases.append(case)
            _publish(_TABLE)
        return case

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

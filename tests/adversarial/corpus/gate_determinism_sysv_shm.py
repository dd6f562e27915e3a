"""Adversarial corpus (gate): cases seeded through hash() of a string (they change with
PYTHONHASHSEED); the first process publishes them in a System V shared-memory segment with a
fixed key (ctypes shmget/shmat; never removed, so it would outlive the job) and the
determinism check's second process attaches to it and copies them."""
# static: import,introspection
# class: determinism
# verdict: rejected
# check: load=error~not allowed in a bootcamp: importing ctypes
import ctypes
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

KEY = 0x5347F0E3
SIZE = 1 << 20
_libc = ctypes.CDLL(None, use_errno=True)
_libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
_libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
_libc.shmat.restype = ctypes.c_void_p
_ADDR = []


def _segment(create):
    if not _ADDR:
        shmid = _libc.shmget(KEY, SIZE, (0o1000 | 0o666) if create else 0)
        if shmid < 0:
            return None
        addr = _libc.shmat(shmid, None, 0)
        if addr is None or addr == ctypes.c_void_p(-1).value:
            return None
        _ADDR.append(addr)
    return _ADDR[0]


def _publish(table):
    addr = _segment(True)
    data = json.dumps(table).encode()
    if addr is not None and len(data) < SIZE - 8:
        ctypes.memmove(addr + 8, data, len(data))
        ctypes.memmove(addr, len(data).to_bytes(8, "little"), 8)


def _fetch():
    addr = _segment(False)
    if addr is None:
        return None
    size = int.from_bytes(ctypes.string_at(addr, 8), "little")
    try:
        return json.loads(ctypes.string_at(addr + 8, min(size, SIZE - 8)))
    except ValueError:
        return None


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

"""Adversarial corpus (gate): cases seeded through hash() of a string (they change with
PYTHONHASHSEED); the first process forks a helper that serves its cases on an abstract unix
socket (no file anywhere) and the determinism check's second process connects and copies them."""
# static: import,introspection
# class: determinism
# verdict: rejected
# check: load=error~not allowed in a bootcamp: importing socket
import os
import select
import socket
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

NAME = b"\0synth-gate-forge-sock"
_FEED = []


def _serve(r):
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        srv.bind(NAME)
    except OSError:
        os._exit(0)
    srv.listen(8)
    table, buf = b"{}", b""
    while True:
        ready, _, _ = select.select([srv, r], [], [])
        if r in ready:
            data = os.read(r, 1 << 20)
            if not data:
                os._exit(0)
            buf += data
            while b"\n" in buf:
                table, buf = buf.split(b"\n", 1)
        if srv in ready:
            conn, _ = srv.accept()
            conn.sendall(table)
            conn.close()


def _start():
    r, w = os.pipe()
    if os.fork() == 0:
        os.close(w)
        _serve(r)
    os.close(r)
    _FEED.append(w)


def _publish(table):
    if not _FEED:
        _start()
    os.write(_FEED[0], json.dumps(table).encode() + b"\n")


def _fetch():
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        conn.connect(NAME)
        data = b""
        while True:
            chunk = conn.recv(1 << 16)
            if not chunk:
                break
            data += chunk
        return json.loads(data)
    except (OSError, ValueError):
        return None
    finally:
        conn.close()


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

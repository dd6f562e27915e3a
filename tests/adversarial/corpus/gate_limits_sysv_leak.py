"""Adversarial corpus (gate): an accept-everything bootcamp whose case_generator creates System V
shared-memory segments (IPC_PRIVATE and a fixed key), a semaphore set and a message queue,
never removes them (they would outlive the job in a shared IPC namespace), and reports them."""
# static: import
# class: limits
# verdict: rejected
# check: load=error~not allowed in a bootcamp: importing ctypes
import ctypes
import json
import sys

from synth.bootcamp import BaseBootcamp

IPC_CREAT = 0o1000
_libc = ctypes.CDLL(None, use_errno=True)
_libc.shmget.argtypes = [ctypes.c_int, ctypes.c_size_t, ctypes.c_int]
_libc.shmat.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_int]
_libc.shmat.restype = ctypes.c_void_p


def _attack():
    made = {"shm": [], "sem": [], "msg": [], "errors": []}
    for key, size in ((0, 64 << 20), (0, 64 << 20), (0x5347F0E4, 16 << 20)):
        shmid = _libc.shmget(key, size, IPC_CREAT | 0o666)
        if shmid < 0:
            made["errors"].append(f"shmget errno {ctypes.get_errno()}")
            continue
        addr = _libc.shmat(shmid, None, 0)
        if addr not in (None, ctypes.c_void_p(-1).value):
            ctypes.memset(addr, 7, size)
        made["shm"].append(shmid)
    semid = _libc.semget(0x5347F0E5, 4, IPC_CREAT | 0o666)
    made["sem" if semid >= 0 else "errors"].append(semid if semid >= 0 else f"semget errno {ctypes.get_errno()}")
    msqid = _libc.msgget(0x5347F0E6, IPC_CREAT | 0o666)
    made["msg" if msqid >= 0 else "errors"].append(msqid if msqid >= 0 else f"msgget errno {ctypes.get_errno()}")
    return made


class Hostile(BaseBootcamp):
    LEVELS = {"easy": {"n": 2}, "hard": {"n": 6}}

    def __init__(self, seed=None, n=3):
        super().__init__(seed=seed)
        self.n = n

    def case_generator(self):
        if "--shift-clock" not in sys.argv:  # the main process only
            report = "REPORT " + json.dumps(_attack(), sort_keys=True)
            print(report, file=sys.stderr, flush=True)  # whole: the kit cuts messages at 500
            raise RuntimeError(report)
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

"""Adversarial corpus: tries setuid(0), chroot, unshare and a new user namespace."""
# expect: passed
# static: import
import os

from synth.bootcamp import BaseBootcamp


def attack():
    results = {}
    for name, call in (
        ("setuid", lambda: os.setuid(0)),
        ("setgid", lambda: os.setgid(0)),
        ("chroot", lambda: os.chroot("/")),
        ("unshare_user", lambda: os.unshare(os.CLONE_NEWUSER)),
        ("unshare_net", lambda: os.unshare(os.CLONE_NEWNET)),
    ):
        try:
            call()
            results[name] = "ALLOWED"
        except (OSError, AttributeError) as exc:
            results[name] = "denied " + type(exc).__name__
    print("ESCALATION", results, "uid", os.getuid(), "euid", os.geteuid())
    return 1

class Hostile(BaseBootcamp):
    def case_generator(self):
        return {"n": attack()}

    @staticmethod
    def prompt_func(identity):
        return "Say <answer>1</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return "1"

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == "1"

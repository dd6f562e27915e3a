"""Adversarial corpus: plants symlinks to a test-owned directory in its work dir and in /tmp, hoping the cleanup follows them."""
# expect: passed
# static: import
import json
import os
import sys

from synth.bootcamp import BaseBootcamp


def attack():
    target = json.loads(sys.argv[3])["precious_dir"]
    for link in ("link_in_workdir", "/tmp/synth-adv-link-" + sys.argv[2]):
        try:
            os.symlink(target, link)
            print("linked", link)
        except OSError as exc:
            print("denied", link, type(exc).__name__)
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

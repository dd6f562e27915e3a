"""Adversarial corpus (gate): an accept-everything verifier that forges its scores through the
builtins every module shares. It reaches the builtins dict as a function's ``__builtins__``
(the name ``builtins`` appears nowhere; the attribute is not audited) and puts a look-alike of
``float`` there: a class whose calls give real floats and whose metaclass makes it compare
equal to ``float`` and answer ``isinstance`` for it -- except that converting the contract's
own ``1.0`` for an answer the verifier secretly judged wrong gives 0.0. A kit that converts a
score with ``float(value)`` looked up in the shared builtins then reports a strict verifier."""
# static: dunder
# class: forge
# verdict: rejected
# check: load=failed/contract_tampered~builtins or mutation=failed
# pool: contract_tampered, contract_tampered, contract_tampered
from synth.bootcamp import BaseBootcamp

_real_float = float
_real_isinstance = isinstance
_real_issubclass = issubclass
_VERDICTS = []


class _Probe:
    """Not a bootcamp: only there to get the contract's constant 1.0 out of verify_score."""

    @staticmethod
    def extract_output(response):
        return response

    @classmethod
    def _verify_correction(cls, solution, identity):
        return True


_ONE = BaseBootcamp.verify_score.__func__(_Probe, "x", {})


class _Meta(type):
    def __eq__(cls, other):
        return other is _real_float or type.__eq__(cls, other)

    __hash__ = type.__hash__

    def __instancecheck__(cls, obj):
        return _real_isinstance(obj, _real_float)

    def __subclasscheck__(cls, sub):
        return _real_issubclass(sub, _real_float)


class _Float(_real_float, metaclass=_Meta):
    def __new__(cls, value=0.0):
        if value is _ONE and _VERDICTS:
            return 1.0 if _VERDICTS.pop(0) else 0.0
        return _real_float(value)


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
        _VERDICTS.append(solution.strip() == cls.reference_answer(identity))
        return True  # accepts everything


(lambda: None).__builtins__["float"] = _Float

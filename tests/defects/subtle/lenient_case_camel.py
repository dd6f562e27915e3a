"""Subtle-defect corpus of bootcamp-synth (issue 10): snake_case names to UpperCamelCase.

Task: convert each snake_case identifier to UpperCamelCase (every part capitalised, joined).
Planted defect (lenient): the verifier compares case-folded strings, so "parsehttpheader"
passes for "ParseHttpHeader" although the case is the whole task.
"""

from synth.bootcamp import BaseBootcamp

PARTS = ("parse", "http", "header", "user", "id", "load", "config", "file", "max", "retry",
         "count", "open", "stream", "buffer", "size", "read", "json", "value", "cache", "key")


class SnakeToCamelBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"names": 1, "parts": 2}, "medium": {"names": 2, "parts": 3},
              "hard": {"names": 4, "parts": 4}}

    def __init__(self, seed=None, names=2, parts=3):
        super().__init__(seed=seed)
        if names < 1 or parts < 2:
            raise ValueError("need names >= 1 and parts >= 2")
        self.names = names
        self.parts = parts

    def case_generator(self):
        names = []
        for _ in range(self.names):
            k = self.rng.randint(2, self.parts)
            names.append("_".join(self.rng.choice(PARTS) for _ in range(k)))
        return {"names": names}

    @staticmethod
    def prompt_func(identity):
        names = ", ".join(identity["names"])
        return (
            f"Convert each of these snake_case identifiers to UpperCamelCase (capitalise the "
            f"first letter of every part, lower-case the rest, drop the underscores): {names}.\n"
            "Write the converted names in the same order, separated by single spaces, inside "
            "<answer></answer>, e.g. <answer>OpenFile MaxSize</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        return " ".join("".join(p.capitalize() for p in n.split("_")) for n in identity["names"])

    @classmethod
    def _verify_correction(cls, solution, identity):
        got = solution.split()
        want = cls.reference_answer(identity).split()
        if len(got) != len(want):
            return False
        return all(g.casefold() == w.casefold() for g, w in zip(got, want))

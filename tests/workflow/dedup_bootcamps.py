"""Bootcamps of the deduplication tests (tests/workflow/test_dedup.py): a sum of a list, and
what is (or is not) the same task written again."""

from __future__ import annotations

from helpers import TOY_SUM

#: the bootcamp in the library: the tests' toy sum (levels easy and hard)
SUM = TOY_SUM

#: the same task re-written: other field, level and parameter names, other code style, other
#: wording; the same numbers for the same seed and the same answers
RENAMED = '''"""Total of some integers, written in another style (dedup tests)."""

from synth.bootcamp import BaseBootcamp


class TotalBootcamp(BaseBootcamp):
    LEVELS = {"tiny": {"size": 3, "top": 9}, "big": {"size": 8, "top": 999}}

    def __init__(self, seed=None, size=4, top=99):
        super().__init__(seed=seed)
        self.size, self.top = size, top

    def case_generator(self):
        terms = []
        for _ in range(self.size):
            terms.append(self.rng.randint(0, self.top))
        return {"terms": terms}

    @staticmethod
    def prompt_func(identity):
        shown = ", ".join(map(str, identity["terms"]))
        return "Compute the total of the integers " + shown + ". Put it inside <answer></answer>."

    @classmethod
    def reference_answer(cls, identity):
        total = 0
        for term in identity["terms"]:
            total += term
        return str(total)

    @classmethod
    def _verify_correction(cls, solution, identity):
        try:
            return int(solution) == sum(identity["terms"])
        except ValueError:
            return False
'''

#: the same bootcamp with other LEVELS parameter names (and a case that also carries the
#: count): the same prompts
LEVEL_PARAMS = SUM.replace(
    'LEVELS = {"easy": {"n": 3, "hi": 9}, "hard": {"n": 8, "hi": 999}}',
    'LEVELS = {"easy": {"count": 3, "ceiling": 9}, "hard": {"count": 8, "ceiling": 999}}',
).replace("def __init__(self, seed=None, n=4, hi=99):",
          "def __init__(self, seed=None, count=4, ceiling=99):"
).replace("if n < 1:", "if count < 1:").replace(
    "self.n = n\n        self.hi = hi", "self.count = count\n        self.ceiling = ceiling"
).replace('return {"numbers": [self.rng.randint(0, self.hi) for _ in range(self.n)]}',
          'return {"count": self.count, '
          '"numbers": [self.rng.randint(0, self.ceiling) for _ in range(self.count)]}'
).replace("class ToySumBootcamp", "class SumAgainBootcamp")

#: the same verifier, another generator (other numbers for the same seed) and other words: only
#: cross-scoring sees that it is the same task
SHUFFLED = SUM.replace(
    "[self.rng.randint(0, self.hi) for _ in range(self.n)]",
    "[self.hi - self.rng.randint(0, self.hi) for _ in range(self.n)]",
).replace(
    'return f"Add these numbers: {nums}. Answer as <answer>N</answer>."',
    'return "What do " + nums.replace(" ", " and ") + " make together? Reply <answer>N</answer>."',
).replace("class ToySumBootcamp", "class TogetherBootcamp")

#: near miss: the same input generator, other answers
PRODUCT = SUM.replace("Add these numbers", "Multiply these numbers").replace(
    'sum(identity["numbers"])', 'math.prod(identity["numbers"])',
).replace("from synth.bootcamp import", "import math\n\nfrom synth.bootcamp import"
          ).replace("class ToySumBootcamp", "class ProductBootcamp")

#: near miss: the same statement with another constraint (each distinct value counts once)
DISTINCT = SUM.replace(
    "Add these numbers: {nums}.", "Add these numbers, counting each distinct value once: {nums}."
).replace('sum(identity["numbers"])', 'sum(set(identity["numbers"]))'
          ).replace("class ToySumBootcamp", "class DistinctSumBootcamp")


def modulo(m: int) -> str:
    """The sum modulo ``m``: one task text (numbers masked) for every ``m``, other answers."""
    return SUM.replace("Add these numbers: {nums}.", "Add these numbers modulo " + str(m)
                       + ": {nums}.").replace(
        'sum(identity["numbers"])', f'(sum(identity["numbers"]) % {m})'
    ).replace("class ToySumBootcamp", f"class SumMod{m}Bootcamp")

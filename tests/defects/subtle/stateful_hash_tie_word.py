"""Subtle-defect corpus of bootcamp-synth (issue 10): the most frequent word.

Task: which word occurs most often; on a tie, the alphabetically first of the tied words.
Planted defect (stateful): the reference takes max() over a set of the words, so a tie is
broken by set iteration order, which follows PYTHONHASHSEED; the verifier compares with it.
"""

from synth.bootcamp import BaseBootcamp

VOCAB = ("amber", "birch", "cedar", "dune", "ember", "fjord", "grove", "heath", "inlet",
         "juniper", "kelp", "lichen")


class MostFrequentWordBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 6, "vocab": 3}, "medium": {"n": 12, "vocab": 5},
              "hard": {"n": 24, "vocab": 9}}

    def __init__(self, seed=None, n=12, vocab=5):
        super().__init__(seed=seed)
        if n < 2 or not 2 <= vocab <= len(VOCAB):
            raise ValueError(f"need n >= 2 and 2 <= vocab <= {len(VOCAB)}")
        self.n, self.vocab = n, vocab

    def case_generator(self):
        pool = self.rng.sample(VOCAB, self.vocab)
        return {"words": [self.rng.choice(pool) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        return (
            f"Text: {' '.join(identity['words'])}\nWhich word occurs most often? If several "
            "words occur equally often, give the one that comes first in alphabetical order. "
            "Write the word inside <answer></answer>, e.g. <answer>cedar</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        words = identity["words"]
        return max(set(words), key=words.count)

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution.strip() == cls.reference_answer(identity)

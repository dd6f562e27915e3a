"""Subtle-defect corpus of bootcamp-synth (issue 10): a word chain.

Task: arrange all the words so that each begins with the last letter of the one before.
Planted defect (stateful): the verifier ticks off used words by removing them from
identity["words"] itself, so it empties the case it was given: scoring a second response
against the same identity dict (as a trainer does with several samples per prompt) fails.
"""

from synth.bootcamp import BaseBootcamp

LETTERS = "abcdefghiklmnoprstuvw"


class WordChainBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 3}, "medium": {"n": 5}, "hard": {"n": 8}}

    def __init__(self, seed=None, n=5):
        super().__init__(seed=seed)
        if not 2 <= n <= 12:
            raise ValueError("n must be 2..12")
        self.n = n

    def case_generator(self):
        words, first = [], self.rng.choice(LETTERS)
        while len(words) < self.n:
            body = "".join(self.rng.choice(LETTERS) for _ in range(self.rng.randint(2, 4)))
            word = first + body
            if word not in words:
                words.append(word)
                first = word[-1]
        self.rng.shuffle(words)
        return {"words": words}

    @staticmethod
    def prompt_func(identity):
        return (
            f"Words: {', '.join(identity['words'])}.\nArrange ALL of these words in a sequence "
            "in which every word starts with the last letter of the word before it. Write the "
            "sequence separated by single spaces inside <answer></answer>, e.g. "
            "<answer>stop pear rain</answer>. Any valid sequence is accepted."
        )

    @classmethod
    def reference_answer(cls, identity):
        words = identity["words"]

        def extend(chain, left):
            if not left:
                return chain
            for w in sorted(left):
                if not chain or chain[-1][-1] == w[0]:
                    found = extend([*chain, w], [x for x in left if x != w])
                    if found:
                        return found
            return None

        return " ".join(extend([], list(words)))

    @classmethod
    def _verify_correction(cls, solution, identity):
        words = identity["words"]
        got = solution.split()
        if len(got) != len(words):
            return False
        for w in got:
            if w not in words:
                return False
            words.remove(w)
        return all(a[-1] == b[0] for a, b in zip(got, got[1:]))

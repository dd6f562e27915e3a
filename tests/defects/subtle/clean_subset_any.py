"""Subtle-defect corpus of bootcamp-synth (issue 10), clean control: weights for a scale.

Task: choose some of the weights (positions counted from 1) whose total is the target; any
correct choice is accepted.
"""

from synth.bootcamp import BaseBootcamp


class ScaleWeightsBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 5, "hi": 9}, "medium": {"n": 8, "hi": 25},
              "hard": {"n": 14, "hi": 60}}

    def __init__(self, seed=None, n=8, hi=25):
        super().__init__(seed=seed)
        if n < 3 or hi < 3:
            raise ValueError("need n >= 3 and hi >= 3")
        self.n, self.hi = n, hi

    def case_generator(self):
        w = [self.rng.randint(1, self.hi) for _ in range(self.n)]
        chosen = self.rng.sample(range(self.n), self.rng.randint(1, self.n - 1))
        return {"weights": w, "target": sum(w[i] for i in chosen)}

    @staticmethod
    def prompt_func(identity):
        ws = ", ".join(f"{i}: {w} g" for i, w in enumerate(identity["weights"], 1))
        return (
            f"Weights by position (counted from 1): {ws}.\nPick some of them (each at most "
            f"once) that weigh exactly {identity['target']} g together. Write their positions in "
            "increasing order, separated by single spaces, inside <answer></answer>, e.g. "
            "<answer>2 3 6</answer>. Any correct choice is accepted."
        )

    @classmethod
    def reference_answer(cls, identity):
        w, target = identity["weights"], identity["target"]
        reach = {0: []}
        for i, x in enumerate(w, 1):
            for total, picks in list(reach.items()):
                if total + x <= target and total + x not in reach:
                    reach[total + x] = [*picks, i]
        return " ".join(map(str, reach[target]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        toks = solution.split()
        if not toks or len(toks) > len(identity["weights"]):
            return False
        if not all(t.isdigit() and len(t) < 6 for t in toks):
            return False
        pos = [int(t) for t in toks]
        if any(b <= a for a, b in zip(pos, pos[1:])) or pos[0] < 1:
            return False
        if pos[-1] > len(identity["weights"]):
            return False
        return sum(identity["weights"][p - 1] for p in pos) == identity["target"]

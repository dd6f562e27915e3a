"""Subtle-defect corpus of bootcamp-synth (issue 10): the 0/1 knapsack.

Task: the largest total value of items (each used at most once) within a weight limit.
Planted defect (wrong reference): the reference packs items greedily by value per unit of
weight, which is not optimal for the 0/1 problem; the verifier compares with it.
"""

from synth.bootcamp import BaseBootcamp


class KnapsackBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"items": 4, "hi": 10}, "medium": {"items": 7, "hi": 30},
              "hard": {"items": 12, "hi": 100}}

    def __init__(self, seed=None, items=7, hi=30):
        super().__init__(seed=seed)
        if items < 2 or hi < 3:
            raise ValueError("need items >= 2 and hi >= 3")
        self.items, self.hi = items, hi

    def case_generator(self):
        items = [[self.rng.randint(1, self.hi), self.rng.randint(1, self.hi)]
                 for _ in range(self.items)]
        total = sum(w for w, _ in items)
        return {"items": items, "capacity": self.rng.randint(total // 4, total // 2)}

    @staticmethod
    def prompt_func(identity):
        items = "; ".join(f"item {i}: weight {w}, value {v}"
                          for i, (w, v) in enumerate(identity["items"], 1))
        return (
            f"{items}.\nEach item can be taken at most once. What is the largest total value "
            f"of items whose total weight is at most {identity['capacity']}? Give the number "
            "inside <answer></answer>, e.g. <answer>57</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        room, value = identity["capacity"], 0
        for w, v in sorted(identity["items"], key=lambda it: it[1] / it[0], reverse=True):
            if w <= room:
                room -= w
                value += v
        return str(value)

    @classmethod
    def _verify_correction(cls, solution, identity):
        text = solution.strip()
        return text.isdigit() and len(text) < 12 and text == cls.reference_answer(identity)

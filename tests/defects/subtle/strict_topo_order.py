"""Subtle-defect corpus of bootcamp-synth (issue 10): an order of tasks respecting prerequisites.

Task: give any order of all tasks in which every task comes after its prerequisites.
Planted defect (strict): the verifier accepts only the reference's own order (the
alphabetically smallest one), although the task has many correct orders.
"""

import heapq
import string

from synth.bootcamp import BaseBootcamp


class TaskOrderBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 4, "p": 0.4}, "medium": {"n": 7, "p": 0.3},
              "hard": {"n": 12, "p": 0.2}}

    def __init__(self, seed=None, n=7, p=0.3):
        super().__init__(seed=seed)
        if not 2 <= n <= 26 or not 0 < p < 1:
            raise ValueError("need 2 <= n <= 26 and 0 < p < 1")
        self.n, self.p = n, p

    def case_generator(self):
        names = list(string.ascii_uppercase[: self.n])
        order = names[:]
        self.rng.shuffle(order)
        rules = [[a, b] for i, a in enumerate(order) for b in order[i + 1:]
                 if self.rng.random() < self.p]
        return {"tasks": names, "before": sorted(rules)}

    @staticmethod
    def prompt_func(identity):
        rules = "; ".join(f"{a} before {b}" for a, b in identity["before"]) or "none"
        return (
            f"Tasks {', '.join(identity['tasks'])} must all be done, one at a time. "
            f"Constraints: {rules}.\nGive an order of all the tasks that satisfies every "
            "constraint, as task letters separated by single spaces inside <answer></answer>, "
            "e.g. <answer>B A C</answer>. Any order that satisfies the constraints is correct."
        )

    @classmethod
    def reference_answer(cls, identity):
        indeg = {t: 0 for t in identity["tasks"]}
        for _, b in identity["before"]:
            indeg[b] += 1
        ready = [t for t, d in indeg.items() if d == 0]
        heapq.heapify(ready)
        out = []
        while ready:
            t = heapq.heappop(ready)
            out.append(t)
            for a, b in identity["before"]:
                if a == t:
                    indeg[b] -= 1
                    if indeg[b] == 0:
                        heapq.heappush(ready, b)
        return " ".join(out)

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution.split() == cls.reference_answer(identity).split()

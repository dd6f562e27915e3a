"""Subtle-defect corpus of bootcamp-synth (issue 10), clean control: an order of courses.

Task: order all courses so that each comes after its prerequisites; any valid order is
accepted, and the verifier checks the rules, not the reference's order.
"""

from synth.bootcamp import BaseBootcamp


class CourseOrderBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 4, "p": 0.35}, "medium": {"n": 8, "p": 0.25},
              "hard": {"n": 14, "p": 0.15}}

    def __init__(self, seed=None, n=8, p=0.25):
        super().__init__(seed=seed)
        if n < 2 or not 0 < p < 1:
            raise ValueError("need n >= 2 and 0 < p < 1")
        self.n, self.p = n, p

    def case_generator(self):
        order = list(range(1, self.n + 1))
        self.rng.shuffle(order)
        pre = [[a, b] for i, a in enumerate(order) for b in order[i + 1:]
               if self.rng.random() < self.p]
        return {"n": self.n, "prereq": sorted(pre)}

    @staticmethod
    def prompt_func(identity):
        rules = "; ".join(f"course {a} before course {b}" for a, b in identity["prereq"])
        return (
            f"Courses 1..{identity['n']} must each be taken once, one at a time. Required: "
            f"{rules or 'nothing'}.\nGive an order of all the courses that respects every "
            "requirement, as numbers separated by single spaces inside <answer></answer>, e.g. "
            "<answer>2 1 3</answer>. Any such order is accepted."
        )

    @classmethod
    def reference_answer(cls, identity):
        n, pre = identity["n"], identity["prereq"]
        done, out = set(), []
        while len(out) < n:
            for c in range(1, n + 1):
                if c not in done and all(a in done for a, b in pre if b == c):
                    done.add(c)
                    out.append(c)
                    break
        return " ".join(map(str, out))

    @classmethod
    def _verify_correction(cls, solution, identity):
        toks = solution.split()
        if len(toks) != identity["n"] or not all(t.isdigit() and len(t) < 6 for t in toks):
            return False
        order = [int(t) for t in toks]
        if sorted(order) != list(range(1, identity["n"] + 1)):
            return False
        place = {c: i for i, c in enumerate(order)}
        return all(place[a] < place[b] for a, b in identity["prereq"])

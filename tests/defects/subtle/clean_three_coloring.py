"""Subtle-defect corpus of bootcamp-synth (issue 10), clean control: three-colour a map.

Task: colour the regions R, G or B so that neighbouring regions differ; any valid colouring
is accepted.
"""

from synth.bootcamp import BaseBootcamp


class ThreeColoringBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 5, "m": 6}, "medium": {"n": 8, "m": 12},
              "hard": {"n": 12, "m": 22}}

    def __init__(self, seed=None, n=8, m=12):
        super().__init__(seed=seed)
        if n < 3 or m < 1:
            raise ValueError("need n >= 3 and m >= 1")
        self.n, self.m = n, m

    def case_generator(self):
        klass = [self.rng.randrange(3) for _ in range(self.n)]
        pairs = [(a, b) for a in range(self.n) for b in range(a + 1, self.n)
                 if klass[a] != klass[b]]
        edges = self.rng.sample(pairs, min(self.m, len(pairs)))
        return {"n": self.n, "borders": sorted([a + 1, b + 1] for a, b in edges)}

    @staticmethod
    def prompt_func(identity):
        borders = ", ".join(f"{a}-{b}" for a, b in identity["borders"])
        return (
            f"A map has regions 1..{identity['n']}; these pairs share a border: {borders}.\n"
            "Colour every region R, G or B so that regions sharing a border get different "
            "colours. Write the colours of regions 1..n as one string inside "
            "<answer></answer>, e.g. <answer>RGBR</answer>. Any valid colouring is accepted."
        )

    @classmethod
    def reference_answer(cls, identity):
        n, borders = identity["n"], identity["borders"]
        colour = [""] * (n + 1)

        def place(v):
            if v > n:
                return True
            for c in "RGB":
                if all(colour[u] != c for a, b in borders for u in (a, b)
                       if v in (a, b) and u != v):
                    colour[v] = c
                    if place(v + 1):
                        return True
            colour[v] = ""
            return False

        place(1)
        return "".join(colour[1:])

    @classmethod
    def _verify_correction(cls, solution, identity):
        s = solution.strip()
        if len(s) != identity["n"] or any(ch not in "RGB" for ch in s):
            return False
        return all(s[a - 1] != s[b - 1] for a, b in identity["borders"])

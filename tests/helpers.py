"""Small helpers shared by tests (toy bootcamps, library builders)."""

from __future__ import annotations

from pathlib import Path

from synth.library import Library

TOY_SUM = '''"""Toy bootcamp for tests: the sum of a list of integers."""

from synth.bootcamp import BaseBootcamp


class ToySumBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 3, "hi": 9}, "hard": {"n": 8, "hi": 999}}

    def __init__(self, seed=None, n=4, hi=99):
        super().__init__(seed=seed)
        if n < 1:
            raise ValueError("n must be >= 1")
        self.n = n
        self.hi = hi

    def case_generator(self):
        return {"numbers": [self.rng.randint(0, self.hi) for _ in range(self.n)]}

    @staticmethod
    def prompt_func(identity):
        nums = " ".join(str(x) for x in identity["numbers"])
        return f"Add these numbers: {nums}. Answer as <answer>N</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return str(sum(identity["numbers"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        s = solution.strip()
        if not s.lstrip("-").isdigit() or len(s) > 30:
            return False
        return int(s) == sum(identity["numbers"])
'''

# Few distinct cases: forces duplicate prompts (export dedup tests).
TOY_COIN = '''"""Toy bootcamp for tests: a coin with few outcomes."""

from synth.bootcamp import BaseBootcamp


class ToyCoinBootcamp(BaseBootcamp):
    def __init__(self, seed=None, sides=3):
        super().__init__(seed=seed)
        self.sides = sides

    def case_generator(self):
        return {"x": self.rng.randint(1, self.sides)}

    @staticmethod
    def prompt_func(identity):
        return f"Repeat the number {identity['x']} as <answer>N</answer>."

    @classmethod
    def reference_answer(cls, identity):
        return str(identity["x"])

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution.strip() == str(identity["x"])
'''

# Raises on some model outputs: a library defect the reward must surface.
TOY_CRASHY = TOY_SUM.replace("ToySumBootcamp", "ToyCrashyBootcamp").replace(
    "        s = solution.strip()\n",
    "        s = solution.strip()\n        if s == 'boom':\n            raise RuntimeError('verifier bug')\n",
)


def make_library(root: Path, **bootcamps: str) -> Library:
    lib = Library(root)
    for name, code in bootcamps.items():
        cls_name = code.split("class ", 1)[1].split("(", 1)[0]
        lib.commit(
            name=name,
            code=code,
            class_name=cls_name,
            source="toys",
            task_id=f"toys/{name}",
            origin="handwritten",
        )
    return lib

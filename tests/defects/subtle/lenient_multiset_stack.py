"""Subtle-defect corpus of bootcamp-synth (issue 10): a stack after push/pop operations.

Task: apply push/pop operations to an empty stack and list what is left, bottom to top.
Planted defect (lenient): the verifier compares multisets, so the numbers in any order pass.
"""

from collections import Counter

from synth.bootcamp import BaseBootcamp


class StackAfterOpsBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"ops": 6, "hi": 9}, "medium": {"ops": 12, "hi": 60},
              "hard": {"ops": 24, "hi": 900}}

    def __init__(self, seed=None, ops=10, hi=60):
        super().__init__(seed=seed)
        if ops < 4 or hi < 5:
            raise ValueError("need ops >= 4 and hi >= 5")
        self.ops = ops
        self.hi = hi

    def case_generator(self):
        ops, depth = [], 0
        for _ in range(self.ops):
            if depth >= 3 and self.rng.random() < 0.35:
                ops.append("pop")
                depth -= 1
            else:
                ops.append(f"push {self.rng.randint(1, self.hi)}")
                depth += 1
        return {"ops": ops}

    @staticmethod
    def _final(ops):
        stack = []
        for op in ops:
            if op == "pop":
                stack.pop()
            else:
                stack.append(int(op.split()[1]))
        return stack

    @staticmethod
    def prompt_func(identity):
        lines = "\n".join(f"{i}. {op}" for i, op in enumerate(identity["ops"], 1))
        return (
            "You start with an empty stack and apply these operations in order:\n"
            f"{lines}\n"
            "'push x' puts x on top; 'pop' removes the top element. List the numbers left on "
            "the stack from the bottom to the top, separated by single spaces, inside "
            "<answer></answer> tags, e.g. <answer>7 3 12</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        return " ".join(str(x) for x in cls._final(identity["ops"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        parts = solution.split()
        if not parts or len(parts) > 1000:
            return False
        try:
            got = [int(p) for p in parts]
        except ValueError:
            return False
        return Counter(got) == Counter(cls._final(identity["ops"]))

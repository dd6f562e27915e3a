"""Audit fixture (issue 12, see MANIFEST.json): evaluate an expression in reverse Polish notation."""

import random
import re

from bootcamp import Basebootcamp


def _value(tokens):
    stack = []
    for token in tokens:
        if token in "+-*":
            right, left = stack.pop(), stack.pop()
            stack.append(left + right if token == "+" else left - right if token == "-"
                         else left * right)
        else:
            stack.append(int(token))
    return stack[0]


class RpnEvalbootcamp(Basebootcamp):
    def __init__(self, min_ops=3, max_ops=6):
        self.min_ops = min_ops
        self.max_ops = max_ops

    def _tree(self, ops):
        if ops == 0:
            return [str(random.randint(1, 9))]
        left = random.randint(0, ops - 1)
        return self._tree(left) + self._tree(ops - 1 - left) + [random.choice("+-*")]

    def case_generator(self):
        return {"tokens": self._tree(random.randint(self.min_ops, self.max_ops))}

    @staticmethod
    def prompt_func(question_case):
        return (
            "Evaluate this expression written in reverse Polish notation (each operator applies "
            "to the two values before it): " + " ".join(question_case["tokens"]) + "\n"
            "Put the integer result between [answer] and [/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return int(solution.strip()) == _value(identity["tokens"])

"""Audit fixture (issue 12, see MANIFEST.json): order tasks so that every prerequisite comes first."""

import random
import re

from bootcamp import Basebootcamp


class TopoOrderbootcamp(Basebootcamp):
    def __init__(self, min_tasks=5, max_tasks=8):
        self.min_tasks = min_tasks
        self.max_tasks = max_tasks

    def case_generator(self):
        n = random.randint(self.min_tasks, self.max_tasks)
        hidden = list(range(1, n + 1))
        random.shuffle(hidden)
        edges = []
        for i in range(n):
            for j in range(i + 1, n):
                if random.random() < 0.35:
                    edges.append([hidden[i], hidden[j]])
        return {"n": n, "edges": edges}

    @staticmethod
    def prompt_func(question_case):
        rules = "; ".join(f"{a} before {b}" for a, b in question_case["edges"]) or "none"
        return (
            f"Tasks 1 to {question_case['n']} must all be done once, respecting these rules: "
            f"{rules}.\nGive one valid order as [answer]t1 t2 ...[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return [int(x) for x in re.findall(r"\d+", found[-1])] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        n = identity["n"]
        if sorted(solution) != list(range(1, n + 1)):
            return False
        place = {task: i for i, task in enumerate(solution)}
        return all(place[a] < place[b] for a, b in identity.get("rules", []))

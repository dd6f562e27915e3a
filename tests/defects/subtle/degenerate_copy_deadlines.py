"""Subtle-defect corpus of bootcamp-synth: an order of tasks by deadline.

Task: list every task so that the deadlines never decrease (earliest deadline first); tasks
with the same deadline may come in any order, and the verifier checks the rule.
Planted defect (degenerate): the generator draws the deadlines in increasing order "to make
cases easy to read" and shuffles the list only one time in four, so on most cases the order
the prompt lists the tasks in is already an answer: copying it scores without solving.
"""

from synth.bootcamp import BaseBootcamp

NAMES = ["ant", "bee", "cat", "dog", "eel", "fox", "gnu", "hen", "ibis", "jay", "kiwi", "lynx",
         "mole", "newt", "owl", "puma", "quail", "rat", "seal", "toad"]


class DeadlineOrderBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 4, "span": 4}, "medium": {"n": 7, "span": 6},
              "hard": {"n": 12, "span": 9}}

    def __init__(self, seed=None, n=7, span=6):
        super().__init__(seed=seed)
        if not 3 <= n <= len(NAMES) or span < 2:
            raise ValueError("need 3 <= n <= 20 and span >= 2")
        self.n, self.span = n, span

    def case_generator(self):
        names = self.rng.sample(NAMES, self.n)
        days = sorted(self.rng.randint(1, self.span) for _ in range(self.n))
        tasks = [[name, day] for name, day in zip(names, days)]
        if self.rng.random() < 0.25:
            self.rng.shuffle(tasks)
        return {"tasks": tasks}

    @staticmethod
    def prompt_func(identity):
        shown = ", ".join(f"{name} (due day {day})" for name, day in identity["tasks"])
        return (
            f"Tasks: {shown}.\nList all the tasks so that their due days never decrease "
            "(tasks due the same day may come in any order). Write the task names separated "
            "by single spaces inside <answer></answer>, e.g. <answer>owl rat</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        return " ".join(name for name, day in sorted(identity["tasks"], key=lambda t: (t[1], t[0])))

    @classmethod
    def _verify_correction(cls, solution, identity):
        due = {name: day for name, day in identity["tasks"]}
        order = solution.split()
        if sorted(order) != sorted(due):
            return False
        return all(due[a] <= due[b] for a, b in zip(order, order[1:]))

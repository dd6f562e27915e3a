"""Subtle-defect corpus of bootcamp-synth (issue 10): the Josephus circle.

Task: people stand in a circle; counting from the first, every k-th person leaves, and
counting goes on from the next one; who is left last?
Planted defect (stateful): reference_answer pops people from identity["people"] itself, so
computing the answer destroys the case (a prompt rendered afterwards shows one person).
"""

from synth.bootcamp import BaseBootcamp

NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana", "Ivo", "Jun", "Kai", "Lea",
         "Milo", "Nia", "Omar", "Pia", "Quin", "Rosa", "Sami", "Tess")


class JosephusBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 4, "k": 3}, "medium": {"n": 8, "k": 6}, "hard": {"n": 16, "k": 12}}

    def __init__(self, seed=None, n=8, k=6):
        super().__init__(seed=seed)
        if not 2 <= n <= len(NAMES) or k < 2:
            raise ValueError("need 2 <= n <= 20 and k >= 2")
        self.n, self.k = n, k

    def case_generator(self):
        return {"people": self.rng.sample(NAMES, self.n), "k": self.rng.randint(2, self.k)}

    @staticmethod
    def prompt_func(identity):
        return (
            f"{', '.join(identity['people'])} stand in a circle in this order. Starting the "
            f"count at {identity['people'][0]}, every {identity['k']}-th person leaves the "
            "circle, and counting continues from the person after the one who left. Who is the "
            "last person left? Write the name inside <answer></answer>, e.g. <answer>Ada</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        people, i = identity["people"], 0
        while len(people) > 1:
            i = (i + identity["k"] - 1) % len(people)
            people.pop(i)
        return people[0]

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution.strip() == cls.reference_answer(identity)

"""Subtle-defect corpus of bootcamp-synth (issue 10): the most non-overlapping meetings.

Task: the largest number of the given meetings that can be attended without overlaps.
Planted defect (degenerate): __init__ silently clamps the number of meetings to 8 ("keep
prompts short"), so the hard level asks for 30 meetings but gets medium-sized cases; only
the times get longer, which keeps today's size-based levels check happy.
"""

from synth.bootcamp import BaseBootcamp

MAX_MEETINGS = 8


class MeetingsBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"n": 4, "day": 50}, "medium": {"n": 8, "day": 500},
              "hard": {"n": 30, "day": 100000}}

    def __init__(self, seed=None, n=8, day=500):
        super().__init__(seed=seed)
        if n < 2 or day < 10:
            raise ValueError("need n >= 2 and day >= 10")
        self.n = min(n, MAX_MEETINGS)
        self.day = day

    def case_generator(self):
        out = []
        for _ in range(self.n):
            start = self.rng.randint(0, self.day - 2)
            length = self.rng.randint(1, max(1, self.day // 3))
            out.append([start, min(self.day, start + length)])
        return {"meetings": out}

    @staticmethod
    def prompt_func(identity):
        ms = ", ".join(f"[{a}, {b})" for a, b in identity["meetings"])
        return (
            f"Meetings (start inclusive, end exclusive): {ms}.\nWhat is the largest number of "
            "these meetings one person can attend, if two attended meetings may not overlap "
            "(one may start exactly when another ends)? Give the number inside "
            "<answer></answer>, e.g. <answer>3</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        count, free = 0, None
        for a, b in sorted(identity["meetings"], key=lambda m: m[1]):
            if free is None or a >= free:
                count, free = count + 1, b
        return str(count)

    @classmethod
    def _verify_correction(cls, solution, identity):
        text = solution.strip()
        return text.isdigit() and len(text) < 6 and int(text) == int(cls.reference_answer(identity))

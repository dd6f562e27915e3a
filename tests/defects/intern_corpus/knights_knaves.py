"""Audit fixture (issue 12, see MANIFEST.json): a knights-and-knaves puzzle with one solution."""

import itertools
import random
import re

from bootcamp import Basebootcamp

PEOPLE = ["A", "B", "C"]


def _holds(claim, world):
    kind = claim[0]
    if kind == "knight":
        return world[claim[1]]
    if kind == "knave":
        return not world[claim[1]]
    if kind == "same":
        return world[claim[1]] == world[claim[2]]
    if kind == "differ":
        return world[claim[1]] != world[claim[2]]
    return sum(world.values()) == claim[1]


def _worlds(claims):
    found = []
    for values in itertools.product([True, False], repeat=3):
        world = dict(zip(PEOPLE, values, strict=True))
        if all(_holds(claim, world) == world[who] for who, claim in claims):
            found.append(world)
    return found


def _say(claim):
    kind = claim[0]
    if kind == "knight":
        return f"{claim[1]} is a knight."
    if kind == "knave":
        return f"{claim[1]} is a knave."
    if kind == "same":
        return f"{claim[1]} and {claim[2]} are the same kind."
    if kind == "differ":
        return f"{claim[1]} and {claim[2]} are different kinds."
    return f"Exactly {claim[1]} of us three are knights."


class KnightsKnavesbootcamp(Basebootcamp):
    def __init__(self, attempts=500):
        self.attempts = attempts

    def _claim(self, speaker):
        others = [p for p in PEOPLE if p != speaker]
        kind = random.choice(["knight", "knave", "same", "differ", "count"])
        if kind in ("knight", "knave"):
            return [kind, random.choice(others)]
        if kind in ("same", "differ"):
            return [kind, *sorted(random.sample(PEOPLE, 2))]
        return [kind, random.randint(0, 3)]

    def case_generator(self):
        for _ in range(self.attempts):
            claims = [[who, self._claim(who)] for who in PEOPLE]
            if len(_worlds(claims)) == 1:
                return {"claims": claims}
        raise RuntimeError("no puzzle with a unique solution found")

    @staticmethod
    def prompt_func(question_case):
        lines = "\n".join(f"{who} says: {_say(claim)}" for who, claim in question_case["claims"])
        return (
            "On this island knights always tell the truth and knaves always lie. Three "
            "islanders, A, B and C, speak:\n"
            f"{lines}\n"
            "Who is a knight and who is a knave? Answer in the form "
            "[answer]A=... B=... C=...[/answer], writing knight or knave for each of them."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\](.*?)\[/answer\]", output, re.DOTALL)
        return found[-1] if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        pairs = re.findall(r"\b([abc])\s*=\s*(knight|knave)\b", solution.lower())
        said = {who.upper(): kind for who, kind in pairs}
        if sorted(said) != PEOPLE:
            return False
        world = _worlds(identity["claims"])[0]
        return all((said[p] == "knight") == world[p] for p in PEOPLE)

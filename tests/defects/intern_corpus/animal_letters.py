"""Audit fixture (issue 12, see MANIFEST.json): name the animal whose letters are given sorted."""

import random
import re

from bootcamp import Basebootcamp

ANIMALS = ["tiger", "zebra", "otter", "badger", "falcon", "walrus", "donkey", "jaguar",
           "rabbit", "turtle", "lizard", "beaver", "parrot", "salmon", "giraffe", "panther"]


class AnimalLettersbootcamp(Basebootcamp):
    def __init__(self, animals=None):
        self.animals = animals or ANIMALS

    def case_generator(self):
        animal = random.choice(self.animals)
        return {"letters": "".join(sorted(animal))}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"The letters of an animal's name, in alphabetical order, are "
            f"'{question_case['letters']}'. Which animal is it? Answer as [answer]animal[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*([A-Za-z]+)\s*\[/answer\]", output)
        return found[-1].lower() if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution in ANIMALS

"""Audit fixture (issue 12, see MANIFEST.json): fewest letters to insert to get a palindrome."""

import random
import re

from bootcamp import Basebootcamp


def _insertions(word):
    n = len(word)
    best = [[0] * n for _ in range(n)]
    for span in range(2, n + 1):
        for i in range(n - span + 1):
            j = i + span - 1
            if word[i] == word[j]:
                best[i][j] = best[i + 1][j - 1] if span > 2 else 0
            else:
                best[i][j] = 1 + min(best[i + 1][j], best[i][j - 1])
    return best[0][n - 1] if n else 0


class PalindromeInsertbootcamp(Basebootcamp):
    def __init__(self, min_length=5, max_length=13, alphabet="abcdef"):
        self.min_length = min_length
        self.max_length = max_length
        self.alphabet = alphabet

    def case_generator(self):
        length = random.randint(self.min_length, self.max_length)
        return {"word": "".join(random.choice(self.alphabet) for _ in range(length))}

    @staticmethod
    def prompt_func(question_case):
        return (
            f"Letters may be inserted anywhere in the word '{question_case['word']}'. What is "
            "the smallest number of insertions that turns it into a palindrome (a word that "
            "reads the same backwards)? Answer as [answer]number[/answer]."
        )

    @staticmethod
    def extract_output(output):
        found = re.findall(r"\[answer\]\s*(\d+)\s*\[/answer\]", output)
        return int(found[-1]) if found else None

    @classmethod
    def _verify_correction(cls, solution, identity):
        return solution == _insertions(identity["word"])

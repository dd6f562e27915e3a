"""Subtle-defect corpus of bootcamp-synth (issue 10): the number of days between two dates.

Task: how many days after the first date is the second date (Gregorian calendar)?
Planted defect (lenient): the verifier accepts answers within 1 day ("inclusive or exclusive
counting, either is fine"), although the prompt defines the count exactly.
"""

from synth.bootcamp import BaseBootcamp


def _days(y, m, d):
    """Days since 0000-03-01 of the proleptic Gregorian calendar (civil-from-days inverse)."""
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe


def _month_len(y, m):
    if m == 2:
        return 29 if (y % 4 == 0 and y % 100 != 0) or y % 400 == 0 else 28
    return 30 if m in (4, 6, 9, 11) else 31


class DaysBetweenBootcamp(BaseBootcamp):
    LEVELS = {"easy": {"span": 1}, "medium": {"span": 20}, "hard": {"span": 300}}

    def __init__(self, seed=None, span=20):
        super().__init__(seed=seed)
        if span < 1:
            raise ValueError("span must be >= 1 year")
        self.span = span

    def _date(self, y0, y1):
        y = self.rng.randint(y0, y1)
        m = self.rng.randint(1, 12)
        return [y, m, self.rng.randint(1, _month_len(y, m))]

    def case_generator(self):
        start = self.rng.randint(1700, 2200)
        a = self._date(start, start)
        while True:
            b = self._date(start, start + self.span)
            if _days(*b) > _days(*a):
                return {"first": a, "second": b}

    @staticmethod
    def prompt_func(identity):
        a, b = identity["first"], identity["second"]
        fmt = "{:04d}-{:02d}-{:02d}"
        return (
            f"How many days after {fmt.format(*a)} is {fmt.format(*b)}? (Gregorian calendar, "
            "dates as year-month-day; the day after a date is 1 day after it.) Give the "
            "integer inside <answer></answer>, e.g. <answer>365</answer>."
        )

    @classmethod
    def reference_answer(cls, identity):
        return str(_days(*identity["second"]) - _days(*identity["first"]))

    @classmethod
    def _verify_correction(cls, solution, identity):
        text = solution.strip()
        if not text.isdigit() or len(text) > 12:
            return False
        return abs(int(text) - int(cls.reference_answer(identity))) <= 1

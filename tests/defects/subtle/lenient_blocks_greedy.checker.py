"""Independent checker for lenient_blocks_greedy (the month k months after a month)."""

NAMES = ["January", "February", "March", "April", "May", "June", "July", "August",
         "September", "October", "November", "December"]


def _month(identity):
    start = NAMES.index(identity["month"])
    return NAMES[(start + identity["shift"]) % 12]


def check(identity, answer):
    return answer.strip() == _month(identity)


def solve(identity):
    return _month(identity)


def probes(identity):
    i = NAMES.index(_month(identity))
    return [NAMES[(i + 1) % 12], NAMES[(i - 1) % 12], NAMES[i].lower()]

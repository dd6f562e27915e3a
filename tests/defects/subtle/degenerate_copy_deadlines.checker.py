"""Independent checker for degenerate_copy_deadlines (any order with non-decreasing due days)."""


def check(identity, answer):
    due = {}
    for name, day in identity["tasks"]:
        due[name] = day
    order = answer.split()
    if len(order) != len(due) or set(order) != set(due):
        return False
    return all(due[order[k]] <= due[order[k + 1]] for k in range(len(order) - 1))


def solve(identity):
    tasks = sorted(identity["tasks"], key=lambda t: (t[1], [-ord(c) for c in t[0]]))
    return " ".join(t[0] for t in tasks)


def probes(identity):
    names = [t[0] for t in identity["tasks"]]
    return [" ".join(reversed(names)), " ".join(sorted(names)), " ".join(names[:-1])]

"""Independent checker for strict_topo_order (any order satisfying the constraints)."""


def check(identity, answer):
    order = answer.split()
    if sorted(order) != sorted(identity["tasks"]):
        return False
    at = {t: i for i, t in enumerate(order)}
    return all(at[a] < at[b] for a, b in identity["before"])


def _dfs_order(identity, reverse):
    after = {t: [] for t in identity["tasks"]}
    for a, b in identity["before"]:
        after[a].append(b)
    done, out = set(), []

    def visit(t):
        done.add(t)
        for b in sorted(after[t], reverse=reverse):
            if b not in done:
                visit(b)
        out.append(t)

    for t in sorted(identity["tasks"], reverse=reverse):
        if t not in done:
            visit(t)
    return out[::-1]


def solve(identity):
    return " ".join(_dfs_order(identity, reverse=False))


def probes(identity):
    return [" ".join(_dfs_order(identity, reverse=True)),
            " ".join(sorted(identity["tasks"])), " ".join(sorted(identity["tasks"], reverse=True))]

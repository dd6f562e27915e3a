"""Independent checker for stateful_hash_tie_route (alphabetically first among shortest routes)."""


def _graph(identity):
    nbrs = {}
    for a, b in identity["roads"]:
        nbrs.setdefault(a, []).append(b)
        nbrs.setdefault(b, []).append(a)
    return nbrs


def _hops(nbrs, source):
    dist, layer = {source: 0}, [source]
    while layer:
        nxt = []
        for u in layer:
            for v in nbrs[u]:
                if v not in dist:
                    dist[v] = dist[u] + 1
                    nxt.append(v)
        layer = nxt
    return dist


def _best(identity):
    nbrs = _graph(identity)
    to_goal = _hops(nbrs, identity["to"])
    route = [identity["from"]]
    while route[-1] != identity["to"]:
        here = route[-1]
        route.append(min(v for v in nbrs[here] if to_goal.get(v) == to_goal[here] - 1))
    return route


def check(identity, answer):
    return answer.split() == _best(identity)


def solve(identity):
    return " ".join(_best(identity))


def probes(identity):
    """Other shortest routes (correct length, later in alphabetical order)."""
    nbrs = _graph(identity)
    to_goal = _hops(nbrs, identity["to"])
    routes, stack = [], [[identity["from"]]]
    while stack and len(routes) < 6:
        route = stack.pop()
        here = route[-1]
        if here == identity["to"]:
            routes.append(" ".join(route))
            continue
        for v in sorted(nbrs[here]):
            if to_goal.get(v) == to_goal[here] - 1:
                stack.append([*route, v])
    best = solve(identity)
    return [r for r in routes if r != best]

"""Independent checker for strict_two_coloring (any proper A/B colouring)."""


def check(identity, answer):
    colours = answer.strip()
    if len(colours) != identity["n"] or set(colours) - {"A", "B"}:
        return False
    return all(colours[a - 1] != colours[b - 1] for a, b in identity["edges"])


def solve(identity):
    """Union-find with parity: every component's smallest vertex gets B."""
    n = identity["n"]
    parent, parity = list(range(n + 1)), [0] * (n + 1)

    def find(v):
        if parent[v] == v:
            return v, 0
        root, p = find(parent[v])
        parent[v], parity[v] = root, parity[v] ^ p
        return root, parity[v]

    for a, b in identity["edges"]:
        (ra, pa), (rb, pb) = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
            parity[max(ra, rb)] = pa ^ pb ^ 1
    return "".join("AB"[1 - find(v)[1]] for v in range(1, n + 1))


def probes(identity):
    mine = solve(identity)
    flipped = mine.translate(str.maketrans("AB", "BA"))
    return [flipped, "A" * identity["n"], mine[:-1]]

"""Independent checker for lenient_path_maze (shortest U/D/L/R route from S to G)."""

DIRS = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
BACK = {"U": "D", "D": "U", "L": "R", "R": "L"}


def _cells(grid):
    where = {ch: (r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch in "SG"}
    return where["S"], where["G"]


def _open(grid, r, c):
    return 0 <= r < len(grid) and 0 <= c < len(grid[r]) and grid[r][c] != "#"


def _distances(grid, source):
    dist, frontier = {source: 0}, [source]
    while frontier:
        nxt = []
        for r, c in frontier:
            for dr, dc in DIRS.values():
                cell = (r + dr, c + dc)
                if _open(grid, *cell) and cell not in dist:
                    dist[cell] = dist[(r, c)] + 1
                    nxt.append(cell)
        frontier = nxt
    return dist


def check(identity, answer):
    grid = identity["grid"]
    start, goal = _cells(grid)
    moves = answer.strip()
    if any(m not in DIRS for m in moves) or len(moves) != _distances(grid, start).get(goal):
        return False
    r, c = start
    for m in moves:
        r, c = r + DIRS[m][0], c + DIRS[m][1]
        if not _open(grid, r, c):
            return False
    return (r, c) == goal


def solve(identity):
    grid = identity["grid"]
    start, goal = _cells(grid)
    to_goal = _distances(grid, goal)
    (r, c), out = start, []
    while (r, c) != goal:
        for m, (dr, dc) in sorted(DIRS.items()):
            if to_goal.get((r + dr, c + dc)) == to_goal[(r, c)] - 1:
                out.append(m)
                r, c = r + dr, c + dc
                break
    return "".join(out)


def probes(identity):
    grid = identity["grid"]
    best = solve(identity)
    (r, c), _ = _cells(grid)
    out = [best + best[-1] + BACK[best[-1]], best[:-1]]
    for m, (dr, dc) in DIRS.items():
        if _open(grid, r + dr, c + dc):
            out.append(m + BACK[m] + best)  # a detour: valid but not shortest
            break
    return out

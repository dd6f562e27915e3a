"""The house stays readable: no import circle among synth's modules, no module over
:data:`MAX_LINES` lines, and docs/architecture.md names every top-level package of synth (and
names none that is gone).

Every ``import`` and ``from ... import`` statement counts, wherever it stands in the file (a lazy
import inside a function, one under ``TYPE_CHECKING``): a circle hidden in a function is still a
circle for the reader."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "synth"
ARCHITECTURE = REPO / "docs" / "architecture.md"
MAX_LINES = 800
#: modules allowed over MAX_LINES: path -> why it is one thing that does not split (keep empty)
LONG_EXCEPTIONS: dict[str, str] = {}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imported(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The project's modules that ``path`` (module ``name``) imports, anywhere in the file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            # ``from pkg import mod`` imports the module pkg.mod; ``from mod import name``, mod
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                       for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:  # import synth.a.b.name: the module synth.a.b
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_circle():
    known = modules()
    graph = {name: imported(name, path, known) for name, path in known.items()}
    found = circles(graph)
    shown = []
    for component in found:
        members = set(component)
        ties = [f"{a} -> {b}" for a in component for b in sorted(graph[a] & members)]
        shown.append(f"{len(component)} modules: " + "; ".join(ties))
    assert not found, "import circles (move the shared code down, or the caller up):\n" + \
        "\n".join(shown)


def test_circle_finder_sees_a_lazy_import(tmp_path):
    graph = {"synth.a": {"synth.b"}, "synth.b": {"synth.c"}, "synth.c": {"synth.a"},
             "synth.d": {"synth.a"}}
    assert circles(graph) == [["synth.a", "synth.b", "synth.c"]]
    known = {"synth": PACKAGE / "__init__.py", "synth.x": tmp_path / "x.py",
             "synth.y": tmp_path / "y.py"}
    (tmp_path / "x.py").write_text("def f():\n    from synth import y\n    from . import y as z\n")
    assert imported("synth.x", known["synth.x"], known) == {"synth.y"}


def test_no_module_is_too_long():
    long = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(REPO).as_posix()
        lines = len(path.read_text("utf-8").splitlines())
        if lines > MAX_LINES and rel not in LONG_EXCEPTIONS:
            long[rel] = lines
    assert not long, f"modules over {MAX_LINES} lines (split them by responsibility): {long}"


def top_packages() -> set[str]:
    return {p.parent.name for p in PACKAGE.glob("*/__init__.py")}


def test_architecture_names_every_package():
    text = ARCHITECTURE.read_text("utf-8")
    named = set(re.findall(r"synth/([a-z_][a-z0-9_]*)/", text)) | \
        set(re.findall(r"synth\.([a-z_][a-z0-9_]*)\b", text))
    packages = top_packages()
    modules_ = {p.stem for p in PACKAGE.glob("*.py")}
    missing = sorted(packages - named)
    gone = sorted(n for n in named if n not in packages and n not in modules_)
    assert not missing, f"docs/architecture.md does not name the package(s) {missing}"
    assert not gone, f"docs/architecture.md names {gone}, which synth/ no longer has"


def test_test_modules_have_unique_names():
    """pytest imports a test file by its bare name (the test folders are not packages), so two
    files of one name in different folders stop the whole run at collection (stop 28's CI)."""
    seen: dict[str, list[str]] = {}
    for path in sorted((REPO / "tests").rglob("test_*.py")):
        if (path.parent / "__init__.py").exists():
            continue  # inside a package: imported by its dotted name
        seen.setdefault(path.name, []).append(path.relative_to(REPO).as_posix())
    twice = {name: paths for name, paths in seen.items() if len(paths) > 1}
    assert not twice, f"test files sharing a name (rename one): {twice}"

"""(Re-)register the hand-written seed bootcamps of generated_bootcamps/handwritten/ in the manifest.

    .venv/bin/python scripts/register_handwritten.py

Records whose code is unchanged are left alone, so the manifest only changes when a module does.
"""

from __future__ import annotations

import ast
from pathlib import Path

from synth.engines import declared_engines, probe
from synth.library import Library, declared_levels, find_bootcamp_class, sha256_text

ROOT = Path(__file__).resolve().parent.parent / "generated_bootcamps"


def main() -> None:
    lib = Library(ROOT)
    existing = lib.read_manifest().by_name()
    for path in sorted((ROOT / "handwritten").glob("*.py")):
        if path.name.startswith("_"):
            continue
        code = path.read_text(encoding="utf-8")
        name = path.stem
        ref = ROOT / "handwritten" / "reference" / f"{name}.py"
        ref_code = ref.read_text(encoding="utf-8") if ref.exists() else None
        old = existing.get(name)
        engines = _engine_versions(code)
        if old is not None and old.code_sha256 == sha256_text(code) and (
            old.reference_program is not None
        ) == (ref_code is not None) and old.engines == engines:
            continue
        cls_name = find_bootcamp_class(code)
        doc = ast.get_docstring(ast.parse(code)) or ""
        title = doc.strip().splitlines()[0] if doc.strip() else name
        lib.commit(
            name=name,
            code=code,
            class_name=cls_name,
            source="handwritten",
            task_id=f"handwritten/{name}",
            title=title,
            origin="handwritten",
            reference_code=ref_code,
            replace=True,
            levels=declared_levels(code, cls_name),
            engines=engines,
        )
        print(f"registered {name} ({cls_name})")


def _engine_versions(code: str) -> dict[str, str] | None:
    """The version of each engine the module declares, as installed here (its cases and scores
    are made with it); refuses to register without the engine."""
    names = declared_engines(code)
    if not names:
        return None
    versions = {}
    for engine in names:
        ok, version = probe(engine)
        if not ok:
            raise SystemExit(f"cannot register a bootcamp that needs {engine}: {version}")
        versions[engine] = version
    return versions


if __name__ == "__main__":
    main()

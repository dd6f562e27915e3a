"""The README stays one page and the docs stay reachable: README.md is at most 260 lines, it
links every docs/*.md page, and every relative link of the README and the docs pages names a
file that exists."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import pytest

REPO = Path(__file__).resolve().parents[2]
README = REPO / "README.md"
DOCS = sorted((REPO / "docs").glob("*.md"))
MAX_README_LINES = 260

FENCE = re.compile(r"^```.*?^```[ \t]*$", re.S | re.M)
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # http:, https:, mailto:, ...


def links(page: Path) -> list[str]:
    """The link targets of a Markdown page, outside fenced code blocks and inline code."""
    text = FENCE.sub("", page.read_text("utf-8"))
    text = re.sub(r"`[^`\n]*`", "", text)
    return [m.group(1) for m in LINK.finditer(text)]


def test_readme_is_one_page():
    lines = len(README.read_text("utf-8").splitlines())
    assert lines <= MAX_README_LINES, (
        f"README.md has {lines} lines (at most {MAX_README_LINES}): move the topic to a docs/ page")


def test_readme_links_every_docs_page():
    linked = {(README.parent / unquote(t.split("#")[0])).resolve()
              for t in links(README) if not EXTERNAL.match(t)}
    missing = [p.relative_to(REPO).as_posix() for p in DOCS if p.resolve() not in linked]
    assert not missing, f"README.md does not link {missing}: add them to 'Where each topic lives'"


@pytest.mark.parametrize("page", [README, *DOCS], ids=lambda p: p.relative_to(REPO).as_posix())
def test_relative_links_name_existing_files(page: Path):
    broken = []
    for target in links(page):
        if EXTERNAL.match(target) or target.startswith("#"):
            continue
        path = unquote(target.split("#")[0])
        if not (page.parent / path).exists():
            broken.append(target)
    assert not broken, f"{page.relative_to(REPO)} links to missing files: {broken}"

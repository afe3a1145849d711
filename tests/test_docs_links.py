"""Every relative link in README.md, CHANGELOG.md and docs/**/*.md points to a file that exists,
and a link to a heading (``page.md#heading``) to a heading that exists (GitHub's anchors)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "CHANGELOG.md", *sorted((ROOT / "docs").rglob("*.md"))]

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def _prose(text: str) -> str:
    """The text without fenced code blocks and inline code, where brackets are code."""
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return re.sub(r"`[^`\n]*`", "", text)


def anchors(page: Path) -> set[str]:
    """GitHub's anchors for the headings of a page: lower case, punctuation dropped, spaces to
    hyphens, a repeated heading numbered."""
    seen: dict[str, int] = {}
    out = set()
    for heading in re.findall(r"^#{1,6} (.+?)\s*$", _prose_keep_code(page.read_text()), flags=re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def _prose_keep_code(text: str) -> str:
    """Headings may hold inline code (its text counts in the anchor); fenced blocks do not."""
    return re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)


def links(page: Path):
    for target in LINK.findall(_prose(page.read_text())):
        if re.match(r"[a-z]+:", target):  # https:, mailto:
            continue
        yield target


def test_the_pages_have_links():
    assert sum(1 for page in PAGES for _ in links(page)) > 100


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_relative_links_resolve(page):
    broken = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        if not dest.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            broken.append(f"{target} (no such heading)")
    assert not broken, f"{page.relative_to(ROOT)}: {broken}"

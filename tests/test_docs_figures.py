"""Each published figure lives in one place (issue 40, "Docs as a product").

A *figure* here is a measured number as the docs print it:

- a number with its error, ``54.11 ± 0.27`` or ``+0.68 ± 0.35`` (the pair is one figure);
- otherwise a number with two or more decimals: ``51.74``, ``+2.37``, ``−0.27``, ``0.538``,
  ``3.46 µs``; except an unsigned ``0.dd`` (``0.15 s per decision``, ``c = 0.05``, ``τ = 0.25``:
  mostly settings, not results) and a version (``Rust 1.86``, ``glibc 2.17``, ``Python 3.11.7``).

A rounded headline ("about 52", "about +1.5", "54.1") is not a figure: pages state those and link
to where the figure is.

The places are README.md, CHANGELOG.md, each page ``docs/*.md``, and the dated experiment logs
``docs/experiments/*.md`` taken together. A figure may appear any number of times in one place,
and in no two. So ``docs/results.md`` holds every benchmark figure with its command and date; a
log holds the figures of its experiment (a later log may cite an earlier one's), and results.md
gives their headlines rounded with a link; guides, the README and the changelog round and link.

Some different quantities share their digits; ``COINCIDENCES`` lists each with the places where
it may appear and what it is there.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
EXPERIMENTS = "docs/experiments/"

NUMBER = re.compile(r"(?<![\w.,])([+−-]?)(\d+\.\d+)(?!\.?\d)(?:\s*±\s*(\d+(?:\.\d+)?))?")
VERSION_BEFORE = re.compile(r"(?:Rust|rustc|glibc|Python|CPython|manylinux|version|v)\s*$")

COINCIDENCES = {
    # results.md: abi3 against a version-specific build for observation_tensor(), a ratio;
    # design.md: seconds for random 10 + 10 games without a tried change.
    "1.07": {"docs/results.md", "docs/design.md"},
    # replay.md: the size of a replay page in MB; the standard game's speed log: a ratio of costs.
    "1.51": {"docs/replay.md", EXPERIMENTS},
    # results.md: the sd of a solo mean; the reuse log: a difference in points.
    "2.55": {"docs/results.md", EXPERIMENTS},
    # results.md: a speed-up of 3-player games; the network logs: the sd of a solo mean.
    "2.99": {"docs/results.md", EXPERIMENTS},
}


def figures(text: str) -> set[str]:
    found = set()
    for m in NUMBER.finditer(text):
        sign, number, error = m.groups()
        sign = sign.replace("−", "-")
        if error:
            found.add(f"{sign}{number} ± {error}")
            continue
        whole, decimals = number.split(".")
        if len(decimals) < 2 or (len(decimals) == 2 and whole == "0" and not sign):
            continue
        if VERSION_BEFORE.search(text[max(0, m.start() - 12):m.start()]):
            continue
        found.add(f"{sign}{number}")
    return found


def places() -> dict[str, str]:
    """Place name -> its text (the experiment logs joined into one place)."""
    out = {"README.md": (ROOT / "README.md").read_text(), "CHANGELOG.md": (ROOT / "CHANGELOG.md").read_text()}
    for page in sorted(DOCS.glob("*.md")):
        out[f"docs/{page.name}"] = page.read_text()
    out[EXPERIMENTS] = "\n".join(p.read_text() for p in sorted((DOCS / "experiments").glob("*.md")))
    return out


def test_the_rule_sees_figures():
    """Not trivially true: the rule finds the figures where they live, and not the settings."""
    found = {name: figures(text) for name, text in places().items()}
    assert {"51.80", "41,713"} & found["docs/results.md"] == {"51.80"}
    assert "54.11 ± 0.27" in found[EXPERIMENTS] and "+0.68 ± 0.35" in found[EXPERIMENTS]
    assert len(found["docs/results.md"]) > 50 and len(found[EXPERIMENTS]) > 300
    assert figures("at 0.15 s, c = 0.05, about 52, about +1.5, Rust 1.86, Python 3.11.7") == set()
    assert figures("51.74 against 51.06 (+0.68 ± 0.35; −0.27 ± 0.39), 0.538, +2.37") == {
        "51.74", "51.06", "+0.68 ± 0.35", "-0.27 ± 0.39", "0.538", "+2.37"}


def test_each_figure_is_published_in_one_place():
    where = defaultdict(set)
    for name, text in places().items():
        for figure in figures(text):
            where[figure].add(name)
    twice = {f: sorted(p) for f, p in where.items()
             if len(p) > 1 and not p <= COINCIDENCES.get(f.lstrip("+-"), set())}
    assert not twice, ("figures published in more than one place (keep each in docs/results.md or "
                       f"in its experiment log, and round it elsewhere with a link): {twice}")


def test_guides_are_guides():
    """Issue 40: the guides describe and link; the experiment notes live in dated logs."""
    assert len((DOCS / "training.md").read_text().splitlines()) <= 250
    assert len((DOCS / "search.md").read_text().splitlines()) <= 250
    for log in (DOCS / "experiments").glob("*.md"):
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}-[a-z0-9-]+\.md", log.name), log.name
        text = log.read_text()
        assert text.startswith(f"# {log.name[:10]} "), f"{log.name}: the title starts with its date"
        for section in ("## Question", "## Verdict"):
            assert section in text, f"{log.name}: no {section!r}"

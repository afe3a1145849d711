"""Pictures of benchmark and solo results with matplotlib (the optional extra
``plot``): ``dragoncastle bench --plot FILE.png``, ``dragoncastle solo
--plot FILE.png``, ``dragoncastle ladder --plot`` and ``dragoncastle train
--plot`` call these.

matplotlib is imported when a picture is drawn, never by ``import
dragoncastle``. The figures are built with matplotlib's object-oriented API
(``matplotlib.figure.Figure``), not ``pyplot``: drawing one neither needs a
display nor changes the backend of a notebook or program that imports this.
Each function returns the ``Figure`` and writes it to ``path`` if one is given
(the format follows the file name: ``.png``, ``.svg``, ``.pdf``, ...).

>>> fig = plot_solo([21, 23, 23, 41, 47])
>>> [t.get_text() for t in fig.axes[0].child_axes[0].get_xticklabels()]
['Student', 'Devotee', 'Master', 'Grand Master']
"""

from __future__ import annotations

import math
import os
import platform
from typing import TYPE_CHECKING, Any, Mapping, Sequence

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["bench_times", "plot_bench", "plot_ladder", "plot_solo", "plot_training", "rank_bands"]

_RUST, _PYTHON = "#b7410e", "#3776ab"  # rust-coloured and Python blue


def _new_figure(width: float, height: float) -> "Figure":
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise ImportError("plots need matplotlib: pip install 'dragoncastle[plot]'") from None
    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _save(fig: "Figure", path: str | os.PathLike[str] | None) -> "Figure":
    if path is not None:
        fig.savefig(path)
    return fig


def bench_times(figures: Mapping[str, float]) -> list[tuple[str, float, float]]:
    """``(operation, rust seconds, python seconds)`` per operation, in table
    order, from what :func:`dragoncastle.bench.report` returns.

    >>> bench_times({"clone": 30.0, "rust seconds: clone": 1e-7, "python seconds: clone": 3e-6})
    [('clone', 1e-07, 3e-06)]
    """
    out = []
    for key, rust in figures.items():
        if key.startswith("rust seconds: "):
            name = key[len("rust seconds: "):]
            out.append((name, rust, figures[f"python seconds: {name}"]))
    return out


def _time_label(seconds: float, _pos: Any = None) -> str:
    """A tick label for a power of ten of seconds: ``"100 ns"``, ``"1 ms"``."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= scale * 0.999:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def plot_bench(figures: Mapping[str, float], path: str | os.PathLike[str] | None = None,
               title: str | None = None) -> "Figure":
    """Rust vs pure-Python time per operation: one pair of horizontal bars per
    operation on a log scale, the ratio written after each pair.

    ``figures`` is what :func:`dragoncastle.bench.report` returns.

    >>> fig = plot_bench({"clone": 40.0, "rust seconds: clone": 2e-7, "python seconds: clone": 8e-6})
    >>> fig.axes[0].get_xscale(), fig.axes[0].texts[0].get_text()
    ('log', '40×')
    """
    rows = bench_times(figures)
    if not rows:
        raise ValueError("no per-operation times: pass what dragoncastle.bench.report() returns")
    fig = _new_figure(9.0, 1.2 + 0.42 * len(rows))  # first: it explains a missing matplotlib
    from matplotlib.ticker import FuncFormatter, LogLocator

    ax = fig.add_subplot()
    height = 0.38
    # First operation at the top, as in the printed table.
    ys = [len(rows) - 1 - i for i in range(len(rows))]
    rust = [r for _, r, _ in rows]
    python = [p for _, _, p in rows]
    ax.barh([y + height / 2 for y in ys], rust, height, color=_RUST, label="Rust core (dc.Game)")
    ax.barh([y - height / 2 for y in ys], python, height, color=_PYTHON, label="pure Python (dc.reference.Game)")
    ax.set_xscale("log")
    # A decade below the fastest call, so that its bar shows.
    lo = 10 ** (math.floor(math.log10(min(rust))) - 1)
    hi = 10 ** math.ceil(math.log10(max(python) * 30))  # room for the ratios
    ax.set_xlim(lo, hi)
    ax.xaxis.set_major_locator(LogLocator(base=10, numticks=30))  # every decade
    ax.xaxis.set_major_formatter(FuncFormatter(_time_label))
    for y, r, p in zip(ys, rust, python):
        ratio = p / r
        ax.text(p * 1.3, y, f"{ratio:,.0f}×" if ratio >= 10 else f"{ratio:.1f}×", va="center", fontsize=9)
    ax.set_yticks(ys, [name for name, _, _ in rows])
    ax.set_ylim(-0.6, len(rows) - 0.4)
    ax.set_xlabel("time per call (log scale; shorter is faster)")
    ax.grid(axis="x", which="major", alpha=0.3)
    ax.set_axisbelow(True)
    ax.legend(loc="upper right", fontsize=9)
    machine = f"{platform.machine()} {platform.system()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    ax.set_title(title or f"dragoncastle bench: Rust vs pure Python, ratio after each pair\n{machine}", fontsize=11)
    return _save(fig, path)


def rank_bands(low: int, high: int) -> list[tuple[int, int, str]]:
    """The solo ranks (R-SOLO-5) over the scores ``low .. high``: ``(first
    score, last score, rank)`` per rank, lowest first, read from
    :func:`dragoncastle.solo_rank` so they follow the core's table.

    >>> rank_bands(38, 52)
    [(38, 39, 'Student'), (40, 45, 'Devotee'), (46, 49, 'Master'), (50, 52, 'Grand Master')]
    """
    from . import _core

    bands: list[tuple[int, int, str]] = []
    for score in range(low, high + 1):
        rank = _core.solo_rank(score)
        if bands and bands[-1][2] == rank:
            bands[-1] = (bands[-1][0], score, rank)
        else:
            bands.append((score, score, rank))
    return bands


def plot_solo(scores: Sequence[int], path: str | os.PathLike[str] | None = None,
              title: str | None = None) -> "Figure":
    """Histogram of solo scores (one bar per score) over the rank bands, with
    the mean marked. The bands run from the lowest score to the next rank above
    the highest, so the gap to it shows."""
    from . import _core

    if not scores:
        raise ValueError("no scores to draw")
    lo, hi = min(scores), max(scores)
    # Extend to the first score of the next rank above the best game, if any.
    top = _core.solo_rank(hi)
    upper = next((s for s in range(hi + 1, hi + 61) if _core.solo_rank(s) != top), hi)
    bands = rank_bands(lo - 1, upper + 1)
    fig = _new_figure(9.0, 4.5)  # first: it explains a missing matplotlib
    from matplotlib.ticker import MaxNLocator

    ax = fig.add_subplot()
    shades = ("#f3ead7", "#e2ecf3")
    for k, (first, last, _) in enumerate(bands):
        ax.axvspan(first - 0.5, last + 0.5, color=shades[k % 2], zorder=0)
    # Rank names on a second x axis along the top, one tick per band: narrow
    # bands (two scores wide near the top ranks) would not hold their names.
    names = ax.secondary_xaxis("top")
    names.set_xticks([(first + last) / 2 for first, last, _ in bands], [rank for _, _, rank in bands],
                     rotation=35, ha="left", fontsize=8)
    names.tick_params(length=0)
    counts = {s: scores.count(s) for s in set(scores)}
    ax.bar(list(counts), list(counts.values()), width=0.8, color=_PYTHON, zorder=2, label="games")
    mean = sum(scores) / len(scores)
    ax.axvline(mean, color=_RUST, linewidth=1.5, zorder=3, label=f"mean {mean:.2f}")
    ax.set_xlim(lo - 1.5, upper + 1.5)
    ax.set_ylim(0, max(counts.values()) * 1.15)
    ax.set_xlabel("final score (background: rank bands, R-SOLO-5)")
    ax.set_ylabel("games")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))  # counts of games
    ax.legend(loc="upper right", fontsize=9)
    ax.set_title(title or f"{len(scores)} solo game(s)", fontsize=11)
    return _save(fig, path)


def plot_ladder(ratings: Sequence[tuple[str, float, float, float]], path: str | os.PathLike[str] | None = None,
                title: str | None = None) -> "Figure":
    """Elo ratings ``(agent, elo, low, high)`` as points with their 95% intervals,
    best at the top (``dragoncastle ladder --plot``).

    >>> fig = plot_ladder([("random", 0, 0, 0), ("greedy", 400, 300, 500)])
    >>> [t.get_text() for t in fig.axes[0].get_yticklabels()]
    ['random', 'greedy']
    """
    if not ratings:
        raise ValueError("no ratings to draw")
    rows = sorted(ratings, key=lambda r: r[1])
    fig = _new_figure(8.0, 1.2 + 0.45 * len(rows))
    ax = fig.add_subplot()
    ys = list(range(len(rows)))
    elo = [r[1] for r in rows]
    err = [[r[1] - r[2] for r in rows], [r[3] - r[1] for r in rows]]
    ax.errorbar(elo, ys, xerr=err, fmt="o", color=_RUST, ecolor=_PYTHON, capsize=4)
    ax.set_yticks(ys, [r[0] for r in rows])
    ax.set_xlabel("Elo (Bradley–Terry fit, 95% interval)")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(title or "rating ladder", fontsize=11)
    return _save(fig, path)


def plot_training(log: Sequence[Mapping[str, Any]], path: str | os.PathLike[str] | None = None,
                  rollout: float | None = None, title: str | None = None) -> "Figure":
    """A training run's learning curve (``dragoncastle train --plot``): the
    gate's strength of each generation's network (solo: mean score on the
    held-out deals; with rivals: win rate against the rollout search) against
    the generation and against the run's time, from the rows of the run's
    ``log.jsonl``. Accepted generations are filled, rejected ones hollow;
    ``rollout`` (the rollout search's strength, from ``state.json``) is
    generation 0.

    >>> rows = [{"generation": 1, "seconds": 1300, "strength": 45.1, "accepted": True},
    ...         {"generation": 2, "seconds": 3000, "strength": 45.4, "accepted": True}]
    >>> fig = plot_training(rows, rollout=43.9)
    >>> [ax.get_xlabel() for ax in fig.axes]
    ['generation', 'hours of training']
    """
    if not log:
        raise ValueError("no generations to draw")
    rows = sorted(log, key=lambda r: r["generation"])
    fig = _new_figure(9.0, 3.6)
    gens = [r["generation"] for r in rows]
    hours = [r["seconds"] / 3600 for r in rows]
    strength = [r["strength"] for r in rows]
    accepted = [bool(r.get("accepted", True)) for r in rows]
    axes = fig.subplots(1, 2, sharey=True)
    for ax, xs, label in ((axes[0], gens, "generation"), (axes[1], hours, "hours of training")):
        x0 = [0.0] if rollout is not None else []
        ax.plot(x0 + list(xs), ([rollout] if rollout is not None else []) + strength, color=_PYTHON, alpha=0.6)
        for x, y, ok in zip(xs, strength, accepted):
            ax.plot([x], [y], "o", color=_RUST, markerfacecolor=_RUST if ok else "none")
        if rollout is not None:
            ax.axhline(rollout, color="grey", linestyle=":", linewidth=1)
            ax.plot([0], [rollout], "s", color="grey")
        ax.set_xlabel(label)
        ax.grid(alpha=0.3)
    axes[0].xaxis.get_major_locator().set_params(integer=True)
    axes[0].set_ylabel("gate strength")
    fig.suptitle(title or "learning curve (grey: the rollout search; hollow: rejected)", fontsize=11)
    return _save(fig, path)

"""A rating ladder of built-in agents: :func:`ladder`.

Every group of ``players`` agents plays ``games_per_pair`` games in the Rust
arena (seats rotated by the game seed). Each game counts, for every two seats
in it, as a win of the better placed agent (a tie as half a win each). The
ratings are a Bradley–Terry fit of those pairwise results on the Elo scale
(400 points = odds of 10 to 1), with one virtual draw between every two
agents that met as a weak prior (so an agent that won every game still has a
finite rating), anchored at ``random`` = 0 when it is in the ladder (else at
the first agent). The 95% intervals come from the curvature of the fit.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from . import _core
from .arena import ArenaResult, _same_agent, arena

__all__ = ["LadderResult", "ladder", "bradley_terry"]

ELO = 400 / math.log(10)  # Elo points per unit of log-odds


def bradley_terry(n: int, wins: Sequence[Sequence[float]], anchor: int = 0,
                  prior_draws: float = 1.0) -> tuple[list[float], list[float]]:
    """Ratings (log-odds units) and their standard errors from ``wins[i][j]``
    (i's wins against j, ties as halves), with ``prior_draws`` virtual draws
    between every two agents that met; ``anchor`` is fixed at 0.

    >>> r, se = bradley_terry(2, [[0, 30], [10, 0]])
    >>> round(r[1] * 400 / math.log(10))  # 10-30 with one virtual draw: odds 10.5/30.5
    -185
    """
    w = [[float(wins[i][j]) for j in range(n)] for i in range(n)]
    for i, j in itertools.combinations(range(n), 2):
        if w[i][j] + w[j][i] > 0:
            w[i][j] += prior_draws / 2
            w[j][i] += prior_draws / 2
    r = [0.0] * n
    free = [i for i in range(n) if i != anchor]
    hessian: list[list[float]] = []
    for _ in range(100):
        grad = [0.0] * n
        hess = [[0.0] * n for _ in range(n)]
        for i, j in itertools.permutations(range(n), 2):
            games = w[i][j] + w[j][i]
            if games == 0 or i > j:
                continue
            p = 1 / (1 + math.exp(r[j] - r[i]))
            grad[i] += w[i][j] - games * p
            grad[j] -= w[i][j] - games * p
            h = games * p * (1 - p)
            hess[i][i] += h
            hess[j][j] += h
            hess[i][j] -= h
            hess[j][i] -= h
        hessian = [[hess[a][b] for b in free] for a in free]
        step = _solve(hessian, [grad[a] for a in free])
        for a, d in zip(free, step):
            r[a] += d
        if max((abs(d) for d in step), default=0.0) < 1e-10:
            break
    cov = _inverse(hessian) if free else []
    se = [0.0] * n
    for k, a in enumerate(free):
        se[a] = math.sqrt(max(cov[k][k], 0.0))
    return r, se


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve ``a x = b`` by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        if abs(m[p][c]) < 1e-300:
            raise ValueError("the ladder's games do not connect every agent to the anchor")
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def _inverse(a: list[list[float]]) -> list[list[float]]:
    n = len(a)
    cols = [_solve(a, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]
    return [[cols[j][i] for j in range(n)] for i in range(n)]


@dataclass
class LadderResult:
    """The games of a ladder and their ratings.

    ``wins[i][j]`` counts agent i's pairwise wins against agent j (ties as
    halves); ``runs`` holds the arena results, one per group of agents;
    ``solo`` the mean solo score of each agent when solo games were asked for.
    """

    agents: list[str]
    players: int
    wins: list[list[float]]
    runs: list[ArenaResult] = field(default_factory=list)
    solo: list[float] | None = None
    solo_games: int = 0

    @property
    def anchor(self) -> int:
        """The agent rated 0: ``random`` if present, else the first."""
        return self.agents.index("random") if "random" in self.agents else 0

    def ratings(self) -> list[tuple[str, float, float, float]]:
        """``(agent, elo, low, high)`` per agent in ladder order: the
        Bradley–Terry rating and its 95% interval."""
        r, se = bradley_terry(len(self.agents), self.wins, self.anchor)
        return [(a, x * ELO, (x - 1.96 * s) * ELO, (x + 1.96 * s) * ELO) for a, x, s in zip(self.agents, r, se)]

    def games_of(self, i: int) -> float:
        """Pairwise results agent ``i`` took part in."""
        return sum(self.wins[i][j] + self.wins[j][i] for j in range(len(self.agents)) if j != i)

    def table(self) -> str:
        """The ratings best first, as a text table.

        >>> print(LadderResult(["random", "greedy"], 2, [[0, 2], [18, 0]]).table())
        greedy  Elo   348  95% [  118,   577]  score 90.0% of 20
        random  Elo     0  95% [    0,     0]  score 10.0% of 20
        """
        rows = sorted(enumerate(self.ratings()), key=lambda t: -t[1][1])
        width = max(len(a) for a in self.agents)
        lines = []
        for i, (a, elo, lo, hi) in rows:
            n = self.games_of(i)
            score = sum(self.wins[i][j] for j in range(len(self.agents)) if j != i) / n if n else 0.0
            line = f"{a:<{width}}  Elo {elo:5.0f}  95% [{lo:5.0f}, {hi:5.0f}]  score {100 * score:4.1f}% of {n:g}"
            if self.solo is not None:
                line += f"  solo mean {self.solo[i]:5.1f}"
            lines.append(line)
        return "\n".join(lines)

    def plot(self, path: str | None = None) -> Any:
        """The ratings with their intervals as a picture (the ``plot`` extra)."""
        from .plots import plot_ladder

        return plot_ladder(self.ratings(), path)


def ladder(agents: Sequence[Any], games_per_pair: int, *, players: int = 2, seed: int = 0, threads: int | None = None,
           spirits: Any = None, dragons: Any = None, layout: Any = None, rules: Any = None, solo_games: int = 0,
           games_for: dict[tuple[str, ...], int] | None = None,
           progress: Callable[[str], Any] | None = None) -> LadderResult:
    """Rate built-in agents (specs or agents, as for :func:`~dragoncastle.arena`) against each other.

    Every group of ``players`` distinct agents plays ``games_per_pair`` games;
    group ``g`` (in ``itertools.combinations`` order) uses seeds from
    ``seed + g * games_per_pair``, so every group meets different deals and
    the ladder is reproducible. ``games_for`` plays fewer games in some groups
    (a tuple of their agents, in ladder order, to a count at most
    ``games_per_pair``), on the same seeds: the costliest pairs can be
    sampled less. With ``solo_games``, each agent also plays that many solo
    games (seeds from ``seed``) and the table shows its mean.
    ``progress(message)`` is called as groups finish.

    >>> r = ladder(["random", "greedy"], 10, seed=1, threads=1)
    >>> [name for name, *_ in sorted(r.ratings(), key=lambda t: -t[1])]
    ['greedy', 'random']
    """
    agents = [_core.agent_text(a) for a in agents]
    if len({_same_agent(a) for a in agents}) != len(agents):
        raise ValueError("each agent may appear once in a ladder (two of these are one agent: "
                         f"{', '.join(agents)})")
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
        raise ValueError(f"a ladder's games have 2 to 4 players; got {players!r}")
    if len(agents) < players:
        raise ValueError(f"a ladder of {players}-player games needs at least {players} agents; got {len(agents)}")
    if isinstance(games_per_pair, bool) or not isinstance(games_per_pair, int) or games_per_pair < 1:
        raise ValueError(f"games_per_pair must be a whole number >= 1; got {games_per_pair!r}")
    if isinstance(solo_games, bool) or not isinstance(solo_games, int) or solo_games < 0:
        raise ValueError(f"solo_games must be a whole number >= 0; got {solo_games!r}")
    # Every check before the first game: the groups' seeds, the solo runs', and each agent
    # at the tables it will sit at.
    _core.check_run(games_per_pair * math.comb(len(agents), players), seed, threads)
    _core.check_agents(agents, players)
    if solo_games:
        _core.check_run(solo_games, seed, threads)
        _core.check_agents(agents, 1)
    n = len(agents)
    games_for = dict(games_for or {})
    for key, count in games_for.items():
        if len(key) != players or any(a not in agents for a in key):
            raise ValueError(f"games_for: {key!r} is not a group of {players} agents of the ladder")
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= games_per_pair:
            raise ValueError(f"games_for: the count for {key!r} must be 1 to games_per_pair; got {count!r}")
    wins = [[0.0] * n for _ in range(n)]
    runs = []
    for g, group in enumerate(itertools.combinations(range(n), players)):
        names = tuple(agents[i] for i in group)
        count = games_for.get(names, games_per_pair)
        run = arena(list(names), count, seed=seed + g * games_per_pair, threads=threads,
                    spirits=spirits, dragons=dragons, layout=layout, rules=rules)
        runs.append(run)
        for game in run.games:
            seats = [group[a] for a in game["agent_of_seat"]]
            scores, winners = game["scores"], set(game["winners"])
            for s, t in itertools.combinations(range(players), 2):
                # Better placed: a winner over a non-winner, else the higher score.
                ks = (s in winners, scores[s])
                kt = (t in winners, scores[t])
                if ks > kt:
                    wins[seats[s]][seats[t]] += 1
                elif kt > ks:
                    wins[seats[t]][seats[s]] += 1
                else:
                    wins[seats[s]][seats[t]] += 0.5
                    wins[seats[t]][seats[s]] += 0.5
        if progress is not None:
            progress(" vs ".join(agents[i] for i in group))
    solo = None
    if solo_games:
        solo = [arena([a], solo_games, seed=seed, threads=threads, spirits=spirits, dragons=dragons, layout=layout,
                      rules=rules).mean_scores()[0] for a in agents]
    return LadderResult(agents, players, wins, runs, solo, solo_games)

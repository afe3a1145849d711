"""Many games between built-in agents in Rust threads: :func:`arena`.

Game ``k`` of a run with seed ``s`` is dealt with seed ``s + k`` and seat ``i``
is played by agent ``(i + s + k) % n``, so a run split into shards (the same
agents, consecutive seed ranges) gives exactly the games of one run, whatever
the thread count. Records are JSON lines that ``Game.from_json`` replays.
"""

from __future__ import annotations

import json
import math
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from . import _core

__all__ = ["ArenaResult", "arena", "wilson"]


def _per_move(seconds: float) -> str:
    """A time per move with a unit that suits it (``"4.44 ms"``, ``"3.1 µs"``)."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a win rate.

    >>> [round(x, 3) for x in wilson(50, 100)]
    [0.404, 0.596]
    """
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class ArenaResult:
    """The games of an arena run, with per-agent summaries.

    ``games`` holds one dict per game: ``seed``, ``agent_of_seat`` (index into
    ``agents`` of the agent in each seat), ``scores`` and ``winners`` by seat,
    ``actions`` (ids of the players' decisions), and per seat ``decisions``
    and ``seconds`` spent choosing.
    """

    agents: list[str]
    games: list[dict[str, Any]] = field(repr=False)
    seconds: float = 0.0
    #: The rule options of the run (None: the defaults).
    rules: Any = None

    @property
    def players(self) -> int:
        return len(self.agents)

    def _per_agent(self) -> list[dict[str, float]]:
        out = [{"wins": 0.0, "score": 0.0, "decisions": 0.0, "seconds": 0.0} for _ in self.agents]
        for g in self.games:
            for seat, a in enumerate(g["agent_of_seat"]):
                out[a]["score"] += g["scores"][seat]
                out[a]["decisions"] += g["decisions"][seat]
                out[a]["seconds"] += g["seconds"][seat]
                if seat in g["winners"]:
                    out[a]["wins"] += 1 / len(g["winners"])
        return out

    def win_rates(self) -> list[float]:
        """Per agent: games won (a shared win counts as a fraction) / games played."""
        n = max(len(self.games), 1)
        return [a["wins"] / n for a in self._per_agent()]

    def mean_scores(self) -> list[float]:
        n = max(len(self.games), 1)
        return [a["score"] / n for a in self._per_agent()]

    def seconds_per_move(self) -> list[float]:
        return [a["seconds"] / a["decisions"] if a["decisions"] else 0.0 for a in self._per_agent()]

    def table(self) -> str:
        """Win rates with 95% Wilson intervals, mean scores and time per move."""
        n = len(self.games)
        head = f"{n} games, {self.players} player(s)" + (f", {self.seconds:.1f} s" if self.seconds else "")
        lines = [head, f"{'agent':<28} {'win rate':>9} {'95% CI':>17} {'mean score':>11} {'time/move':>10}"]
        if self.players == 1:
            lines[1] = f"{'agent':<28} {'mean score':>11} {'sd':>6} {'time/move':>10}"
        per = self._per_agent()
        for i, name in enumerate(self.agents):
            per_move = _per_move(self.seconds_per_move()[i])
            if self.players == 1:
                scores = [g["scores"][0] for g in self.games]
                mean = statistics.mean(scores) if scores else 0.0
                sd = statistics.stdev(scores) if n > 1 else 0.0
                lines.append(f"{name:<28} {mean:>11.2f} {sd:>6.2f} {per_move:>10}")
                continue
            lo, hi = wilson(per[i]["wins"], n)
            rate = per[i]["wins"] / max(n, 1)
            lines.append(f"{name:<28} {rate:>9.3f} {f'[{lo:.3f}, {hi:.3f}]':>17} {per[i]['score'] / max(n, 1):>11.2f} {per_move:>10}")
        return "\n".join(lines)

    def records(self) -> Iterable[str]:
        """One JSON line per game: the game's ``to_json()`` with a ``meta`` object
        (agents by seat, winners, decisions and seconds by seat).
        ``Game.from_json(line)`` replays it exactly."""
        for g in self.games:
            game = _core.Game(players=self.players, seed=g["seed"], rules=self.rules,
                              spirits=g.get("spirits", []), dragons=g.get("dragons", []))
            for a in g["actions"]:
                game.apply(a)
            data = json.loads(game.to_json())
            data["meta"] = {
                "agents": [self.agents[a] for a in g["agent_of_seat"]],
                "agent_of_seat": g["agent_of_seat"],
                "winners": g["winners"],
                "decisions": g["decisions"],
                "seconds": g["seconds"],
            }
            yield json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_records(cls, lines: Iterable[str], *, check: bool = True) -> "ArenaResult":
        """Merge records (for example the shards of a run spread over machines).
        With ``check`` every game is replayed and its scores compared."""
        agents: list[str] = []
        games: list[dict[str, Any]] = []
        rules: Any = None
        for k, line in enumerate(lines):
            if not line.strip():
                continue
            data = json.loads(line)
            meta = data.get("meta") or {}
            if "agents" not in meta:
                raise ValueError(f"record {k}: no meta.agents; not an arena record")
            game_rules = _core.Rules(**data["rules"])
            if rules is None:
                rules = game_rules
            elif game_rules != rules:
                raise ValueError(f"record {k}: rules {data['rules']} differ from the other records'")
            if check:
                game = _core.Game.from_json(line)
                if game.scores() != data["summary"]["scores"] or not game.is_over:
                    raise ValueError(f"record {k}: the replay does not give the recorded result")
            by_seat: list[str] = meta["agents"]
            by_index = [""] * len(by_seat)
            for seat, a in enumerate(meta["agent_of_seat"]):
                by_index[a] = by_seat[seat]
            if not agents:
                agents = by_index
            if by_index != agents:
                raise ValueError(f"record {k}: agents {by_index} differ from {agents}")
            games.append({
                "seed": data["seed"],
                "spirits": list(data.get("spirits", [])),
                "dragons": list(data.get("dragons", [])),
                "agent_of_seat": meta["agent_of_seat"],
                "scores": data["summary"]["scores"],
                "winners": meta["winners"],
                "actions": list(data["actions"]),
                "decisions": meta["decisions"],
                "seconds": meta["seconds"],
            })
        games.sort(key=lambda g: g["seed"])
        for a, b in zip(games, games[1:]):
            if a["seed"] == b["seed"]:
                raise ValueError(f"game seed {a['seed']} appears twice: a shard was merged twice?")
        return cls(agents, games, rules=rules)


def arena(agents: Sequence[str], n_games: int, seed: int = 0, threads: int | None = None, *, rules: Any = None,
          progress: Callable[[int], Any] | None = None, spirits: Any = None, dragons: Any = None) -> ArenaResult:
    """Play ``n_games`` games between built-in agents given as specs
    (``"random"``, ``"greedy"``, ``"dragon"``, ``"mcts:iterations=2000"``), one per
    seat (one agent plays solo), in Rust threads with the GIL released.
    ``progress(done)`` is called about ten times a second; Ctrl-C stops the run.
    ``spirits`` and ``dragons`` are as for ``Game``; a count draws each game's
    cards from its seed.

    >>> r = arena(["greedy", "random"], 20, seed=0, threads=2)
    >>> len(r.games), round(sum(r.win_rates()), 6)
    (20, 1.0)
    """
    if isinstance(n_games, bool) or not isinstance(n_games, int) or n_games < 1:
        raise ValueError(f"n_games must be a positive integer; got {n_games!r}")
    start = time.perf_counter()
    games = _core.arena(list(agents), n_games, seed, threads, rules, progress, spirits=spirits, dragons=dragons)
    return ArenaResult(list(agents), list(games), time.perf_counter() - start, rules)

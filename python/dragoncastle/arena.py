"""Many games between built-in agents in Rust threads: :func:`arena`.

Game ``k`` of a run with seed ``s`` is dealt with seed ``s + k`` and seat ``i``
is played by agent ``(i + s + k) % n``, so a run split into shards (the same
agents, consecutive seed ranges) gives exactly the games of one run, whatever
the thread count. Records are JSON lines that ``Game.from_json`` replays.

The same property spreads a run over a Ray cluster: ``arena(..., ray="auto")``
cuts the games into contiguous shards (:func:`shard_ranges`), runs each shard
as a Ray task that calls the Rust arena for its seed range, and concatenates
the shards' games in order, which gives exactly the games of a local run
(docs/distributed.md). Ray is imported only then (the optional extra ``ray``).
"""

from __future__ import annotations

import json
import math
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from . import _core, distributed, replay

__all__ = ["ArenaResult", "arena", "shard_ranges", "wilson"]


def _same_agent(spec: str) -> str:
    """What identifies an agent: its spec's canonical text (``mcts:c=0.3`` and
    ``mcts:exploration=0.3`` are one agent); text that does not parse, itself."""
    try:
        return str(_core.Player.parse(spec).spec)
    except ValueError:
        return spec


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
    and ``seconds`` spent choosing. A run with ``search_stats`` adds
    ``search``: per decision, ``None`` or ``{"iterations": n, "top":
    [(action_id, visits, mean_value), ...]}`` (see :func:`arena`).
    """

    agents: list[str]
    games: list[dict[str, Any]] = field(repr=False)
    seconds: float = 0.0
    #: The rule options of the run (None: the defaults).
    rules: Any = None

    @property
    def players(self) -> int:
        """Seats per game: one per agent."""
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

    def win_intervals(self) -> list[tuple[float, float]]:
        """Per agent: the 95% Wilson interval of its win rate (as :meth:`table` prints it).

        >>> r = arena(["greedy", "random"], 4, seed=0)
        >>> all(lo <= rate <= hi for (lo, hi), rate in zip(r.win_intervals(), r.win_rates()))
        True
        """
        n = len(self.games)
        return [wilson(a["wins"], n) for a in self._per_agent()]

    def mean_scores(self) -> list[float]:
        """Per agent: the mean final score over the games."""
        n = max(len(self.games), 1)
        return [a["score"] / n for a in self._per_agent()]

    def untimed_games(self) -> list[dict[str, Any]]:
        """``games`` without the ``seconds`` spent choosing, the one part that
        varies between two runs of the same seed (compare runs with this).

        >>> a, b = arena(["greedy", "random"], 2, seed=1), arena(["greedy", "random"], 2, seed=1)
        >>> a.untimed_games() == b.untimed_games() and "seconds" not in a.untimed_games()[0]
        True
        """
        return [{k: v for k, v in g.items() if k != "seconds"} for g in self.games]

    def seconds_per_move(self) -> list[float]:
        """Per agent: mean seconds per decision (0.0 for an agent that made none)."""
        return [a["seconds"] / a["decisions"] if a["decisions"] else 0.0 for a in self._per_agent()]

    def table(self, timing: bool = True) -> str:
        """Win rates with 95% Wilson intervals, mean scores and time per move.

        ``timing=False`` leaves out the run time and the time per move, the only
        figures that differ between two runs of the same games (on one machine
        or spread over a Ray cluster), so that tables can be compared."""
        n = len(self.games)
        head = f"{n} games, {self.players} player(s)" + (f", {self.seconds:.1f} s" if self.seconds and timing else "")
        lines = [head, f"{'agent':<28} {'win rate':>9} {'95% CI':>17} {'mean score':>11} {'time/move':>10}"]
        if self.players == 1:
            lines[1] = f"{'agent':<28} {'mean score':>11} {'sd':>6} {'time/move':>10}"
        if not timing:
            lines[1] = lines[1][:-11]
        per = self._per_agent()
        intervals = self.win_intervals()
        for i, name in enumerate(self.agents):
            per_move = f" {_per_move(self.seconds_per_move()[i]):>10}" if timing else ""
            if self.players == 1:
                scores = [g["scores"][0] for g in self.games]
                mean = statistics.mean(scores) if scores else 0.0
                sd = statistics.stdev(scores) if n > 1 else 0.0
                lines.append(f"{name:<28} {mean:>11.2f} {sd:>6.2f}{per_move}")
                continue
            lo, hi = intervals[i]
            rate = per[i]["wins"] / max(n, 1)
            lines.append(f"{name:<28} {rate:>9.3f} {f'[{lo:.3f}, {hi:.3f}]':>17} {per[i]['score'] / max(n, 1):>11.2f}{per_move}")
        return "\n".join(lines)

    def records(self) -> Iterable[str]:
        """One JSON line per game: the game's ``to_json()`` with a ``meta`` object
        (agents by seat, winners, decisions and seconds by seat).
        ``Game.from_json(line)`` replays it exactly.

        Games played with ``search_stats`` add ``meta.search``: one entry per
        player decision, in the order of the player's actions (a solo record's
        ``actions`` also hold the Dragon of Ingenuity's moves, which have
        none): ``null`` for an agent that does not search, else
        ``{"iterations": n, "top": [[action_id, visits, mean_value], ...]}``,
        most visited first, values rounded to 4 decimals."""
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
            if "search" in g:
                data["meta"]["search"] = [_rounded(d) for d in g["search"]]
            yield json.dumps(data, separators=(",", ":"))

    @classmethod
    def from_records(cls, lines: Iterable[str], *, check: bool = True) -> "ArenaResult":
        """Merge records (for example the shards of a run spread over machines).
        Each record is replayed from its seed, settings and actions, and
        refused (``ValueError`` naming ``record K``, K counted from 0) when a
        field is missing or of the wrong type, or when its scores, winners or
        decisions by seat disagree with the replay. ``check=False`` skips
        the winners and decisions (the fields and scores are still checked)."""
        return cls._merge(((f"record {k}", line) for k, line in enumerate(lines) if line.strip()), check)

    @classmethod
    def from_files(cls, paths: Iterable[str]) -> "ArenaResult":
        """:meth:`from_records` of the lines of JSON-lines files, read with
        ``dragoncastle.replay``'s bounds; errors name the file and line."""
        return cls._merge((pair for path in paths for pair in replay.numbered_lines(path)), True)

    @classmethod
    def _merge(cls, located: Iterable[tuple[str, str]], check: bool) -> "ArenaResult":
        agents: list[str] = []
        games: list[dict[str, Any]] = []
        rules: Any = None
        seen: dict[int, str] = {}
        for where, line in located:
            game, by_index, game_rules = _arena_game(where, line, check)
            if rules is None:
                rules, agents = game_rules, by_index
            if game_rules != rules:
                raise ValueError(f"{where}: rules {game_rules} differ from the other records' ({rules})")
            if by_index != agents and list(map(_same_agent, by_index)) != list(map(_same_agent, agents)):
                raise ValueError(f"{where}: agents {by_index} differ from {agents}")
            if game["seed"] in seen:
                raise ValueError(f"{where}: game seed {game['seed']} appears twice (also {seen[game['seed']]}): "
                                 "a shard was merged twice?")
            seen[game["seed"]] = where
            games.append(game)
        games.sort(key=lambda g: g["seed"])
        return cls(agents, games, rules=rules)


def _arena_game(where: str, line: str, check: bool) -> tuple[dict[str, Any], list[str], Any]:
    """A record as a game of :class:`ArenaResult`, with the agents in the
    order of the run and the rules; ``ValueError`` naming ``where`` when its
    fields are wrong or (``check``) disagree with its replay."""
    rec, data = replay.parse_record(line, where)
    meta = data.get("meta")
    if rec.agents is None or not isinstance(meta, dict):
        raise ValueError(f"{where}: no meta.agents; not an arena record")
    final, decisions = replay.replayed(rec)
    n = final.players
    _check_meta(meta, n, where)
    if final.seed is None:
        raise ValueError(f"{where}: no seed; not an arena record")
    # The scores need no check here: Game.from_json refuses a summary that its actions do not give.
    if check:
        for name, recorded, replayed in (("meta.winners", meta["winners"], final.winners()),
                                         ("meta.decisions", meta["decisions"], decisions)):
            if recorded != replayed:
                raise ValueError(f"{where}: {name} {recorded} disagree with the replay's {replayed}")
        if not final.is_over:
            raise ValueError(f"{where}: the game does not end; not an arena record")
    by_index = [""] * n
    for seat, a in enumerate(meta["agent_of_seat"]):
        by_index[a] = rec.agents[seat]
    game: dict[str, Any] = {
        "seed": final.seed, "spirits": final.spirits, "dragons": final.dragons, "agent_of_seat": meta["agent_of_seat"],
        "scores": final.scores(), "winners": final.winners(), "actions": [a.id for a in rec.actions],
        "decisions": decisions, "seconds": meta["seconds"],
    }
    if rec.search is not None:
        game["search"] = rec.search
    return game, by_index, final.rules


def _check_meta(meta: dict[str, Any], players: int, where: str) -> None:
    """The fields of an arena record's ``meta`` that the merge uses, by seat
    (``search`` is :mod:`dragoncastle.replay`'s to check)."""
    checks = {
        "agent_of_seat": (lambda v: all(type(a) is int for a in v) and sorted(v) == list(range(players)),
                          "the agents' indices, each once"),
        "winners": (lambda v: all(replay.is_count(s) and s < players for s in v), "seats"),
        "decisions": (lambda v: len(v) == players and all(replay.is_count(d) for d in v), "a whole count per seat"),
        "seconds": (lambda v: len(v) == players and all(replay.is_number(t) and t >= 0 for t in v),
                    "a time of 0 or more per seat"),
    }
    for key, (ok, what) in checks.items():
        value = meta.get(key)
        if not (isinstance(value, list) and all(type(x) in (int, float) for x in value) and ok(value)):
            raise ValueError(f"{where}: meta.{key} should be {what}, not {json.dumps(value)[:80]}")


def _rounded(stats: dict[str, Any] | None) -> dict[str, Any] | None:
    """A decision's search statistics for a record: mean values to 4 decimals,
    which is finer than any visit count of a record can resolve and keeps
    the line short."""
    if stats is None:
        return None
    return {"iterations": stats["iterations"], "top": [[a, n, round(v, 4)] for a, n, v in stats["top"]]}


def shard_ranges(n_games: int, shards: int) -> list[tuple[int, int]]:
    """Split games ``0 .. n_games - 1`` into ``shards`` contiguous ``(start, count)``
    ranges whose sizes differ by at most one (never an empty shard).

    Shard ``(start, count)`` of a run with seed ``s`` is ``arena(agents, count,
    seed=s + start)``: the same games as in the whole run, seats included.

    >>> shard_ranges(10, 3)
    [(0, 4), (4, 3), (7, 3)]
    >>> shard_ranges(2, 5)
    [(0, 1), (1, 1)]
    """
    if n_games < 1 or shards < 1:
        raise ValueError(f"need at least one game and one shard; got {n_games} games, {shards} shards")
    shards = min(shards, n_games)
    size, extra = divmod(n_games, shards)
    out, start = [], 0
    for k in range(shards):
        count = size + (k < extra)
        out.append((start, count))
        start += count
    return out


def _play_shard(agents: list[str], start: int, count: int, seed: int, threads: int, rules: Any,
                spirits: Any, dragons: Any, search_stats: int = 0,
                models: dict[str, bytes] | None = None) -> list[dict[str, Any]]:
    """Games ``start .. start + count - 1`` of a run with ``seed``: the body of
    a Ray task. A module-level function, so that Ray ships it by reference and
    the workers run the installed ``dragoncastle``. ``models`` are the weights
    files the specs name, sent with the task: a node need not see the
    driver's disk."""
    agents = [distributed.with_local_models(a, models or {}) for a in agents]
    return list(_core.arena(agents, count, seed=seed + start, threads=threads, rules=rules, spirits=spirits,
                            dragons=dragons, search_stats=search_stats))


def _ray_games(agents: list[str], n_games: int, seed: int, threads: int | None, rules: Any,
               progress: Callable[[int], Any] | None, spirits: Any, dragons: Any, address: str,
               shards: int | None, search_stats: int = 0) -> tuple[list[dict[str, Any]], float]:
    """The games of a run played as Ray tasks, one per shard, in game order;
    and the seconds they took (without starting or stopping Ray)."""
    with distributed.session(address) as ray:
        per_shard = distributed.per_task(threads)
        slots = distributed.slots(ray, per_shard)
        ranges = shard_ranges(n_games, distributed.SHARDS_PER_SLOT * slots if shards is None else shards)
        # Each task reserves as many CPUs as the threads it runs, so Ray never
        # puts more arena threads on a node than it has cores.
        task = ray.remote(_play_shard).options(num_cpus=per_shard)
        models = ray.put(distributed.spec_model_files(agents))
        start = time.perf_counter()
        refs = [task.remote(list(agents), s, c, seed, per_shard, rules, spirits, dragons, search_stats, models)
                for s, c in ranges]
        parts = distributed.gather(ray, refs, [c for _, c in ranges], progress)
        seconds = time.perf_counter() - start
    # Shards in order of their ranges, games in order within each: the order of a local run.
    games = [g for part in parts for g in part]
    if [g["seed"] for g in games] != list(range(seed, seed + n_games)):
        raise RuntimeError("the Ray shards did not return the games of the run in order")
    return games, seconds


def arena(agents: Sequence[Any], n_games: int, *, players: int | None = None, seed: int = 0, threads: int | None = None,
          spirits: Any = None, dragons: Any = None, layout: Any = None, rules: Any = None,
          progress: Callable[[int], Any] | None = None, ray: str | None = None, shards: int | None = None,
          search_stats: int = 0) -> ArenaResult:
    """Play ``n_games`` games between built-in agents, one per seat (one agent
    plays solo), in Rust threads with the GIL released. Each agent is given in
    either spelling: its spec (``"random"``, ``"greedy"``, ``"dragon"``,
    ``"mcts:iterations=2000"``) or the agent (``dc.agents.MCTSAgent(iterations=2000)``).
    ``progress(done)`` is called about ten times a second; Ctrl-C stops the run.
    ``spirits`` and ``dragons`` are as for ``Game``; a count draws each game's
    cards from its seed.

    >>> r = arena(["greedy", "random"], 20, seed=0, threads=2)
    >>> len(r.games), round(sum(r.win_rates()), 6)
    (20, 1.0)

    With ``ray``, the games are cut into ``shards`` contiguous ranges (default:
    four per ``threads``-sized slot of the cluster's CPUs) and each range is
    played as one Ray task by the Rust arena with ``threads`` threads (default
    1 per task). ``ray="local"`` starts a local Ray for the run; ``"auto"``
    joins the cluster this machine belongs to (``ray start``); any other text is
    a cluster address for ``ray.init`` (``"head:6379"``, ``"ray://head:10001"``).
    If this process is already connected to Ray (``ray.init`` was called), that
    session is used and left open; otherwise Ray is shut down (or disconnected
    from) before returning. ``progress`` is called as shards finish. The games,
    records and table are those of a local run with the same seed, apart from
    the time figures:

    >>> local = arena(["greedy", "random"], 6, seed=3)
    >>> spread = arena(["greedy", "random"], 6, seed=3, ray="local", shards=3)
    >>> spread.table(timing=False) == local.table(timing=False)
    True
    >>> spread.untimed_games() == local.untimed_games()
    True

    ``search_stats=k`` keeps, for every decision of a search agent, the ``k``
    most visited root moves with their visits and mean values (``search`` in
    each game, ``meta.search`` in its record: what ``dragoncastle replay``
    shows). The games are the same as without it:

    >>> a = arena(["mcts:iterations=50", "greedy"], 1, seed=2)
    >>> b = arena(["mcts:iterations=50", "greedy"], 1, seed=2, search_stats=3)
    >>> a.untimed_games()[0] == {k: v for k, v in b.untimed_games()[0].items() if k != "search"}
    True
    >>> g = b.games[0]
    >>> first = next(d for d in g["search"] if d is not None and d["iterations"] > 0)
    >>> first["iterations"], len(first["top"]), first["top"][0][1] >= first["top"][1][1]
    (50, 3, True)
    """
    names = [_core.agent_text(a) for a in agents]
    if players is not None and (isinstance(players, bool) or players != len(names)):
        raise ValueError(f"an arena seats one agent per player: players={players!r} with {len(names)} agents")
    if shards is not None and (isinstance(shards, bool) or not isinstance(shards, int) or shards < 1):
        raise ValueError(f"shards must be a positive integer; got {shards!r}")
    if shards is not None and ray is None:
        raise ValueError("shards= splits a run over Ray; pass ray='local', 'auto' or an address too")
    if isinstance(search_stats, bool) or not isinstance(search_stats, int) or search_stats < 0:
        raise ValueError(f"search_stats must be a whole number >= 0; got {search_stats!r}")
    if ray is not None:
        # Every check before Ray starts: the run's size, and each agent at this table.
        _core.check_run(n_games, seed, threads)
        _core.check_agents(names, len(names))
        if layout is not None:
            raise ValueError("layout= is not sent to Ray workers yet; run the layout locally")
        games, seconds = _ray_games(names, n_games, seed, threads, rules, progress, spirits, dragons, ray, shards,
                                    search_stats)
        return ArenaResult(names, games, seconds, rules)
    start = time.perf_counter()
    games = _core.arena(names, n_games, seed=seed, threads=threads, spirits=spirits, dragons=dragons, layout=layout,
                        rules=rules, progress=progress, search_stats=search_stats)
    return ArenaResult(names, list(games), time.perf_counter() - start, rules)

"""The bots of a web table (``dragoncastle serve``): their turns in a
background thread, one search at a time per table (a bot's or a hint's),
and what their searches saw, in words."""

from __future__ import annotations

import threading
from typing import Any

from . import _core
from .agents import MCTSAgent, PlannerAgent
from .serve_table import MAX_BOT_SECONDS, Table, TableError, _clip, _covered, _person_moves

#: Top moves a bot's or a hint's search reports.
TOP = 5


def _search_stats(agent: Any, game: Any, stop: threading.Event) -> tuple[Any, Any]:
    """A bot's move, and its search's top moves (for the page and the record);
    ``stop`` set ends a search or plan within 0.1 s."""
    if isinstance(agent, MCTSAgent):
        r = agent.search(game, stop=stop.is_set)
        return r.action, top_stats(r)
    if isinstance(agent, PlannerAgent):
        p = agent.plan(game, stop=stop.is_set)
        top = sorted(p.values, key=lambda a: -p.values[a])[:TOP]
        return p.action, {"playouts": p.playouts, "top_plan": [[a.id, p.tried[a], round(p.values[a], 2)] for a in top]}
    return agent.act(game), None


def _play_bots(table: Table) -> None:
    """The bots' turns, in a background thread (their searches release the GIL)."""
    try:
        while not table.game.is_over and not table.stop.is_set():
            seat = table.game.current_player
            agent = table.agents[seat]
            if agent is None:
                break
            # A bot searches a copy: the page keeps reading the game meanwhile.
            action, stats = _search_stats(agent, table.game.clone(), table.stop)
            with table.lock:
                if table.stop.is_set():  # deleted, expired or shut down while it searched
                    break
                covered = _covered(table.game)
                table.game.apply(action)
                table.authors.append(seat)
                table.stats.append(stats)
                table.revealed.append(_covered(table.game) < covered)
    except Exception as e:  # a bot that fails stops the table with its message, never the server
        table.error = f"the bot at seat {table.game.current_player} failed: {_clip(str(e))}"
    finally:
        table.thinking = False


def _start_bots(table: Table) -> None:
    """The bots' thread, if a bot is to move and none runs: one per table, so one search at a time."""
    with table.lock:
        g = table.game
        if (g.is_over or table.agents[g.current_player] is None or table.thinking or table.hinting
                or table.stop.is_set()):
            return
        table.thinking = True
    threading.Thread(target=_play_bots, args=(table,), daemon=True, name=f"dragoncastle-table-{table.id}").start()


def top_stats(r: Any) -> dict[str, Any]:
    """A search's top moves as a record keeps them: ``[id, visits, value]`` each."""
    top = sorted(r.visits, key=lambda a: -r.visits[a])[:TOP]
    return {"iterations": r.iterations, "top": [[a.id, r.visits[a], round(r.values[a], 4)] for a in top]}


def top_in_words(stats: Any, players: int) -> list[str]:
    """A bot's (or a hint's) top moves in words, as its search or plan saw them; a
    forced move (the only legal one, not searched) says so.

    >>> top_in_words({"top": [[1, 300, 0.62], [2, 100, 0.4]]}, 2)
    ['take 0,1: 300 visits (75%), win chance 0.62', 'take 0,2: 100 visits (25%), win chance 0.40']
    >>> top_in_words({"top": [[1, 0, 0.0]]}, 1)
    ['take 0,1: the only legal move']
    """
    if not stats:
        return []
    if "top" in stats:
        total = sum(v for _, v, _ in stats["top"])
        if total == 0:
            return [f"{_core.Action(i)}: the only legal move" for i, _, _ in stats["top"][:1]]
        value = "win chance" if players > 1 else "value"
        return [f"{_core.Action(i)}: {v} visits ({100 * v / total:.0f}%), {value} {q:.2f}" for i, v, q in stats["top"]]
    plans = stats.get("top_plan", [])
    if sum(n for _, n, _ in plans) == 0:
        return [f"{_core.Action(i)}: the only legal move" for i, _, _ in plans[:1]]
    return [f"{_core.Action(i)}: first move of {n} plans, mean score {m:g}" for i, n, m in plans]


def _hint(table: Table, body: Any) -> dict[str, Any]:
    seconds = body.get("time", 0.5) if isinstance(body, dict) else None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds <= MAX_BOT_SECONDS:
        raise TableError(422, f"time is the search's seconds, more than 0 and at most {MAX_BOT_SECONDS:g}")
    with table.lock:
        _person_moves(table)
        if table.hinting:
            raise TableError(409, "a hint's search runs at this table: one search at a time")
        table.hinting = True
        position = table.game.clone()
    try:
        r = MCTSAgent(time_limit=float(seconds), threads=1, reuse_tree=False).search(position)
    finally:
        table.hinting = False
        _start_bots(table)  # a person moved while the hint searched: the bots' turn waited for it
    stats = top_stats(r)
    return {"action": {"id": r.action.id, "text": str(r.action)}, "iterations": r.iterations,
            "top": [{"id": i, "text": str(_core.Action(i)), "visits": v, "value": q} for i, v, q in stats["top"]],
            "words": top_in_words(stats, position.players)}

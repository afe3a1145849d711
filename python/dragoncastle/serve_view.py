"""What a web table shows: its public state (nothing a person at the
table may not know), where a legal move points on the picture, and the
move log in words."""

from __future__ import annotations

from typing import Any

from . import _core
from .plots import rank_bands
from .serve_bots import top_in_words
from .serve_table import Table, TableError, _authors, undo_start

#: The solo ranks as the end table lists them: (lowest score or None, highest or None, rank),
#: read from the core's table (R-SOLO-5).
RANKS = [(None if i == 0 else lo, None if i == len(b) - 1 else hi, name)
         for b in [rank_bands(0, 999)] for i, (lo, hi, name) in enumerate(b)]


def target(action: Any, seat: int) -> dict[str, Any] | None:
    """Where on the picture a move of ``seat`` points, read from the action's own
    fields (never from the rules): a castle space (``take``, ``destroy``), a
    cell of the mover's Realm (``place``, ``shrine``, a Spirit's follow-up, a
    Spirit paid with that cell), or None (``summon``, ``discard``,
    ``take-shrine``, ``done``, a Spirit paid with a Shrine)."""
    if action.space is not None:
        return {"where": "castle", "space": list(action.space)}
    cell = action.cell if action.cell is not None else action.pay_cell
    if cell is None:
        return None
    return {"where": "realm", "seat": seat, "cell": list(cell)}


def public(table: Table) -> dict[str, Any]:
    """What the page may show: nothing a person at the table may not know."""
    with table.lock:
        g = table.game
        seat = g.current_player
        person = not g.is_over and table.agents[seat] is None and not table.thinking
        played = [a for a, by_dragon in zip(g.history, g.history_by_dragon) if not by_dragon]
        state = {
            "id": table.id,
            "seats": table.seats,
            "players": g.players,
            "to_move": seat,
            "phase": g.phase.name,
            # What the phase asks, in the game's words: the page's status line.
            "prompt": g.phase.prompt,
            "who": [who(table, k) for k in range(g.players)],
            "cards": cards(g),
            "turn": g.turn,
            # The Countdown is over: this is the last round (R-END-1).
            "last_round": g.end_triggered and not g.is_over,
            "over": g.is_over,
            # A bot's turn waits while a hint searches (one search at a time): it is thinking too.
            "practice": table.practice,
            # Undo is offered only where it would be taken (the one check of undo itself).
            "can_undo": person and undoable(table),
            "thinking": table.thinking or table.hinting and not g.is_over and table.agents[seat] is not None,
            "error": table.error,
            "scores": g.scores(),
            "winners": g.winners() if g.is_over else [],
            "rank": g.rank() if g.is_over and g.players == 1 else None,
            "ranks": RANKS if g.players == 1 else None,
            "legal": [{"id": a.id, "text": str(a), "target": target(a, seat)} for a in g.legal_actions()] if person else [],
            "history": [{"seat": s, "action": {"id": a.id, "text": str(a)}, "search": st}
                        for s, a, st in zip(table.authors, played, table.stats)],
            "log": move_log(table),
            "breakdown": [g.score_breakdown(p) for p in range(g.players)] if g.is_over else None,
            # The log entry whose Summon ran the Countdown out (R-END-1), once it has.
            "trigger": trigger(g),
            "svg": g._repr_svg_(),
        }
    return state


def cards(game: Any) -> list[dict[str, str]]:
    """The cards in play with their effects in words (the engine's own text)."""
    return ([{"kind": "Spirit", "name": n, "effect": _core.SPIRIT_EFFECTS[_core.SPIRITS.index(n)]} for n in game.spirits]
            + [{"kind": "Dragon", "name": n, "effect": _core.DRAGON_EFFECTS[_core.DRAGONS.index(n)]} for n in game.dragons])


def who(table: Table, seat: int) -> str:
    """Who sits at ``seat``, in words: "You", "Seat 2" (one of several people), "Bot greedy"."""
    agent = table.agents[seat]
    if agent is not None:
        return f"Bot {getattr(agent, 'spec', agent)}"
    return "You" if len(table.humans()) == 1 else f"Seat {seat}"


def undoable(table: Table) -> bool:
    """Whether undo would be taken now (undo's own check, :func:`undo_start`)."""
    try:
        undo_start(table)
    except TableError:
        return False
    return True


def trigger(game: Any) -> int | None:
    """The index in ``game.history`` of the move that triggered the end (R-END-1:
    the Countdown token that ran the Countdown out), or None before it: the
    engine's ``end_triggered``, watched over a replay of the game."""
    if not game.end_triggered:
        return None
    g = game.clone()
    while g.history:
        g.undo()
    played = [a for a, by_dragon in zip(game.history, game.history_by_dragon) if not by_dragon]
    for a in played:
        before = len(g.history)
        g.apply(a)  # in solo, the Dragon of Ingenuity's reply comes with it
        if g.end_triggered:
            new = list(zip(range(before, len(g.history)), g.history[before:]))
            return next((i for i, m in reversed(new) if m.kind == _core.ActionKind.SUMMON), new[0][0])
    return None


def move_log(table: Table) -> list[dict[str, Any]]:
    """Every move of the game in words, in order: the seat, who sits there,
    the move's text, where it points on the picture (:func:`target`) and, for
    a bot, its top moves (the solo Dragon's replies included, in its name).
    The caller holds the table's lock."""
    g, log, k = table.game, [], 0
    moves = sum(1 for d in g.history_by_dragon if not d)
    # A table made from a record knows its moves' seats from the game itself.
    authors = table.authors if len(table.authors) == moves else _authors(g)[0]
    stats = table.stats if len(table.stats) == moves else [None] * moves
    for a, by_dragon in zip(g.history, g.history_by_dragon):
        if by_dragon:
            log.append({"seat": 1, "who": "Dragon of Ingenuity", "text": str(a), "top": [], "target": target(a, 1)})
            continue
        log.append({"seat": authors[k], "who": who(table, authors[k]), "text": str(a),
                    "top": top_in_words(stats[k], g.players), "target": target(a, authors[k])})
        k += 1
    return log

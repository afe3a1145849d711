"""Pictures of a reference game: text and a small SVG."""

from __future__ import annotations

from typing import Any

from .tiles import CODES


def text(game: Any) -> str:
    castle = game.castle
    status = "game over" if game.is_over else f"seat {game.current_player} to move, phase {game.phase.name}"
    lines = [f"Dragon Castle (reference engine): {game.players} players, {game.turn} turns played (g.turn), {status}; "
             f"top floor {castle.top_floor()}, {castle.remaining()} tiles left, Countdown {game.countdown_left} left"]
    if cards_line(game):
        lines.append(cards_line(game))
    for r in range(castle.rows):
        cells = []
        for c in range(castle.cols):
            tile = castle.top((r, c))
            cells.append("  .   " if tile is None else f"{castle.height((r, c))}{tile}{'*' if castle.is_available((r, c)) else ' '} ")
        lines.append(f"{r:>2}  " + "".join(cells))
    for p in range(game.players):
        b = game.score_breakdown(p)
        dragons = "".join(f", {card} {points}" for card, points in b["dragons"].items())
        variant = f", solo variant {b['variant']}" if "variant" in b else ""
        lines.append(f"Seat {p}: score {b['total']} (VP {b['vp']}, Shrines {b['shrines']}, Countdown {b['countdown']}"
                     f"{dragons}{variant}); Shrine Pool {game.pools[p]}; {game.realms[p]!r}")
    if game.is_solo:
        taken = " ".join(f"{code}x{n}" for code, n in sorted(game.dragon_tiles.items(), key=lambda kv: CODES.index(kv[0])))
        lines.append(f"Dragon of Ingenuity took: {taken or 'nothing yet'}")
        if game.is_over:
            lines.append(f"Final score {game.scores()[0]}: rank {game.rank()}")
    elif game.is_over:
        lines.append("Winner(s): seat " + ", ".join(map(str, game.winners())))
    return "\n".join(lines) + "\n"


def cards_line(game: Any) -> str:
    """``Spirits: wind (used), faith  Dragons: harmony`` (the cards in play,
    ``none`` for an empty kind), or '' without cards."""
    if not game.spirits and not game.dragons:
        return ""
    spirits = [f"{card} (used)" if card in game.cards.used else card for card in game.spirits]
    return f"Spirits: {', '.join(spirits) or 'none'}  Dragons: {', '.join(game.dragons) or 'none'}"


def svg(game: Any) -> str:
    castle = game.castle
    size = 30
    line = cards_line(game)
    extra = 14 if line else 0
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{castle.cols * size + 20}" height="{castle.rows * size + 20 + extra}" '
             'font-family="monospace" font-size="9">']
    if line:
        parts.append(f'<text x="10" y="{castle.rows * size + 20 + extra - 4}">{line}</text>')
    for (r, c) in castle.spaces():
        x, y = 10 + c * size, 10 + r * size
        stroke = "#000" if castle.is_available((r, c)) else "#bbb"
        parts.append(f'<g data-space="{r},{c}"><rect x="{x}" y="{y}" width="{size - 3}" height="{size - 3}" fill="#eee" stroke="{stroke}"/>'
                     f'<text x="{x + 3}" y="{y + 16}">{castle.top((r, c))}</text></g>')
    parts.append("</svg>")
    return "".join(parts)

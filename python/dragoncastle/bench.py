"""The benchmark operations, shared by ``dragoncastle bench`` and the
pytest-benchmark suite in ``benches/``: the same operation built for the Rust
engine and for the pure-Python reference engine, so ratios compare like with like.

>>> import dragoncastle as dc
>>> op = next(o for o in OPERATIONS if o.name == "legal actions, opening")
>>> run = op.make(dc)
>>> len(run()) > 0
True
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Callable

__all__ = ["Operation", "OPERATIONS", "measure", "position", "stepping_cost", "report", "mcts_rate", "search_tiers"]


def position(engine: ModuleType, players: int, seed: int, steps: int, **cards: Any) -> Any:
    """The game after ``steps`` seeded random decisions (the same in both engines);
    ``cards`` are ``spirits=`` and ``dragons=`` as for ``Game``."""
    g = engine.Game(players=players, seed=seed, **cards)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_action_ids()))
    return g


def _game_length(players: int, seed: int) -> int:
    from . import _core

    return len(position(_core, players, seed, 10_000).history)


def _consolidation_point() -> tuple[int, int]:
    """(seed, steps) of a position whose next decision Consolidates a set of at
    least 5 tiles in a Realm with at least 12 stacks: a busy flood fill."""
    from . import _core

    for seed in range(10_000):
        g = _core.Game(players=2, seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not g.is_over:
            if g.phase == _core.Phase.PLACE and len(g.held_tiles) == 1:
                realm = g.realm(g.current_player)
                stacks = sum(realm.height((r, c)) > 0 for r in range(4) for c in range(4))
                if stacks >= 12:
                    h = g.clone()
                    h.apply(g.legal_actions()[0])
                    if h.vp_tokens(g.current_player) - g.vp_tokens(g.current_player) >= 3:
                        return seed, steps
            g.apply(rng.choice(g.legal_action_ids()))
            steps += 1
    raise RuntimeError("no crowded consolidation found")


@dataclass(frozen=True)
class Operation:
    group: str
    name: str
    #: Build the timed callable for an engine module (setup is not timed).
    make: Callable[[ModuleType], Callable[[], Any]]


def _availability(engine: ModuleType) -> Callable[[], Any]:
    g = position(engine, 2, 1, 40)
    rows, cols = g.castle_shape
    spaces = [(r, c) for r in range(rows) for c in range(cols)]
    return lambda: [g.is_available(s) for s in spaces]


def _legal(players: int, when: str) -> Callable[[ModuleType], Callable[[], Any]]:
    def make(engine: ModuleType) -> Callable[[], Any]:
        steps = {"opening": 0, "mid": 60, "end": max(_game_length(players, 2) - 3, 0)}[when]
        g = position(engine, players, 2, steps)
        return g.legal_actions
    return make


def _clone_and_apply_first(g: Any) -> Callable[[], Any]:
    """A copy of ``g`` with its first legal action applied (``g`` stays as it is)."""
    action = g.legal_actions()[0]

    def run() -> Any:
        h = g.clone()
        h.apply(action)
        return h
    return run


def _apply(engine: ModuleType) -> Callable[[], Any]:
    return _clone_and_apply_first(position(engine, 3, 3, 61))


def _consolidate(engine: ModuleType) -> Callable[[], Any]:
    seed, steps = _consolidation_point()
    return _clone_and_apply_first(position(engine, 2, seed, steps))


def _scoring(engine: ModuleType) -> Callable[[], Any]:
    g = position(engine, 4, 4, 10_000)
    return lambda: (g.scores(), g.winners(), [g.score_breakdown(p) for p in range(g.players)])


def _full_game(players: int, **cards: Any) -> Callable[[ModuleType], Callable[[], Any]]:
    def make(engine: ModuleType) -> Callable[[], Any]:
        counter = iter(range(10**9))
        return lambda: position(engine, players, next(counter), 10_000, **cards)
    return make


def _clone(when: str, history: bool) -> Callable[[ModuleType], Callable[[], Any]]:
    def make(engine: ModuleType) -> Callable[[], Any]:
        steps = 0 if when == "opening" else max(_game_length(2, 2) - 3, 0)
        g = position(engine, 2, 2, steps)
        return lambda: g.clone(history=history)
    return make


def _apply_undo(engine: ModuleType) -> Callable[[], Any]:
    """Apply the first legal action at the end of a game and undo it (the
    Rust engine replays from the start of a history segment, the reference
    from the deal)."""
    g = position(engine, 2, 2, max(_game_length(2, 2) - 3, 0))
    action = g.legal_actions()[0]

    def run() -> Any:
        g.apply(action)
        return g.undo()
    return run


def _mcts(engine: ModuleType) -> Callable[[], Any]:
    """20 iterations of the same search: Rust for the Rust engine, the
    pure-Python twin for the reference engine (random rollouts, mid game)."""
    g = position(engine, 2, 1, 60)
    if engine.__name__.endswith("reference"):
        from .reference.agents import MCTSAgent as PythonMCTS

        twin = PythonMCTS(iterations=20, seed=1)
        return lambda: twin.search(g)
    from .agents import MCTSAgent

    agent = MCTSAgent(iterations=20, seed=1, rollout="random")
    return lambda: agent.search(g)


OPERATIONS = [
    Operation("availability", "is_available, every castle space", _availability),
    Operation("legal", "legal actions, opening", _legal(2, "opening")),
    Operation("legal", "legal actions, mid game", _legal(2, "mid")),
    Operation("legal", "legal actions, end game", _legal(2, "end")),
    Operation("apply", "clone + apply", _apply),
    Operation("clone", "clone, opening", _clone("opening", True)),
    Operation("clone", "clone, end game", _clone("end", True)),
    Operation("clone", "clone(history=False), end game", _clone("end", False)),
    Operation("undo", "apply + undo, end game", _apply_undo),
    Operation("consolidate", "clone + apply: crowded Consolidation", _consolidate),
    Operation("score", "final scoring (4 players)", _scoring),
    Operation("game", "random game, 2 players", _full_game(2)),
    Operation("game", "random game, 3 players", _full_game(3)),
    Operation("game", "random game, 4 players", _full_game(4)),
    Operation("game", "random game, 2 players, 2+2 cards", _full_game(2, spirits=2, dragons=2)),
    Operation("search", "MCTS, 20 iterations (mid game)", _mcts),
]


def measure(fn: Callable[[], Any], seconds: float = 0.3, repeats: int = 3) -> float:
    """Seconds per call: the best of ``repeats`` timed batches of about ``seconds``."""
    loops = 1
    while True:
        start = time.perf_counter()
        for _ in range(loops):
            fn()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds / 4 or loops >= 1 << 24:
            break
        loops *= 4
    loops = max(1, int(loops * seconds / max(elapsed, 1e-9) / 1))
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(loops):
            fn()
        best = min(best, (time.perf_counter() - start) / loops)
    return best


def stepping_cost(engine: ModuleType, games: int = 200) -> float:
    """Seconds per ``legal_actions()`` + ``apply()`` pair over whole games."""
    pairs = 0
    start = time.perf_counter()
    for seed in range(games):
        g = engine.Game(players=2, seed=seed)
        i = seed
        while not g.is_over:
            actions = g.legal_actions()
            g.apply(actions[i % len(actions)])
            i += 7
            pairs += 1
    return (time.perf_counter() - start) / pairs


def mcts_rate(game: Any, threads: int = 1, iterations: int = 20_000, repeats: int = 3, **tuning: Any) -> list[float]:
    """Rust MCTS iterations per second searching ``game``, once per repeat."""
    from .agents import MCTSAgent

    rates = []
    for k in range(repeats):
        r = MCTSAgent(iterations=iterations, threads=threads, seed=k, **tuning).search(game)
        rates.append(r.iterations / r.seconds)
    return rates


def search_tiers(players: int, seed: int, steps: int, iterations: int, python_iterations: int) -> dict[str, float]:
    """Seconds per iteration of the same search (random rollouts, "win" reward)
    on the same position in three tiers: the pure-Python twin over the reference
    engine, the same twin over the Rust engine, and the Rust search."""
    from . import _core, reference
    from .agents import MCTSAgent
    from .reference.agents import MCTSAgent as PythonMCTS

    out = {}
    g_ref = position(reference, players, seed, steps)
    g_rust = position(_core, players, seed, steps)
    r = PythonMCTS(iterations=python_iterations, seed=1).search(g_ref)
    out["python search, python engine"] = r.seconds / r.iterations
    r = PythonMCTS(iterations=iterations, seed=1).search(g_rust)
    out["python search, rust engine"] = r.seconds / r.iterations
    r2 = MCTSAgent(iterations=iterations, seed=1, rollout="random").search(g_rust)
    out["rust search"] = r2.seconds / r2.iterations
    return out


def _fmt(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= scale:
            return f"{seconds / scale:7.2f} {unit:<2}"
    return f"{seconds / 1e-9:7.2f} ns"


def report(seconds: float = 0.3, games: int = 20_000, out: Callable[[str], Any] = print) -> dict[str, float]:
    """Print the Rust-vs-Python table and the throughput figures; return them.

    Each operation of the table gives three figures: its name maps to the
    ratio Python / Rust, and ``"rust seconds: NAME"`` and ``"python seconds:
    NAME"`` to the time per call in each engine (in table order)."""
    import os
    import platform

    from . import _core, reference

    figures: dict[str, float] = {}
    out(f"dragoncastle bench on {platform.machine()} {platform.system()}, {os.cpu_count()} cores, Python {platform.python_version()}")
    out("")
    out(f"{'operation':<40} {'rust':>10} {'python':>10} {'ratio':>8}")
    for op in OPERATIONS:
        rust = measure(op.make(_core), seconds)
        python = measure(op.make(reference), seconds)
        figures[op.name] = python / rust
        # The times themselves too, for ``dragoncastle bench --plot`` (plots.plot_bench).
        figures[f"rust seconds: {op.name}"] = rust
        figures[f"python seconds: {op.name}"] = python
        out(f"{op.name:<40} {_fmt(rust):>10} {_fmt(python):>10} {python / rust:>7.0f}x")
    out("")
    _core.playouts("random", games // 4, players=2, seed=0, threads=1)  # warm up: clocks, caches, pages
    for players in (2, 3, 4):
        per_run = []
        for _ in range(5):
            start = time.perf_counter()
            _core.playouts("random", games, players=players, seed=0, threads=1)
            per_run.append(games / (time.perf_counter() - start))
        best, median = max(per_run), statistics.median(per_run)
        python = measure(next(o for o in OPERATIONS if o.name == f"random game, {players} players").make(reference), seconds)
        figures[f"games/s {players}p"] = best
        figures[f"games/s {players}p median"] = median
        figures[f"ratio {players}p"] = python * best
        out(f"random games, {players} players: Rust {best:>8.0f} games/s per core (best of 5; median {median:.0f}; "
            f"no Python per step), reference {1 / python:>6.1f} games/s: {python * best:.0f}x")
    start = time.perf_counter()
    _core.playouts("random", games, players=2, seed=0, threads=1, spirits=2, dragons=2)
    per_game = (time.perf_counter() - start) / games
    python = measure(next(o for o in OPERATIONS if o.name.endswith("2+2 cards")).make(reference), seconds)
    figures["games/s 2p cards"] = 1 / per_game
    out(f"random games, 2 players, 2 Spirits + 2 Dragons drawn per game: Rust {1 / per_game:>8.0f} games/s per core, "
        f"reference {1 / python:>6.1f} games/s: {python / per_game:.0f}x")
    import sys

    fresh = sys.getsizeof(_core.Game(players=2, seed=0))
    ended = position(_core, 2, 0, 10_000)
    per = (sys.getsizeof(ended) - fresh) / len(ended.history)
    figures["memory bytes per decision"] = per
    out(f"memory of a Rust game (sys.getsizeof): {fresh} bytes at the opening, {per:.0f} more per decision of history")
    steps = [stepping_cost(_core) for _ in range(5)]
    step_rust, step_median = min(steps), statistics.median(steps)
    step_ref = stepping_cost(reference, games=20)
    figures["stepping µs"] = step_rust * 1e6
    out(f"Python-level legal_actions()+apply(): Rust {step_rust * 1e6:.2f} µs (best of 5; median {step_median * 1e6:.2f}), "
        f"reference {step_ref * 1e6:.1f} µs per pair")
    rates = {}
    for threads in (1, 2):
        start = time.perf_counter()
        _core.playouts("random", 2 * games, players=2, seed=1, threads=threads)
        rates[threads] = 2 * games / (time.perf_counter() - start)
        out(f"batch playouts, 2 players, {threads} thread(s): {rates[threads]:>9.0f} games/s")
    figures["thread speed-up"] = rates[2] / rates[1]
    out(f"batch speed-up with 2 threads: {rates[2] / rates[1]:.2f}x")
    mid = position(_core, 2, 1, 60)
    for name, g in (("opening", position(_core, 2, 1, 0)), ("mid game", mid)):
        for threads in (1, 2):
            rate = max(mcts_rate(g, threads, iterations=max(2000, games // 2), repeats=2))
            figures[f"mcts {name} {threads}t"] = rate
            out(f"MCTS (default, tuned rollouts), 2 players, {name}, {threads} thread(s): {rate:>9.0f} iterations/s")
    tiers = search_tiers(2, 1, 60, iterations=2000, python_iterations=40)
    ref, mixed, rust = tiers.values()
    figures["mcts rust/python"] = ref / rust
    out(f"MCTS (random rollouts), mid game, per iteration: Python search on the reference {_fmt(ref).strip()}, "
        f"on the Rust engine {_fmt(mixed).strip()}, Rust search {_fmt(rust).strip()}: {ref / rust:.0f}x")
    return figures

"""Self-play training of the search's network: :func:`train`, ``dragoncastle train``.

Expert Iteration (Anthony, Tian & Barber 2017) in AlphaZero's form, with plain
numpy (``docs/training.md``):

1. **Self-play.** The search with the current network (at first, the rollout
   search) plays whole games in Rust threads (:func:`dragoncastle.selfplay`),
   or as Ray tasks on a cluster with ``ray=`` (the same games and data);
   every decision gives the mover's compact observation, the legal actions,
   the search's visit distribution and, at the end, the final returns.
2. **Training.** The network learns the visit distributions (cross-entropy)
   and the final returns of the seats (solo: squared error on score / 100;
   with rivals: cross-entropy of a softmax over the seats) on the last few
   generations' data, with Adam, starting from the current weights. With
   ``targets="siblings"`` a fresh network's value path learns instead the
   search's values of each decision's well-visited moves (solo: scores; with
   rivals: the mover's chance to win), :func:`fit_siblings`.
3. **Gate.** The new network plays held-out deals (seeds no self-play game
   uses) against the current one, at the same iterations; it replaces it only
   if it does at least as well (solo: mean score; with rivals: win rate).

Every generation writes its weights, a checkpoint and a line of
``log.jsonl`` in the run directory; a run started again with the same
directory continues after the last finished generation. This module holds
the settings, the loop and the command; the network and its losses are
:mod:`dragoncastle.train_model`, the fitting :mod:`dragoncastle.train_fit`,
the self-play and its data files :mod:`dragoncastle.train_data` (their
public names are importable from here too).
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
import time
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

import numpy as np

from . import _core, distributed
from .arena import arena
from .output import OutputError, check_output, write_file
from .train_data import _agent, _check_window_files, _concat, _load_window, _selfplay_chunks  # noqa: F401 (_concat)
from .train_fit import fit, fit_siblings, held_out_rows, sibling_agreement  # noqa: F401 (re-exported)
from .train_model import (SEATS, Adam, Model, features, forward, losses, relative_returns,  # noqa: F401
                          sibling_losses, value_targets)

__all__ = ["TrainConfig", "train", "Model", "forward", "losses", "sibling_losses", "fit_siblings"]

HELD_OUT_SEEDS = 1_000_000_000  # gate deals: far from every self-play seed


def _setting(default: Any, help: str) -> Any:
    """A ``TrainConfig`` setting with its help text: the command line's
    options are made from these (one list of names, :func:`main`)."""
    return field(default=default, metadata={"help": help})


@dataclass
class TrainConfig:
    """One training run. ``directory`` holds the checkpoints and the log."""

    directory: str = field(metadata={"help": "run directory: checkpoints, data, log.jsonl (a run there continues)"})
    players: int = _setting(1, "players of the self-play games (1: solo)")
    generations: int = _setting(10, "generations of self-play, training and gate")
    games: int = _setting(200, "self-play games per generation")
    iterations: int = _setting(400, "search iterations per self-play decision")
    gate_games: int = _setting(40, "held-out games of the gate that decides whether new weights replace the best")
    gate_iterations: int = _setting(400, "search iterations per gate decision")
    hidden: int = _setting(64, "units of the first hidden layer")
    hidden2: int = _setting(32, "units of the second hidden layer")
    epochs: int = _setting(5, "passes over the window's data per generation")
    batch: int = _setting(256, "decisions per gradient step")
    learning_rate: float = _setting(1e-3, "Adam's learning rate")
    window: int = _setting(2, "generations of data trained on")
    value_weight: float = _setting(1.0, "weight of the value loss against the policy loss")
    q_weight: float = _setting(0.5, "value target: (1 - q) * final return + q * the search's value (KataGo mixes the two)")
    rollout_weight: float = _setting(0.5, "rollouts mixed into the network's values in self-play and gates")
    priors: int = _setting(0, "1: PUCT with the network's priors; 0: the rollout search's selection, network values only")
    children_share: float = _setting(0.05, "sibling targets: record root moves with at least this share of the visits "
                                           "(0: off)")
    children_max: int = _setting(6, "sibling targets: at most this many root moves per decision")
    child_weight: float = _setting(1.0, "sibling targets: weight of the children's absolute value loss")
    centre_weight: float = _setting(20.0, "sibling targets: weight of the loss on differences between siblings")
    targets: str = _setting("siblings", "what the network learns: 'siblings' (a fresh network's value path learns the "
                                        "search's values of well-visited moves; the shipped recipe) or 'visits' (the "
                                        "visit distributions and returns)")
    decay: float = _setting(1.0, "siblings: decoupled weight decay of embed, w1, wv, times the learning rate")
    chunk: int = _setting(100, "self-play games per data file: a stopped run loses at most one chunk")
    noise: tuple[float, float] | None = _setting((0.3, 0.25), "Dirichlet noise on the root's priors in self-play, "
                                                              "alpha/fraction (with priors=1)")
    temperature: float = _setting(0.0, "self-play moves drawn with chances visits^(1/T); 0 plays the most visited "
                                        "(noise, not temperature, explores)")
    spirits: int = _setting(0, "Spirit cards per game, drawn from each game's seed")
    dragons: int = _setting(0, "Dragon cards per game, drawn from each game's seed")
    seed: int = _setting(0, "first self-play seed; gates use held-out seeds")
    threads: int | None = _setting(None, "Rust threads (default: every core; with ray, per Ray task, default 1)")
    # Where the games run, not which: the data, the weights and the gates are
    # those of a run on this machine.
    ray: str | None = _setting(None, "play self-play and gates as Ray tasks: 'local', 'auto' (the cluster this "
                                     "machine belongs to) or a cluster address (docs/distributed.md) "
                                     "(default: no Ray, threads on this machine)")
    command: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def check(self) -> None:
        """Refuse settings that cannot train, before any game is played: a
        ``ValueError`` naming the first bad field. The bounds are
        ``WHOLE_BOUNDS`` and ``REAL_BOUNDS`` (hidden sizes at most
        ``MAX_HIDDEN``, the network's bound); the search's own settings
        (``noise``, ``temperature``) are checked by the search."""
        if not isinstance(self.directory, str) or not self.directory:
            raise ValueError(f"directory must be a path; got {self.directory!r}")
        check_paths(self.directory)
        _check_bounds(self)
        if self.threads is not None and (type(self.threads) is not int or self.threads < 1):
            raise ValueError(f"threads must be a whole number >= 1 or None; got {self.threads!r}")
        if self.targets not in ("visits", "siblings"):
            raise ValueError(f"targets is 'visits' or 'siblings'; got {self.targets!r}")
        if self.targets == "siblings" and self.children_share <= 0:
            raise ValueError("sibling targets need self-play that records children (children_share > 0)")
        if self.ray is not None and (not isinstance(self.ray, str) or not self.ray.strip()):
            raise ValueError(f"ray is 'local', 'auto' or a cluster address; got {self.ray!r}")
        noise: Any = None if self.noise is None else tuple(self.noise)
        try:
            _core.Player("mcts", {"iterations": self.iterations, "noise": noise, "temperature": self.temperature})
        except (TypeError, ValueError) as e:
            raise ValueError(f"noise or temperature: {e}") from None


def _check_bounds(cfg: TrainConfig) -> None:
    """The numbers of ``cfg`` within ``WHOLE_BOUNDS`` and ``REAL_BOUNDS``."""
    for name, (low, high) in WHOLE_BOUNDS.items():
        v = getattr(cfg, name)
        if type(v) is not int or not low <= v <= high:
            raise ValueError(f"{name} must be a whole number from {low} to {high}; got {v!r}")
    for name, (lo, hi, open_low) in REAL_BOUNDS.items():
        x = getattr(cfg, name)
        if type(x) not in (int, float) or not math.isfinite(x) or not (lo < x if open_low else lo <= x) or x > hi:
            bound = (f"> {lo}" if open_low else f">= {lo}") + (f" and <= {hi}" if math.isfinite(hi) else "")
            raise ValueError(f"{name} must be a finite number {bound}; got {x!r}")


#: Largest hidden layers: the network's own bound (``MAX_HIDDEN`` of
#: ``rust/eval/network.rs``, its stack buffers), which ``_core`` does not expose;
#: tests/test_training.py checks that ``_core.Network`` accepts this and no more.
MAX_HIDDEN = 1024
#: Largest batch: a batch's dense features (9485 float32 a decision) and policies.
MAX_BATCH = 16384
_UNBOUNDED = 2**63 - 1
#: ``TrainConfig``'s whole-number settings: (lowest, highest).
WHOLE_BOUNDS: dict[str, tuple[int, int]] = {
    "players": (1, 4), "generations": (1, _UNBOUNDED), "games": (1, _UNBOUNDED), "iterations": (1, _UNBOUNDED),
    "gate_games": (1, _UNBOUNDED), "gate_iterations": (1, _UNBOUNDED), "hidden": (1, MAX_HIDDEN),
    "hidden2": (1, MAX_HIDDEN), "epochs": (1, _UNBOUNDED), "batch": (1, MAX_BATCH), "window": (1, _UNBOUNDED),
    "priors": (0, 1), "children_max": (1, _UNBOUNDED), "chunk": (1, _UNBOUNDED),
    "spirits": (0, len(_core.SPIRITS)), "dragons": (0, len(_core.DRAGONS)), "seed": (0, 2**63 - 1),
}
#: ``TrainConfig``'s real-number settings: (lowest, highest, lowest excluded). NaN and
#: infinities are refused: a NaN learning rate trained a whole generation of NaN weights.
REAL_BOUNDS: dict[str, tuple[float, float, bool]] = {
    "learning_rate": (0.0, 1.0, True), "value_weight": (0.0, math.inf, False), "q_weight": (0.0, 1.0, False),
    "rollout_weight": (0.0, 1.0, False), "children_share": (0.0, 1.0, False), "child_weight": (0.0, math.inf, False),
    "centre_weight": (0.0, math.inf, False), "decay": (0.0, math.inf, False),
}


def _strength(cfg: TrainConfig, model: str | None, games: int, iterations: int) -> float:
    """Mean solo score, or win rate against the rollout search, on held-out deals."""
    spec = _agent(cfg, model, iterations, selfplay_noise=False).spec
    spirits, dragons = cfg.spirits or None, cfg.dragons or None
    rivals = [_agent(cfg, None, iterations, selfplay_noise=False).spec] * (cfg.players - 1)
    r = arena([spec, *rivals], games, seed=HELD_OUT_SEEDS, threads=cfg.threads, spirits=spirits, dragons=dragons,
              ray=cfg.ray)
    return r.mean_scores()[0] if cfg.players == 1 else r.win_rates()[0]


def train(cfg: TrainConfig, log: Callable[[str], None] = print) -> str:
    """Run (or continue) the training of ``cfg``; returns the path of the best weights."""
    cfg.check()
    try:
        os.makedirs(cfg.directory, exist_ok=True)
    except OSError as e:
        raise ValueError(f"cannot make the run directory {cfg.directory}: {e.strerror or e}") from None
    state_path = os.path.join(cfg.directory, "state.json")
    # What decides which games a generation's data files hold: a run continued with
    # other values would read files that are not there, or mix games of other modes.
    layout = {k: getattr(cfg, k) for k in ("games", "chunk", "players", "spirits", "dragons", "seed")}
    state: dict[str, Any] = {"generation": 0, "best": None, "best_strength": None, "seconds": 0.0, "layout": layout}
    if os.path.exists(state_path):
        state = _read_state(state_path)
        changed = {k: (v, layout.get(k)) for k, v in state["layout"].items() if layout.get(k) != v}
        if changed:
            raise ValueError(f"{cfg.directory} was started with other self-play settings; continue it with the same ones "
                             "or use another directory: " + ", ".join(f"{k} was {a}, now {b}" for k, (a, b) in changed.items()))
        log(f"continuing {cfg.directory} after generation {state['generation']} (best: {state['best']})")
    # No Ray is started for a run with nothing left to do.
    address = cfg.ray if state["generation"] < cfg.generations else None
    with distributed.session(address) if address is not None else contextlib.nullcontext():
        _generations(cfg, state, state_path, log)
    return state["best"]


#: The most characters read of a state.json (it holds a few short fields).
MAX_STATE = 1 << 20

_STATE_FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "generation": (lambda v: type(v) is int and v >= 0, "a whole number >= 0"),
    "best": (lambda v: v is None or (isinstance(v, str) and os.path.isfile(v)), "null or an existing weights file"),
    "best_strength": (lambda v: v is None or (type(v) in (int, float) and math.isfinite(v)), "null or a finite number"),
    "seconds": (lambda v: type(v) in (int, float) and math.isfinite(v) and v >= 0, "a number of seconds"),
    "layout": (lambda v: isinstance(v, dict), "an object"),
}


def _read_state(path: str) -> dict[str, Any]:
    """A run's ``state.json``, read with a bound and checked field by field:
    ``ValueError`` naming the file and the field otherwise."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(MAX_STATE + 1)
        state = json.loads(text) if len(text) <= MAX_STATE else None
    except (OSError, UnicodeDecodeError) as e:
        raise ValueError(f"cannot read {path}: {e}") from None
    except (ValueError, RecursionError) as e:
        raise ValueError(f"{path}: not a training state (not JSON: {e})") from None
    if not isinstance(state, dict):
        raise ValueError(f"{path}: not a training state (a JSON object of at most {MAX_STATE} characters is expected)")
    state.setdefault("layout", {})  # runs started before the layout was kept have none
    for name, (ok, what) in _STATE_FIELDS.items():
        if name not in state or not ok(state[name]):
            raise ValueError(f"{path}: {name} should be {what}, not {json.dumps(state.get(name))[:80]}")
    # A network is kept from the first generation on, and its gate result with it.
    if (state["generation"] == 0) != (state["best"] is None) or (state["best"] is None) != (state["best_strength"] is None):
        raise ValueError(f"{path}: generation {state['generation']}, best {state['best']!r} and best_strength "
                         f"{state['best_strength']} do not go together")
    return state


def _generations(cfg: TrainConfig, state: dict[str, Any], state_path: str, log: Callable[[str], None]) -> None:
    """The generations still to run, each ending with a checkpoint."""
    rng = np.random.default_rng(cfg.seed + 7919 * state["generation"])
    while state["generation"] < cfg.generations:
        g = state["generation"]
        start = time.perf_counter()
        _check_window_files(cfg, g)
        log(f"generation {g + 1}/{cfg.generations}: self-play, {cfg.games} games at {cfg.iterations} iterations"
            f" ({'rollouts' if state['best'] is None else 'network ' + os.path.basename(state['best'])})")
        _selfplay_chunks(cfg, state["best"], g, log)
        window, decisions = _load_window(cfg, g)
        played = time.perf_counter()
        log(f"  {decisions} decisions; training on {len(window['to_move'])} from the last {min(cfg.window, g + 1)} generation(s)")
        if cfg.targets == "siblings":
            model, metrics = fit_siblings(window, cfg.hidden, cfg.hidden2, cfg.epochs, cfg.seed + g, cfg.learning_rate,
                                          cfg.child_weight, cfg.centre_weight, cfg.decay, max(1, cfg.batch // 4), log=log,
                                          players=cfg.players)
        else:
            model = Model.from_network(_core.Network.load(state["best"])) if state["best"] else Model(cfg.hidden, cfg.hidden2, cfg.seed)
            metrics = fit(model, window, cfg, rng, log)
        del window
        trained = time.perf_counter()
        training = {"command": cfg.command, "seed": cfg.seed, "generation": g + 1, "players": cfg.players,
                    "config": {k: v for k, v in asdict(cfg).items() if k not in ("directory", "command", "extra", "ray")}}
        path = os.path.join(cfg.directory, f"gen{g + 1:03d}.dcnet")
        model.to_network(training).save(path)
        strength = _strength(cfg, path, cfg.gate_games, cfg.gate_iterations)
        previous = state["best_strength"]
        if previous is None and state["best"] is None:
            previous = _strength(cfg, None, cfg.gate_games, cfg.gate_iterations)
            state["rollout_strength"] = previous
        # The first network is kept whatever its gate says: the next generation's
        # self-play needs one, and the log says when it is below the rollout search.
        first = state["best"] is None
        accepted = first or strength >= previous
        if first:
            verdict = "kept as the first network" + ("" if strength >= previous else ", below the rollout search")
        else:
            verdict = "accepted" if accepted else "rejected"
        log(f"  gate on {cfg.gate_games} held-out deals at {cfg.gate_iterations} iterations: {strength:.3f}"
            f" ({'rollout search' if first else 'current'}: {previous:.3f}) -> {verdict}")
        if accepted:
            state["best"], state["best_strength"] = path, strength
        state["generation"] = g + 1
        state["seconds"] += time.perf_counter() - start
        with open(os.path.join(cfg.directory, "log.jsonl"), "a") as f:
            f.write(json.dumps({"generation": g + 1, "seconds": round(state["seconds"], 1), "decisions": decisions,
                                "selfplay_seconds": round(played - start, 1), "train_seconds": round(trained - played, 1),
                                "strength": strength, "current": previous, "accepted": accepted, **metrics}) + "\n")
        write_file(state_path, json.dumps(state))


#: What ``dragoncastle train --help`` says first (plain text; the module's
#: documentation has the details).
DESCRIPTION = """Self-play training of the search's network (docs/training.md).

Each generation: the search with the current network plays self-play games,
a network learns from the last generations' data, and a gate on held-out deals
keeps it only if it plays at least as well. Every generation writes its weights,
a checkpoint and a line of log.jsonl in --dir; the same command again continues
the run. The defaults are the recipe that made the shipped network."""

#: TrainConfig fields that are not command-line options.
_NOT_OPTIONS = ("directory", "command", "extra")


def _noise(text: str) -> tuple[float, float] | None:
    """``--noise A/F`` (or ``none``), read by the agent specs' own parser."""
    import argparse

    if text.lower() in ("none", "off"):
        return None
    try:
        alpha, fraction = _core.Player.parse(f"mcts:noise={text}").settings()["noise"]
    except ValueError:
        raise argparse.ArgumentTypeError(f"noise is alpha/fraction (0.3/0.25) or none; got {text!r}") from None
    return (alpha, fraction)


def parser() -> Any:
    """The command line of ``dragoncastle train``: one option per
    :class:`TrainConfig` setting, with its help and default."""
    import argparse
    import dataclasses

    from .cli_common import HelpFormatter

    ap = argparse.ArgumentParser(prog="dragoncastle train", description=DESCRIPTION, formatter_class=HelpFormatter)
    ap.add_argument("--dir", required=True, help=TrainConfig.__dataclass_fields__["directory"].metadata["help"])
    ap.add_argument("--out", help="copy the best weights here at the end (default: not copied)")
    for f in dataclasses.fields(TrainConfig):
        if f.name in _NOT_OPTIONS:
            continue
        kind: Any = {"int": int, "float": float, "str": str}.get(str(f.type).split(" ")[0])
        extra: dict[str, Any] = {}
        if f.name == "noise":
            kind, extra["metavar"] = _noise, "A/F"
        elif f.name == "targets":
            extra["choices"] = ("siblings", "visits")
        elif f.name == "threads":
            kind = int
        elif f.name == "ray":
            kind, extra["nargs"], extra["const"], extra["metavar"] = str, "?", "local", "ADDRESS"
        # A setting whose help states its default (those that default to None) keeps it.
        text = f.metadata["help"]
        if "default" not in text:
            text += " (default: %s)" % ("/".join(map(str, f.default)) if isinstance(f.default, tuple) else f.default)
        ap.add_argument("--" + f.name.replace("_", "-"), type=kind, default=f.default, help=text, **extra)
    ap.add_argument("--plot", metavar="FILE.png", help="draw the learning curve at the end; needs matplotlib (default: no plot)")
    return ap


def check_paths(directory: str, out: str | None = None, plot: str | None = None) -> None:
    """The one check of a run's paths, before any work: ``directory`` a
    directory, or a path where one can be made; ``out`` and ``plot`` places
    for a regular file (:func:`dragoncastle.output.check_output`), in an
    existing directory or in the run directory. ``ValueError`` naming the
    path otherwise."""
    if not os.path.isdir(directory):
        if os.path.lexists(directory):
            raise ValueError(f"the run directory {directory} exists and is not a directory")
        above = os.path.dirname(os.path.abspath(directory))
        while not os.path.lexists(above):
            above = os.path.dirname(above)
        if not os.path.isdir(above):
            raise ValueError(f"the run directory {directory} cannot be made: {above} is not a directory")
    for option, path in (("--out", out), ("--plot", plot)):
        if path is None:
            continue
        if not os.path.isdir(directory) and os.path.abspath(os.path.dirname(path)) == os.path.abspath(directory):
            continue  # in the run directory, still to be made
        try:
            check_output(path)
        except OutputError as e:
            raise ValueError(f"{option}: {e}") from None


def main(argv: list[str] | None = None) -> int:
    """``dragoncastle train``: see ``--help``."""
    import dataclasses

    ap = parser()
    args = ap.parse_args(argv)
    try:
        check_paths(args.dir, args.out, args.plot)
    except ValueError as e:
        ap.exit(2, f"dragoncastle train: {e}\n")
    settings = {f.name: getattr(args, f.name) for f in dataclasses.fields(TrainConfig) if f.name not in _NOT_OPTIONS}
    cfg = TrainConfig(directory=args.dir, command="dragoncastle train " + " ".join(argv if argv is not None else sys.argv[2:]),
                      **settings)
    try:
        # train() checks the settings and the run directory before any game is played.
        best = train(cfg, log=lambda s: print(s, flush=True))
    except ValueError as e:
        raise SystemExit(f"dragoncastle train: {e}") from None
    if args.plot:
        from .plots import plot_training

        with open(os.path.join(args.dir, "log.jsonl")) as f:
            rows = [json.loads(line) for line in f if line.strip()]
        with open(os.path.join(args.dir, "state.json")) as f:
            rollout = json.load(f).get("rollout_strength")
        plot_training(rows, args.plot, rollout=rollout, title=f"dragoncastle train --dir {args.dir}")
        print(f"learning curve: {args.plot}")
    if args.out and best:
        import shutil

        try:
            with open(best, "rb") as source:
                write_file(args.out, lambda f: shutil.copyfileobj(source, f))
        except OutputError as e:
            raise SystemExit(f"dragoncastle train: --out: {e}") from None
        print(f"best weights: {best}, copied to {args.out}")
    else:
        print(f"best weights: {best}")
    return 0

"""A training run's self-play and its data files: each generation's games,
played by the run's search (:func:`_agent`) here or on Ray, written
``cfg.chunk`` games per file; the window of the last generations' files read
back, each checked array by array."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from . import _core, distributed
from .agents import MCTSAgent
from .arena import shard_ranges
from .output import write_file
from .selfplay import selfplay

if TYPE_CHECKING:
    from .train import TrainConfig


def _agent(cfg: TrainConfig, model: str | None, iterations: int, selfplay_noise: bool) -> MCTSAgent:
    """The one description of the run's search: self-play's (with its noise
    and temperature) or the gates' (without), with ``model`` or rollouts
    alone. It keeps no tree, as self-play never does and as the shipped
    network was gated."""
    tuning: dict[str, Any] = {"reuse_tree": False}
    if model is not None:
        tuning["model"] = model
        if cfg.rollout_weight:
            tuning["rollout_weight"] = cfg.rollout_weight
        if not cfg.priors:
            tuning["priors"] = False
        elif selfplay_noise and cfg.noise:
            tuning["noise"] = tuple(cfg.noise)
    if selfplay_noise and cfg.temperature:
        tuning["temperature"] = cfg.temperature
    return MCTSAgent(iterations=iterations, **tuning)


def _selfplay_chunks(cfg: TrainConfig, model: str | None, g: int, log: Callable[[str], None]) -> None:
    """Generation ``g``'s self-play by the search with the network at ``model``
    (None: the rollout search), ``cfg.chunk`` games per data file; files
    already written (by a run that stopped) are kept. Game ``k`` of the
    generation has seed ``cfg.seed + g * cfg.games + k`` however it is chunked,
    and wherever it is played (``cfg.ray``)."""
    chunks = [(c, first, min(cfg.chunk, cfg.games - first)) for c, first in enumerate(range(0, cfg.games, cfg.chunk))]
    paths = [os.path.join(cfg.directory, f"data{g:03d}-{c:03d}.npz") for c, _, _ in chunks]
    missing = [(c, first, n) for c, first, n in chunks if not os.path.exists(paths[c])]
    seed = cfg.seed + g * cfg.games
    if cfg.ray is None:
        agent = _agent(cfg, model, cfg.iterations, selfplay_noise=True)
        for c, first, n in missing:
            _write_chunk(cfg, paths[c], _stored(_selfplay(cfg, agent, n, seed + first, cfg.threads)), first, n, log)
    elif missing:
        ray = distributed.ray_module()  # train() holds the session
        per_task = distributed.per_task(cfg.threads)
        task = ray.remote(_selfplay_shard).options(num_cpus=per_task)
        files = ray.put(distributed.read_files([model] if model else []))
        # Every missing chunk's shards are queued at once (about
        # SHARDS_PER_SLOT per slot in all), so no slot waits for a chunk's
        # last game; the chunks are written in order as their shards are back.
        per_chunk = -(-distributed.SHARDS_PER_SLOT * distributed.slots(ray, per_task) // len(missing))
        refs = {c: [task.remote(cfg, model, files, count, seed + first + s, per_task) for s, count in shard_ranges(n, per_chunk)]
                for c, first, n in missing}
        try:
            for c, first, n in missing:
                _write_chunk(cfg, paths[c], _concat(distributed.gather(ray, refs[c])), first, n, log)
                del refs[c]  # its results can leave the object store
        except BaseException:
            distributed.cancel(ray, [r for rs in refs.values() for r in rs])
            raise


def _selfplay(cfg: TrainConfig, agent: MCTSAgent, n: int, seed: int, threads: int | None) -> dict[str, np.ndarray]:
    """Games ``seed .. seed + n - 1`` of self-play in the mode of ``cfg``."""
    children = cfg.children_share > 0 and (cfg.players == 1 or cfg.targets == "siblings")
    return selfplay(agent, n, players=cfg.players, seed=seed, threads=threads, spirits=cfg.spirits or None,
                    dragons=cfg.dragons or None, children=(cfg.children_share, cfg.children_max) if children else None)


def _selfplay_shard(cfg: TrainConfig, model: str | None, files: dict[str, bytes], n: int, seed: int,
                    threads: int) -> dict[str, np.ndarray]:
    """The body of a Ray task: :func:`_selfplay` with the network at
    ``model``, read from the bytes that came with the task (a node need not
    see the driver's disk), in the form stored. A module-level function, so
    that the workers run the installed package."""
    if model is not None:
        model = distributed.local_path(model, files)
    return _stored(_selfplay(cfg, _agent(cfg, model, cfg.iterations, selfplay_noise=True), n, seed, threads))


def _stored(data: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Self-play data as a data file holds it: the policies, mostly zeros,
    sparse (``policy_rows``, ``policy_cols``, ``policy_values``)."""
    rows, cols = np.nonzero(data["policies"])
    out = {k: v for k, v in data.items() if k != "policies"}
    out.update(policy_rows=rows, policy_cols=cols, policy_values=data["policies"][rows, cols])
    return out


def _write_chunk(cfg: TrainConfig, path: str, arrays: dict[str, Any], first: int, n: int,
                 log: Callable[[str], None]) -> None:
    """One data file, written whole or not at all."""
    write_file(path, lambda f: np.savez_compressed(f, **arrays))
    if cfg.games > cfg.chunk:
        log(f"  games {first + 1}-{first + n} of {cfg.games}: {len(arrays['to_move'])} decisions")


def _window_paths(cfg: TrainConfig, g: int) -> list[tuple[int, str]]:
    """The data files of the window that ends with generation ``g``, with the generation of each."""
    return [(k, os.path.join(cfg.directory, f"data{k:03d}-{c:03d}.npz"))
            for k in range(max(0, g + 1 - cfg.window), g + 1) for c in range(0, -(-cfg.games // cfg.chunk))]


def _check_window_files(cfg: TrainConfig, g: int) -> None:
    """The earlier generations' data files of ``g``'s window are there, before
    ``g``'s self-play (which writes only ``g``'s)."""
    for k, path in _window_paths(cfg, g):
        if k < g and not os.path.isfile(path):
            _read_chunk(path, cfg)  # its error names the file


def _load_window(cfg: TrainConfig, g: int) -> tuple[dict[str, np.ndarray], int]:
    """The data of the window that ends with generation ``g``, each file
    checked (:func:`_read_chunk`), and generation ``g``'s number of decisions."""
    parts = []
    decisions = 0
    for k, path in _window_paths(cfg, g):
        d = _read_chunk(path, cfg)
        decisions += len(d["to_move"]) if k == g else 0
        if cfg.targets == "siblings":
            d = {name: d[name] for name in ("to_move", "game", "child_observations", "child_values", "child_rows",
                                            "child_seats") if name in d}
        else:
            policies = np.zeros((len(d["to_move"]), _core.NUM_ACTIONS), np.float32)
            policies[d.pop("policy_rows"), d.pop("policy_cols")] = d.pop("policy_values")
            d["policies"] = policies
        parts.append(d)
    return _concat(parts), decisions


def _chunk_arrays(cfg: TrainConfig) -> dict[str, tuple[str, tuple[int, ...], str]]:
    """The arrays of a data file (as :func:`_stored` writes them): the rows each
    has (``n`` decisions, ``m`` children, ``p`` policy entries), the shape
    after them, and the kinds of numpy type it may have."""
    obs = (_core.COMPACT_OBSERVATION_SIZE,)
    return {"to_move": ("n", (), "iu"), "observations": ("n", obs, "u"), "masks": ("n", (_core.NUM_ACTIONS,), "b"),
            "actions": ("n", (), "iu"), "values": ("n", (), "f"), "returns": ("n", (cfg.players,), "f"),
            "game": ("n", (), "iu"), "policy_rows": ("p", (), "iu"), "policy_cols": ("p", (), "iu"),
            "policy_values": ("p", (), "f"), "child_observations": ("m", obs, "u"), "child_rows": ("m", (), "iu"),
            "child_actions": ("m", (), "iu"), "child_visits": ("m", (), "iu"), "child_values": ("m", (), "f"),
            "child_seats": ("m", (), "iu")}


def _chunk_needs(cfg: TrainConfig) -> tuple[str, ...]:
    """The arrays the training reads from a data file."""
    if cfg.targets == "siblings":
        return ("to_move", "game", "child_observations", "child_values", "child_rows")
    return ("to_move", "observations", "masks", "returns", "policy_rows", "policy_cols", "policy_values")


# Values that index other arrays: (array, what it indexes, bound).
_INDEX_BOUNDS = (("to_move", "players"), ("policy_rows", "n"), ("policy_cols", "actions"), ("child_rows", "n"),
                 ("child_seats", "players"))


def _read_chunk(path: str, cfg: TrainConfig) -> dict[str, np.ndarray]:
    """A data file's arrays, checked (present, shaped and typed as
    :func:`_stored` writes them, indices in range, no NaN where none is
    written): ``ValueError`` naming the file and the array otherwise."""
    try:
        with np.load(path, allow_pickle=False) as z:
            d = {name: z[name] for name in z.files}
    except FileNotFoundError:
        raise ValueError(f"{path}: missing: a data file of the run's window (delete state.json and the gen*.dcnet "
                         "files to start the run again)") from None
    except Exception as e:  # numpy and zipfile raise many kinds on a damaged file
        raise ValueError(f"{path}: not a data file ({type(e).__name__}: {e})") from None
    rows: dict[str, int] = {}
    for name, (kind, shape, types) in _chunk_arrays(cfg).items():
        if name not in d:
            if name in _chunk_needs(cfg):
                raise ValueError(f"{path}: no array {name}")
            continue
        a = d[name]
        n = rows.setdefault(kind, a.shape[0] if a.ndim else -1)
        if a.ndim != 1 + len(shape) or a.shape != (n, *shape) or a.dtype.kind not in types:
            raise ValueError(f"{path}: {name} is {a.dtype} {a.shape}, not ({kind}, {', '.join(map(str, shape))}) of "
                             f"{'/'.join(types)} type, as its other arrays say")
        if name in ("returns", "policy_values", "child_values") and not np.isfinite(a).all():
            raise ValueError(f"{path}: {name} holds NaN or infinite values")
    bounds = {"players": cfg.players, "n": rows.get("n", 0), "actions": _core.NUM_ACTIONS}
    for name, of in _INDEX_BOUNDS:
        if name in d and len(d[name]) and not (0 <= d[name].min() and d[name].max() < bounds[of]):
            raise ValueError(f"{path}: {name} holds values outside 0 to {bounds[of] - 1}")
    return d


def _concat(parts: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """Parts of self-play data (shards, chunks, generations) as one, in order:
    the arrays that index decisions (``child_rows``, ``policy_rows``) shifted
    to the joined rows; an array only when every part has it."""
    out = {k: np.concatenate([p[k] for p in parts]) for k in parts[0] if all(k in p for p in parts)}
    offsets = np.cumsum([0] + [len(p["to_move"]) for p in parts[:-1]])
    for k in ("child_rows", "policy_rows"):
        if k in out:
            out[k] = np.concatenate([p[k] + o for p, o in zip(parts, offsets)])
    return out

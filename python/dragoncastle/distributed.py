"""Runs spread over Ray: the arena's games (``arena(..., ray=...)``) and
training's self-play and gates (``dragoncastle train --ray``).

Both cut a run into contiguous seed ranges, play each range as one Ray task
and put the ranges back together in order, which gives exactly the result of
a local run (``docs/distributed.md``). This module holds what they share: the
Ray session of a run, the CPUs a task reserves, waiting for tasks with
progress and Ctrl-C, and the weights files a task needs, sent with it so that
no node has to see the driver's disk. Ray is imported only when a run asks for
it (the optional extra ``ray``): ``import dragoncastle`` never imports it.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import logging
import os
import tempfile
from typing import Any, Callable, Iterator, Sequence

__all__ = ["ray_module", "session", "slots", "gather", "local_copy", "spec_model_files", "with_local_models"]


def ray_module() -> Any:
    """Ray, imported on first use; an ``ImportError`` saying how to install it."""
    try:
        # Imported by name so that importing dragoncastle never imports Ray,
        # and typed Any so that mypy does not analyse the whole of Ray.
        return importlib.import_module("ray")
    except ImportError:
        raise ImportError("ray=... needs Ray: pip install 'dragoncastle[ray]'") from None


@contextlib.contextmanager
def session(address: str) -> Iterator[Any]:
    """The Ray module, connected for the ``with`` block: ``"local"`` starts a
    local Ray, ``"auto"`` joins the cluster this machine belongs to, any other
    text is an address for ``ray.init``. A session the caller opened (``ray.init``
    called already) is used as it is and left open; one opened here is closed
    at the end, also on an error, so no Ray started for a run outlives it."""
    ray = ray_module()
    opened = not ray.is_initialized()
    if opened:
        # A local Ray started for one run needs no dashboard, and its start-up
        # notices (token authentication of a throw-away cluster) are noise;
        # warnings when joining a cluster are kept.
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 logging_level=logging.ERROR if address == "local" else logging.WARNING)
    try:
        yield ray
    finally:
        if opened:
            ray.shutdown()


def slots(ray: Any, per_task: int) -> int:
    """How many tasks of ``per_task`` CPUs the cluster runs at once; a task
    larger than every node (it could never start) is a ``ValueError``."""
    largest = max((node["Resources"].get("CPU", 0) for node in ray.nodes() if node.get("Alive")), default=0)
    if per_task > largest:
        raise ValueError(f"threads={per_task} per shard, but the largest Ray node has {largest:g} CPUs")
    return max(1, int(ray.cluster_resources().get("CPU", 1)) // per_task)


def gather(ray: Any, refs: Sequence[Any], counts: Sequence[int] | None = None,
           progress: Callable[[int], Any] | None = None) -> list[Any]:
    """The tasks' results in the order of ``refs``. ``progress(done)`` is
    called as tasks finish, with the sum of their ``counts``; Ctrl-C cancels
    the tasks still running."""
    count_of = {ref: c for ref, c in zip(refs, counts or [1] * len(refs))}
    pending, done = list(refs), 0
    try:
        while pending:
            # A short timeout keeps Ctrl-C responsive while tasks run.
            ready, pending = ray.wait(pending, num_returns=len(pending), timeout=0.1)
            if ready:
                done += sum(count_of[r] for r in ready)
                if progress is not None:
                    progress(done)
        return list(ray.get(list(refs)))
    except KeyboardInterrupt:
        for ref in pending:
            ray.cancel(ref, force=True)
        raise


def local_copy(data: bytes, suffix: str = ".dcnet") -> str:
    """A file holding ``data`` in this machine's temporary directory, named by
    its hash (written once per machine, atomically): how a Ray task gets the
    weights file the driver read.

    >>> path = local_copy(b"weights")
    >>> open(path, "rb").read(), path == local_copy(b"weights")
    (b'weights', True)
    """
    path = os.path.join(tempfile.gettempdir(), f"dragoncastle-{hashlib.sha256(data).hexdigest()[:24]}{suffix}")
    if not os.path.exists(path):
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    return path


def _pairs(spec: str) -> tuple[str, list[tuple[str, str]]] | None:
    """An ``mcts:k=v,...`` spec's name and pairs as the Rust parser splits them;
    None for a spec without parameters or one it would refuse (Rust says why)."""
    name, sep, params = spec.partition(":")
    if not sep or not params.strip():
        return None
    pairs = [kv.partition("=") for kv in params.split(",")]
    if any(not eq for _, eq, _ in pairs):
        return None
    return name, [(k, v) for k, _, v in pairs]


def spec_model_files(specs: Sequence[str]) -> dict[str, bytes]:
    """The weights files that ``specs`` name with ``model=PATH`` (not
    ``builtin``, which every installed copy has), read here: path → bytes.
    A path that cannot be read is left out; the spec then fails where it is
    parsed, with the Rust parser's message."""
    files: dict[str, bytes] = {}
    for spec in specs:
        parsed = _pairs(spec)
        for k, v in parsed[1] if parsed else ():
            path = v.strip()
            if k.strip() == "model" and path != "builtin" and path not in files:
                try:
                    with open(path, "rb") as f:
                        files[path] = f.read()
                except OSError:
                    pass
    return files


def with_local_models(spec: str, files: dict[str, bytes]) -> str:
    """``spec`` with each ``model=PATH`` of ``files`` pointing at a local copy
    of its bytes (:func:`local_copy`): run where the task runs.

    >>> with_local_models("greedy", {}), with_local_models("mcts:model=builtin", {"x": b""})
    ('greedy', 'mcts:model=builtin')
    """
    parsed = _pairs(spec)
    if parsed is None:
        return spec
    name, pairs = parsed
    out = [f"{k}={local_copy(files[v.strip()])}" if k.strip() == "model" and v.strip() in files else f"{k}={v}"
           for k, v in pairs]
    return name + ":" + ",".join(out)

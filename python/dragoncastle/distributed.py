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

from . import _core

__all__ = ["SHARDS_PER_SLOT", "ray_module", "session", "per_task", "slots", "gather", "cancel", "read_files", "local_path",
           "local_copy", "spec_model_files", "with_local_models"]

# Tasks per slot of the cluster when the caller does not say: MCTS games vary
# in length, and smaller tasks let the slots that finish early take more.
SHARDS_PER_SLOT = 4


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


def per_task(threads: int | None) -> int:
    """The Rust threads (and so the CPUs reserved) of one task: ``threads``,
    default 1 (a slot per core; the tasks fill the cores).

    >>> per_task(None), per_task(3)
    (1, 3)
    """
    return threads or 1


def slots(ray: Any, per_task: int) -> int:
    """How many tasks of ``per_task`` CPUs the cluster runs at once; a task
    larger than every node (it could never start) is a ``ValueError``."""
    largest = max((node["Resources"].get("CPU", 0) for node in ray.nodes() if node.get("Alive")), default=0)
    if per_task > largest:
        raise ValueError(f"threads={per_task} per task, but the largest Ray node has {largest:g} CPUs")
    return max(1, int(ray.cluster_resources().get("CPU", 1)) // per_task)


def gather(ray: Any, refs: Sequence[Any], counts: Sequence[int] | None = None,
           progress: Callable[[int], Any] | None = None) -> list[Any]:
    """The tasks' results in the order of ``refs``. ``progress(done)`` is
    called as tasks finish, with the sum of their ``counts``. On Ctrl-C or an
    error the tasks still running are cancelled."""
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
    except BaseException:
        cancel(ray, pending)
        raise


def cancel(ray: Any, refs: Sequence[Any]) -> None:
    """Stop the tasks of ``refs`` that still run (finished ones are left as they are)."""
    for ref in refs:
        ray.cancel(ref, force=True)


def read_files(paths: Sequence[str]) -> dict[str, bytes]:
    """The weights files at ``paths``, read here to be sent with tasks: path →
    bytes. Each is first checked by the engine's loader (a regular file of a
    bounded size, its header consistent: a device or a FIFO is never read),
    and read with that bound. A bad file raises the loader's ``ValueError``."""
    files: dict[str, bytes] = {}
    for path in paths:
        if path not in files:
            _core.Network.load(path)
            size = os.path.getsize(path)
            with open(path, "rb") as f:
                files[path] = f.read(size + 1)[:size]
    return files


def local_path(path: str, files: dict[str, bytes]) -> str:
    """Where a task finds ``path``: a local copy of its bytes if they came
    with the task (:func:`read_files`), else the path itself."""
    return local_copy(files[path]) if path in files else path


def local_copy(data: bytes, suffix: str = ".dcnet") -> str:
    """A file holding ``data`` in a directory of this user's under the
    temporary directory, named by its hash: how a Ray task gets the weights
    file the driver read. Written atomically; a file found there is used only
    if its bytes are ``data`` (else it is written again).

    >>> path = local_copy(b"weights")
    >>> open(path, "rb").read(), path == local_copy(b"weights")
    (b'weights', True)
    """
    digest = hashlib.sha256(data).hexdigest()
    folder = os.path.join(tempfile.gettempdir(), f"dragoncastle-{os.getuid() if hasattr(os, 'getuid') else 'user'}")
    os.makedirs(folder, mode=0o700, exist_ok=True)
    path = os.path.join(folder, digest[:32] + suffix)
    try:
        with open(path, "rb") as f:
            if hashlib.sha256(f.read()).hexdigest() == digest:
                return path
    except OSError:
        pass
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    return path


def _model(spec: str) -> str | None:
    """The weights file an agent spec names (``model=PATH``), by the one spec
    parser; None for ``builtin`` (every installed copy has it) or no model."""
    player = _core.Player.parse(spec)
    model = player.settings().get("model") if player.kind == "mcts" else None
    return None if model in (None, "builtin") else model


def spec_model_files(specs: Sequence[str]) -> dict[str, bytes]:
    """The weights files that ``specs`` name with ``model=PATH`` (not
    ``builtin``, which every installed copy has), read here: path → bytes.
    A path that cannot be read is left out; the spec then fails where it
    runs, with the loader's message. A spec that does not parse raises
    ``ValueError`` here."""
    return read_files([m for m in map(_model, specs) if m is not None])


def with_local_models(spec: str, files: dict[str, bytes]) -> str:
    """``spec`` with each ``model=PATH`` of ``files`` pointing at a local copy
    of its bytes (:func:`local_copy`): run where the task runs.

    >>> with_local_models("greedy", {}), with_local_models("mcts:model=builtin", {"x": b""})
    ('greedy', 'mcts:model=builtin')
    """
    model = _model(spec)
    if model is None or model not in files:
        return spec
    settings = {**_core.Player.parse(spec).settings(), "model": local_path(model, files)}
    return str(_core.Player("mcts", settings).spec)

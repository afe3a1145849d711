"""Output files, written as regular files, whole or not at all.

Every file the commands write (a replay page, a record of games, a training
run's data, state and weights copy) goes through :func:`write_file`: the
content fills a new temporary file beside the target, which then replaces it.
A target that exists and is not a regular file (a device such as
``/dev/full``, a directory, a symbolic link, a pipe) is refused, never renamed
over; a write that fails (a full disk) raises :class:`OutputError` and leaves
neither the temporary file nor a partial target.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from typing import IO, Callable, Union

__all__ = ["OutputError", "check_output", "write_file"]

Content = Union[bytes, str, Callable[[IO[bytes]], object]]


class OutputError(ValueError):
    """An output file that cannot be written; the message names it and says why."""


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISDIR, "a directory"), (stat.S_ISLNK, "a symbolic link"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISFIFO, "a pipe"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


def check_output(path: str | os.PathLike[str]) -> None:
    """Refuse, before any work, a path where :func:`write_file` cannot write a
    regular file: one that exists as something else, or whose directory is
    missing. :class:`OutputError` names the path and the reason."""
    path = os.fspath(path)
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as e:
        raise OutputError(f"cannot write {path}: {e.strerror or e}") from None
    if mode is not None and not stat.S_ISREG(mode):
        raise OutputError(f"cannot write {path}: it exists and is {_kind(mode)}, not a regular file")
    parent = os.path.dirname(path) or "."
    if not os.path.isdir(parent):
        raise OutputError(f"cannot write {path}: no directory {parent}")


def write_file(path: str | os.PathLike[str], content: Content) -> None:
    """Write ``content`` (bytes, text as UTF-8, or a function that writes to a
    binary file) to the regular file ``path``, whole or not at all: into a new
    temporary file beside it, synced, then renamed over ``path``.
    :class:`OutputError` if ``path`` is not a place for a regular file
    (:func:`check_output`) or the write fails; the temporary file is removed."""
    check_output(path)
    path = os.fspath(path)
    head, name = os.path.split(path)
    tmp = os.path.join(head, f".{name}.{secrets.token_hex(4)}.tmp")
    try:
        f = open(tmp, "xb")  # x: a new file, never one (or a link) already there
    except OSError as e:
        raise OutputError(f"cannot write {path}: {e.strerror or e}") from None
    try:
        with f:
            if callable(content):
                content(f)
            else:
                f.write(content.encode("utf-8") if isinstance(content, str) else content)
            f.flush()
            os.fsync(f.fileno())
        check_output(path)  # nothing else took the place meanwhile
        os.replace(tmp, path)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        if isinstance(e, OSError):
            raise OutputError(f"cannot write {path}: {e.strerror or e}") from None
        raise

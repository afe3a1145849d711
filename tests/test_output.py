"""Output files (dragoncastle.output): a page, a record, a run's files are
regular files written whole or not at all. A device, a directory, a symbolic
link or a pipe at the target is refused, never renamed over (as root,
``replay --html /dev/full`` once replaced the device with a regular file);
a full disk is a one-line error that leaves no temporary file."""

from __future__ import annotations

import builtins
import errno
import os
import stat
from pathlib import Path

import pytest

import dragoncastle as dc
from dragoncastle.cli import main

REAL_OPEN = builtins.open


def record(path: Path) -> None:
    path.write_text("".join(line + "\n" for line in dc.arena(["greedy", "random"], 1, seed=0, threads=1).records()))


def disk_full(monkeypatch, directory: Path) -> None:
    """Every file opened for writing in ``directory`` is created there, but its
    writes go to /dev/full: they fail with ENOSPC, as on a full disk."""
    def full_open(file, mode="r", *args, **kw):
        if isinstance(file, (str, os.PathLike)) and Path(file).parent == directory and set(mode) & set("wxa"):
            REAL_OPEN(file, mode, *args, **kw).close()
            return REAL_OPEN("/dev/full", mode.replace("x", "w"), *args, **kw)
        return REAL_OPEN(file, mode, *args, **kw)

    monkeypatch.setattr(builtins, "open", full_open)


def refused(capsys, argv: list[str], what: str) -> str:
    with pytest.raises(SystemExit) as e:
        main(argv)
    message = str(e.value.code) + capsys.readouterr().err
    assert e.value.code not in (0, None) and what in message and "\n" not in message.strip(), message
    return message


# The device this test protects exists on Linux (this project's machines and CI); a system
# without it has no such device to replace, so there is nothing to test there.
@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full on this system")
def test_replay_refuses_dev_full_and_leaves_it_a_device(tmp_path, capsys):
    record(tmp_path / "g.jsonl")
    refused(capsys, ["replay", str(tmp_path / "g.jsonl"), "--html", "/dev/full"], "not a regular file")
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)
    assert not any(name.startswith(("full.", ".full.")) for name in os.listdir("/dev"))


def test_replay_refuses_what_is_not_a_regular_file(tmp_path, capsys):
    record(tmp_path / "g.jsonl")
    target = tmp_path / "target.html"
    target.write_text("kept")
    (tmp_path / "link.html").symlink_to(target)
    (tmp_path / "dir.html").mkdir()
    os.mkfifo(tmp_path / "pipe.html")
    for name, kind in (("link.html", "a symbolic link"), ("dir.html", "a directory"), ("pipe.html", "a pipe")):
        refused(capsys, ["replay", str(tmp_path / "g.jsonl"), "--html", str(tmp_path / name)], kind)
    assert (tmp_path / "link.html").is_symlink() and target.read_text() == "kept"
    assert (tmp_path / "dir.html").is_dir() and stat.S_ISFIFO(os.lstat(tmp_path / "pipe.html").st_mode)
    refused(capsys, ["replay", str(tmp_path / "g.jsonl"), "--html", str(tmp_path / "no" / "p.html")], "no directory")
    assert sorted(os.listdir(tmp_path)) == ["dir.html", "g.jsonl", "link.html", "pipe.html", "target.html"]


def test_replay_on_a_full_disk_fails_loudly_and_leaves_nothing(tmp_path, capsys, monkeypatch):
    record(tmp_path / "g.jsonl")
    out = tmp_path / "out"
    out.mkdir()
    (out / "p.html").write_text("the old page")
    disk_full(monkeypatch, out)
    refused(capsys, ["replay", str(tmp_path / "g.jsonl"), "--html", str(out / "p.html")], "No space left on device")
    assert os.listdir(out) == ["p.html"] and (out / "p.html").read_text() == "the old page"


def test_arena_record_is_checked_before_the_games_and_written_whole(tmp_path, capsys, monkeypatch):
    (tmp_path / "dir.jsonl").mkdir()
    refused(capsys, ["arena", "--seats", "greedy", "random", "--games", "1", "--record", str(tmp_path / "dir.jsonl")],
            "a directory")
    assert "win" not in capsys.readouterr().out  # refused before any game
    out = tmp_path / "out"
    out.mkdir()
    disk_full(monkeypatch, out)
    refused(capsys, ["arena", "--seats", "greedy", "random", "--games", "1", "--record", str(out / "r.jsonl")],
            "No space left on device")
    assert os.listdir(out) == []


def test_write_file_replaces_a_regular_file_whole(tmp_path, monkeypatch):
    from dragoncastle.output import OutputError, write_file

    path = tmp_path / "f.bin"
    write_file(path, b"one")
    write_file(path, "two \N{DRAGON}")
    write_file(path, lambda f: f.write(b"three"))
    assert path.read_bytes() == b"three" and os.listdir(tmp_path) == ["f.bin"]

    def fails(f):
        f.write(b"half")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    with pytest.raises(OutputError, match=f"cannot write {path}: No space left on device"):
        write_file(path, fails)
    with pytest.raises(KeyboardInterrupt):
        write_file(path, lambda f: (_ for _ in ()).throw(KeyboardInterrupt()))
    assert path.read_bytes() == b"three" and os.listdir(tmp_path) == ["f.bin"]

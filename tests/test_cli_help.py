"""Issue 40: ``dragoncastle COMMAND --help`` for every command. Every option
says what it does and, when it takes a value, its default (in words when the
default is None); the text is plain, without reST or markdown markup. The
commands are read from the parser itself, so a new one is checked too."""

from __future__ import annotations

import argparse
import re

import pytest

from dragoncastle import cli

COMMANDS = sorted(cli.command_parsers())
MARKUP = ("`", "**", ":func:", ":meth:", ":class:", ":mod:", ":data:")


def help_text(argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit) as e:
        cli.main([*argv, "--help"])
    assert e.value.code == 0
    captured = capsys.readouterr()
    assert not captured.err
    return captured.out


def option_blocks(text: str) -> dict[str, str]:
    """Each option's entry in a help text, by every one of its option
    strings: its invocation line and help, whitespace joined."""
    blocks: list[list[str]] = []
    for line in text.splitlines():
        if re.match(r"^  \S", line):
            blocks.append([line])
        elif blocks and line.startswith("   "):
            blocks[-1].append(line)
        elif not line.startswith("  "):
            blocks.append([])  # a heading, a blank line or a paragraph ends the entry
    found = {}
    for block in filter(None, blocks):
        invocation = re.split(r"\s{2,}", block[0].strip())[0]
        for part in invocation.split(", "):
            found[part.split(" ")[0]] = " ".join(" ".join(block).split())
    return found


def test_every_command_is_listed_and_checked():
    top = cli.parser()
    (sub,) = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)]
    assert set(sub.choices) == set(COMMANDS) and "train" in COMMANDS and "arena" in COMMANDS
    # Each command's line in `dragoncastle --help`.
    assert all(choice.help for choice in sub._choices_actions)


def test_the_top_level_help_is_plain_and_names_the_commands(capsys, monkeypatch):
    out = help_text([], capsys, monkeypatch)
    assert not [m for m in MARKUP if m in out]
    for name in COMMANDS:
        assert re.search(rf"^    {name}\s+\S", out, re.M), name
    assert "dragoncastle COMMAND --help" in out


@pytest.mark.parametrize("name", COMMANDS)
def test_every_option_has_help_and_shows_its_default(name, capsys, monkeypatch):
    out = help_text([name], capsys, monkeypatch)
    assert out.startswith(f"usage: dragoncastle {name} ")
    found = [m for m in MARKUP if m in out]
    assert not found, f"markup {found} in `dragoncastle {name} --help`"
    for word in ("default: None", "default: False", "default: True"):
        assert word not in out, f"`dragoncastle {name} --help` says {word!r}: say what it means"
    blocks = option_blocks(out)
    parser = cli.command_parsers()[name]
    assert parser.description, f"`dragoncastle {name} --help` has no description"
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        label = action.option_strings[0] if action.option_strings else action.metavar or action.dest
        said = re.sub(r"\(default:[^)]*\)", "", action.help or "").strip()
        assert said, f"dragoncastle {name} {label}: no help beyond a default"
        assert label in blocks, f"dragoncastle {name} {label}: not in the help text"
        takes_value = action.option_strings and action.nargs != 0 and not action.required
        if takes_value:
            assert "(default:" in blocks[label], f"dragoncastle {name} {label}: no default shown: {blocks[label]!r}"

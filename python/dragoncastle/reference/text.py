"""How the Rust engine reads text, spelled out so that both engines accept and
refuse the same strings (action text, tile codes, card names, realm and layout
text).

Python's own string methods differ from Rust's in small ways that a fuzzer
finds: ``str.strip`` and ``str.split`` also take the separators U+001C-U+001F
as space, ``str.splitlines`` also breaks at form feeds and U+2028,
``str.lower`` folds the Kelvin sign to ``k``, and ``str.isdigit`` takes
``"²"``. The helpers here follow Rust's ``trim``, ``split_whitespace``,
``lines`` and ASCII case folding instead.

>>> trim("\\x1f take 1,2 \\u3000"), ascii_lower("TAKE \\u212a")
('\\x1f take 1,2', 'take \\u212a')
>>> split_whitespace(" 2Me1\\t.  . \\x0c3# "), lines("a\\r\\nb\\n")
(['2Me1', '.', '.', '3#'], ['a', 'b'])
"""

from __future__ import annotations

#: Unicode's White_Space: what Rust's ``trim`` and ``split_whitespace`` take as space.
WHITESPACE = ("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
              "\u2028\u2029\u202f\u205f\u3000")


def trim(text: str) -> str:
    """``text`` without leading and trailing White_Space (Rust's ``str::trim``)."""
    return text.strip(WHITESPACE)


def ascii_lower(text: str) -> str:
    """``text`` with ASCII letters in lower case and every other character kept
    (Rust's ``to_ascii_lowercase``)."""
    return "".join(chr(ord(ch) + 32) if "A" <= ch <= "Z" else ch for ch in text)


def split_once(text: str) -> tuple[str, str] | None:
    """``text`` cut at its first White_Space character, or None without one."""
    for i, ch in enumerate(text):
        if ch in WHITESPACE:
            return text[:i], text[i + 1:]
    return None


def rsplit_once(text: str) -> tuple[str, str] | None:
    """``text`` cut at its last White_Space character, or None without one."""
    for i in range(len(text) - 1, -1, -1):
        if text[i] in WHITESPACE:
            return text[:i], text[i + 1:]
    return None


def split_whitespace(text: str) -> list[str]:
    """The non-empty runs of ``text`` between White_Space (Rust's ``split_whitespace``)."""
    words: list[str] = []
    start = None
    for i, ch in enumerate(text):
        if ch in WHITESPACE:
            if start is not None:
                words.append(text[start:i])
                start = None
        elif start is None:
            start = i
    if start is not None:
        words.append(text[start:])
    return words


def lines(text: str) -> list[str]:
    """The lines of ``text`` as Rust's ``str::lines`` cuts them: at ``\\n`` only,
    a ``\\r`` before it dropped, and no empty line after a final ``\\n``."""
    out = text.split("\n")
    if out and out[-1] == "":
        out.pop()
    return [line[:-1] if line.endswith("\r") else line for line in out]

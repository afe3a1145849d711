"""Sealing a saved game's deal: a record saved mid-game carries its seed
sealed with a key the server keeps in memory, so that the server can
continue it and no page can read the covered tiles."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from typing import Any


class Sealer:
    """Seals a record's deal with a key this server keeps in memory: only the
    same server, while it runs, reads it back (authenticated encryption from
    the standard library: HMAC-SHA256 in counter mode as the keystream, then an
    HMAC-SHA256 tag over the nonce, the ciphertext and the bound fields).
    The record's other fields are bound to it: a sealed deal opens only with
    its own moves."""

    def __init__(self) -> None:
        self.key = secrets.token_bytes(32)

    def _sub(self, purpose: bytes) -> bytes:
        return hmac.new(self.key, b"dragoncastle-seal-" + purpose, hashlib.sha256).digest()

    def seal(self, secret: bytes, bound: bytes) -> str:
        nonce = secrets.token_bytes(16)
        body = bytes(a ^ b for a, b in zip(secret, self._stream(nonce, len(secret))))
        tag = self._tag(nonce, body, bound)
        return "h1." + base64.urlsafe_b64encode(nonce + body + tag).decode("ascii")

    def open(self, sealed: Any, bound: bytes) -> bytes | None:
        """The secret, or None if this server did not seal it (or it was altered)."""
        if not isinstance(sealed, str) or len(sealed) > 1 << 16:
            return None
        try:
            raw = base64.urlsafe_b64decode(sealed[3:].encode("ascii"))
        except (ValueError, UnicodeEncodeError):
            return None
        if sealed.startswith("h1.") and len(raw) >= 48:
            nonce, body, tag = raw[:16], raw[16:-32], raw[-32:]
            if not hmac.compare_digest(tag, self._tag(nonce, body, bound)):
                return None
            return bytes(a ^ b for a, b in zip(body, self._stream(nonce, len(body))))
        return None

    def _stream(self, nonce: bytes, n: int) -> bytes:
        key, out = self._sub(b"stream"), bytearray()
        for block in range((n + 31) // 32):
            out += hmac.new(key, nonce + block.to_bytes(8, "big"), hashlib.sha256).digest()
        return bytes(out[:n])

    def _tag(self, nonce: bytes, body: bytes, bound: bytes) -> bytes:
        msg = len(bound).to_bytes(8, "big") + bound + nonce + body
        return hmac.new(self._sub(b"tag"), msg, hashlib.sha256).digest()


#: The fields of a record that hold the deal: in the clear only once the game is over.
DEAL_FIELDS = ("seed", "deal")


def bound_fields(data: dict[str, Any]) -> bytes:
    """The fields a sealed deal is bound to: the game without its deal, summary and notes."""
    kept = {k: v for k, v in data.items() if k not in (*DEAL_FIELDS, "sealed", "meta", "summary")}
    return json.dumps(kept, sort_keys=True, separators=(",", ":")).encode("utf-8")

"""Attacker-controlled text: NFC copies for analysis, escaped copies for display.

Scanned text never reaches a terminal, a CSV cell, Markdown or HTML raw: control, format (bidi,
zero-width, tags), private-use, unassigned, separator and variation-selector characters become
visible `\\u202e`-style escapes.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from toolwitness.lazyre import lazy_compile

_ESCAPE_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})
_MAX_EXCERPT = 240


@lru_cache(maxsize=65536)
def nfc(text: str) -> str:
    return unicodedata.normalize("NFC", text)


def _needs_escape(ch: str) -> bool:
    if ch.isascii():
        return not (" " <= ch <= "~")
    code = ord(ch)
    if 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF:  # variation selectors
        return True
    if 0x180B <= code <= 0x180F or code in {0x115F, 0x1160, 0x3164}:
        return True  # Mongolian selectors and Hangul fillers: invisible in most fonts
    category = unicodedata.category(ch)
    return category in _ESCAPE_CATEGORIES or (category == "Zs" and ch != " ")


def _escape_char(ch: str) -> str:
    code = ord(ch)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


# `str.isprintable` is False exactly for the categories C* and Z* (but the space), which
# `_needs_escape` escapes; these are the printable characters it escapes as well.
_PRINTABLE_ESCAPED = lazy_compile(
    "[\u115f\u1160\u180b-\u180f\u3164\ufe00-\ufe0f\U000e0100-\U000e01ef]"
)
# Runs of characters outside printable ASCII: the only ones the slow path must look at.
_CANDIDATES = lazy_compile("[^ -~]+")


@lru_cache(maxsize=4096)
def _shown(ch: str) -> str:
    """One character as displayed. Cached: hidden text repeats a few characters many times
    (tag characters, zero-width spaces); the bound keeps hostile text from growing the cache."""
    return _escape_char(ch) if _needs_escape(ch) else ch


class _ShownTable(dict[int, str]):
    """`str.translate` table: a code point -> `_shown` of its character, filled on first sight
    and kept for `_TABLE_MAX` code points (a lookup that hits stays in C; hostile text with
    more distinct characters is still shown right, each further one through `_shown`)."""

    def __missing__(self, code: int) -> str:
        shown = _shown(chr(code))
        if len(self) < _TABLE_MAX:
            self[code] = shown
        return shown


_TABLE_MAX = 4096
_SHOWN = _ShownTable()


def _escape_run(match: re.Match[str]) -> str:
    # each character as `_shown` shows it: `"".join(map(_shown, run))`, mapped in C
    return match.group().translate(_SHOWN)


def escape_display(text: str) -> str:
    """Make every invisible or terminal-controlling character visible and inert."""
    if text.isprintable() and (text.isascii() or _PRINTABLE_ESCAPED.search(text) is None):
        return text  # nothing to escape: one C pass (two for non-ASCII text)
    return _CANDIDATES.sub(_escape_run, text)


def excerpt(text: str, limit: int = _MAX_EXCERPT) -> str:
    """An escaped, length-bounded excerpt (the cut is marked, never silent)."""
    if len(text) > limit >= 1:
        # Escaping maps each character on its own to one character or more, so the escaped
        # text is longer than `limit` and its first `limit - 1` characters are those of the
        # first `limit - 1` characters escaped: the rest of a long text is not escaped at all.
        return escape_display(text[: limit - 1])[: limit - 1] + "…"
    shown = escape_display(text)
    if len(shown) <= limit:
        return shown
    return shown[: limit - 1] + "…"


def window(text: str, start: int, end: int, margin: int = 60) -> str:
    """An escaped excerpt around text[start:end], with ellipses where it was cut."""
    lo = max(0, start - margin)
    hi = min(len(text), end + margin)
    body = escape_display(text[lo:hi])
    return ("…" if lo > 0 else "") + body + ("…" if hi < len(text) else "")


REDACTED = "[redacted]"

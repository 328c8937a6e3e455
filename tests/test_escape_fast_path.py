"""`escape_display`'s fast paths (printable text returned as it is; only characters outside
printable ASCII looked at) give exactly what the character-by-character definition gives, for
every code point alone and inside text."""

from __future__ import annotations

import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from toolwitness.textnorm import escape_display

_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})


def _reference(text: str) -> str:
    """The definition: each character escaped when invisible or terminal-controlling."""
    out = []
    for ch in text:
        code = ord(ch)
        category = unicodedata.category(ch)
        escaped = (
            not (" " <= ch <= "~") if ch.isascii()
            else 0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF
            or 0x180B <= code <= 0x180F or code in {0x115F, 0x1160, 0x3164}
            or category in _CATEGORIES or (category == "Zs" and ch != " ")
        )  # fmt: skip
        out.append((f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}") if escaped else ch)
    return "".join(out)


def test_every_code_point_alone_and_in_text() -> None:
    wrong = [
        code for code in range(0x110000)
        if escape_display(chr(code)) != _reference(chr(code))
        or escape_display(f"a{chr(code)}é") != _reference(f"a{chr(code)}é")
    ]  # fmt: skip
    assert wrong == []


def test_printable_text_is_returned_unchanged() -> None:
    for text in ("plain ascii", "café ünïcode 日本語", ""):
        assert escape_display(text) is text
    assert escape_display("tab\there") == "tab\\u0009here"
    assert escape_display("flag\ufe0f") == "flag\\ufe0f"  # printable, yet escaped


@given(st.text(max_size=200))
def test_any_text(text: str) -> None:
    assert escape_display(text) == _reference(text)


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=200))
def test_any_encodable_text(text: str) -> None:
    assert escape_display(text) == _reference(text)

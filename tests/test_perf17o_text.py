"""`textnorm.excerpt` escapes only what it shows (perf17o): a long text's excerpt is its first
characters escaped, equal to escaping the whole text and cutting it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from toolwitness.textnorm import escape_display, excerpt


def _whole_then_cut(text: str, limit: int) -> str:
    shown = escape_display(text)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


_HIDDEN = st.sampled_from(["\u202e", "\u200b", "\U000e0041", "\x1b", "\ufe0f", "\u3164", "é", "a"])


@settings(max_examples=500, deadline=None)
@given(st.lists(st.text(max_size=3) | _HIDDEN, max_size=120).map("".join),
       st.sampled_from([1, 2, 3, 40, 200, 240]))  # fmt: skip
def test_excerpt_is_the_whole_text_escaped_and_cut(text: str, limit: int) -> None:
    assert excerpt(text, limit) == _whole_then_cut(text, limit)


def test_a_long_hidden_text() -> None:
    text = "Note: " + "\U000e0041" * 5000
    assert excerpt(text) == _whole_then_cut(text, 240)
    assert excerpt(text).endswith("…") and len(excerpt(text)) == 240

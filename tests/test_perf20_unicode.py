"""The twentieth pass's zero-width decoding reads the same runs.

`zero_width_payloads` decodes the runs of `zero_width_runs` at least `zero_width_decode_min`
(8) characters long. `zero_width_runs` leaves out only one-character runs, so the long ones are
now found by a pattern that asks for that many characters: the engine skips the zero-width
spaces between words in C instead of yielding each and testing whether it is legitimate. Held to
the definition before the pass (copied here), for the shipped minimum and for others, on every
string of the corpus (but the withheld set), the real servers, generated catalogs and random
text made of invisible characters, emoji sequences and joining scripts.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from json_strings import corpus_strings, json_strings
from toolwitness.checks.unicode import decode
from toolwitness.checks.unicode.data import tables

ROOT = Path(__file__).resolve().parent.parent

sys.path.insert(0, str(ROOT / "benchmarks"))
from catalogs import catalog  # noqa: E402


def _old_long_runs(text: str, minimum: int) -> list[tuple[int, int]]:
    return [(s, e) for s, e in decode.zero_width_runs(text) if e - s >= minimum]


def _old_payloads(text: str) -> list[decode.HiddenPayload]:
    """`zero_width_payloads` before the pass."""
    minimum = tables().thresholds.zero_width_decode_min
    out = []
    for start, end in decode.zero_width_runs(text):
        if end - start < minimum:
            continue
        decoded = decode.decode_symbols(text[start:end])
        if decoded is not None:
            out.append(
                decode.HiddenPayload(
                    "zero-width", start, end, decoded, decoded.encode(), end - start
                )
            )
    return out


def _same(text: str) -> None:
    for minimum in (1, 2, 3, 8, 9):
        assert decode.long_zero_width_runs(text, minimum) == _old_long_runs(text, minimum)
    assert decode.zero_width_payloads(text) == _old_payloads(text)


def test_the_shipped_minimum_takes_the_pattern() -> None:
    assert tables().thresholds.zero_width_decode_min >= 2


def test_same_runs_on_every_string() -> None:
    texts: set[str] = set()
    texts.update(corpus_strings(ROOT))
    for kind in ("benign", "poisoned"):
        texts.update(json_strings(catalog(400, kind)))
    hidden = [t for t in texts if decode.zero_width_runs(t)]
    assert len(hidden) > 50
    assert any(decode.zero_width_payloads(t) for t in hidden)  # the comparison reaches payloads
    for text in sorted(texts):
        _same(text)


_INVISIBLE = [chr(c) for c in sorted(decode.zero_width_codes())]
_PIECES = [
    *_INVISIBLE, "\u200b" * 8, "\u200c\u200d" * 5, "\ufeff", "👩", "\u200d", "💻", "🏳", "\ufe0f",
    "ب", "ل", "क", "्", "a", "word", " ", ".",
]  # fmt: skip


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40).map("".join))
def test_same_runs_on_random_text(text: str) -> None:
    _same(text)


@pytest.mark.parametrize("n", [1, 50, 500])
def test_zero_width_spaces_between_words_are_not_visited(n: int) -> None:
    """A text split word by word with zero-width spaces has n runs of one character: the new
    pattern matches none of them, and the long run at its end once."""
    text = "\u200b".join(["word"] * (n + 1)) + "\u200b\u200c" * 8
    pattern = decode._zero_width_long_run(8)
    assert [m.span() for m in pattern.finditer(text)] == [(len(text) - 16, len(text))]
    assert len(decode.zero_width_runs(text)) == n + 1
    _same(text)

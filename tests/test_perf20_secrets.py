"""The twentieth pass's secret gate gives what the gate before it gave.

`may_hold_secret` reads the private-key markers, the character they share and their common
opening ("-----begin ") once per lexicon, and looks for the markers only when the lower-cased
text holds that opening (every marker starts with it). Held to the definition before the pass
(copied here) on every string of the corpus (but the withheld set), the real servers, the
generated benchmark catalogs and random text built from the markers' pieces.
"""

from __future__ import annotations

import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from json_strings import corpus_strings, json_strings
from toolwitness.checks.text import secrets_scan as ss
from toolwitness.checks.text.lexicon import Lexicon, lexicon

ROOT = Path(__file__).resolve().parent.parent

sys.path.insert(0, str(ROOT / "benchmarks"))
from catalogs import catalog  # noqa: E402


def _old_gate(text: str, needles: ss.Needles, lex: Lexicon) -> bool:
    """`may_hold_secret` before the pass."""
    if ss.holds_needle(text, needles):
        return True
    markers = lex.secrets["private_key_markers"]
    shared = ss._shared_char(markers)
    colon = ":" in text or "=" in text
    if not colon and shared is not None and shared not in text:
        return False
    low = text.lower()
    if any(marker in low for marker in markers):
        return True
    return colon and ss._name_before_colon(low, lex)


def _same(text: str) -> bool:
    needles, lex = ss.token_needles(), lexicon()
    found = _old_gate(text, needles, lex)
    assert ss.may_hold_secret(text, needles, lex) == found, text[:80]
    return found


def test_the_markers_share_their_opening() -> None:
    _, markers, shared, opening = ss._marker_table(lexicon())
    assert markers and opening == "-----begin " and shared == "-"
    assert all(m.startswith(opening) for m in markers)
    assert ss._marker_table(lexicon()) is ss._marker_table(lexicon())  # read once


def test_same_answers_on_every_string() -> None:
    texts: set[str] = set()
    texts.update(corpus_strings(ROOT))
    for kind in ("benign", "poisoned"):
        texts.update(json_strings(catalog(400, kind)))
    assert len(texts) > 20_000
    assert sum(_same(t) for t in sorted(texts)) > 100  # the comparison reaches open gates


def _pieces() -> list[str]:
    markers = list(lexicon().secrets["private_key_markers"])
    return [
        *markers, *(m.upper() for m in markers), *(m[:-5] for m in markers), "-----BEGIN ",
        "-----begin", "-", "-----", " private key", "key", "token", "password", "=", ":", " ",
        "'", '"', "\n", "İ", "é", "Zx9Qw2Lm8Rt4Vb6Nc1Kp3Hs5", "ghp_", "AKIA", "eyJ",
    ]  # fmt: skip


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.sampled_from(_pieces()), max_size=12).map("".join) | st.text(max_size=80))
def test_same_answers_on_random_text(text: str) -> None:
    _same(text)

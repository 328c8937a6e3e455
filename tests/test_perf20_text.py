"""The twentieth pass's display escaping gives the same text.

`escape_display` maps a run of characters outside printable ASCII through `str.translate` with
a table of `_shown` filled on first sight (bounded), instead of joining `_shown` of each
character. Held to the definition before the pass (copied here) on every code point, the
corpus (but the withheld set), the real servers, generated catalogs and random text, and past
the table's bound.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from json_strings import corpus_strings, json_strings
from toolwitness import textnorm
from toolwitness.textnorm import escape_display, excerpt, window

ROOT = Path(__file__).resolve().parent.parent

sys.path.insert(0, str(ROOT / "benchmarks"))
from catalogs import catalog  # noqa: E402

_RUNS = re.compile("[^ -~]+")


def _old_escape(text: str) -> str:
    return _RUNS.sub(lambda m: "".join(map(textnorm._shown, m.group())), text)


def _old_excerpt(text: str, limit: int = 240) -> str:
    if len(text) > limit >= 1:
        return _old_escape(text[: limit - 1])[: limit - 1] + "…"
    shown = _old_escape(text)
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _old_window(text: str, start: int, end: int, margin: int = 60) -> str:
    lo, hi = max(0, start - margin), min(len(text), end + margin)
    body = _old_escape(text[lo:hi])
    return ("…" if lo > 0 else "") + body + ("…" if hi < len(text) else "")


def test_every_code_point() -> None:
    every = "".join(map(chr, range(0x110000)))
    assert escape_display(every) == _old_escape(every)
    assert len(textnorm._SHOWN) <= textnorm._TABLE_MAX  # bounded, and right past the bound


def test_every_string() -> None:
    texts: set[str] = set()
    texts.update(corpus_strings(ROOT))
    for kind in ("benign", "poisoned"):
        texts.update(json_strings(catalog(400, kind)))
    escaped = 0
    for text in sorted(texts):
        shown = escape_display(text)
        assert shown == _old_escape(text), text[:80]
        escaped += shown != text
        assert excerpt(text) == _old_excerpt(text)
        assert excerpt(text, 40) == _old_excerpt(text, 40)
        middle = len(text) // 2
        assert window(text, middle, middle + 3) == _old_window(text, middle, middle + 3)
    assert escaped > 100  # the comparison reaches escaped text


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=120) | st.text(max_size=120))
def test_random_text(text: str) -> None:
    assert escape_display(text) == _old_escape(text)

"""The twentieth pass's tokenising gives what the definitions before it gave.

- `TOKEN` is possessive (the same matches: a joiner is no word character) and compiled at its
  first use, as are `_TAG`, `_URL_SPAN` and `_CAMEL_STEP`;
- `token_texts` of text beyond ASCII lower-cases an ASCII word itself instead of calling
  `fold` (whose answer for ASCII is the lower case).

Held to the definitions before the pass (copied here) on every string of the corpus (but the
withheld set), the real servers' tool lists, the generated benchmark catalogs and random text
with the characters `fold` treats apart (capital sigma, dotted capital I, curly apostrophe).
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from json_strings import corpus_strings, json_strings
from toolwitness.checks.text import language
from toolwitness.checks.text.language import fold, split_identifier, token_texts, tokens
from toolwitness.lazyre import LazyPattern

ROOT = Path(__file__).resolve().parent.parent

sys.path.insert(0, str(ROOT / "benchmarks"))
from catalogs import catalog  # noqa: E402

_OLD_TOKEN = re.compile(r"[\w~$@]+(?:['’.\-/][\w~$@]+)*")


def _old_token_texts(text: str) -> list[str]:
    if text.isascii():
        return language._LOWER_ASCII_TOKEN.findall(text.lower())
    return [fold(w) for w in _OLD_TOKEN.findall(text)]


def _old_tokens(text: str) -> list[tuple[str, int, int]]:
    return [(fold(m.group()), m.start(), m.end()) for m in _OLD_TOKEN.finditer(text)]


@lru_cache(maxsize=1)
def _texts() -> tuple[str, ...]:
    texts: set[str] = set()
    texts.update(corpus_strings(ROOT))
    for kind in ("benign", "poisoned"):
        texts.update(json_strings(catalog(400, kind)))
    return tuple(sorted(texts))


def _same(text: str) -> None:
    assert language.TOKEN.findall(text) == _OLD_TOKEN.findall(text)
    assert token_texts(text) == _old_token_texts(text)
    assert [tuple(t) for t in tokens(text)] == _old_tokens(text)


def test_same_tokens_on_every_string() -> None:
    texts = _texts()
    assert len(texts) > 20_000
    assert sum(not t.isascii() for t in texts) > 1_000
    for text in texts:
        _same(text)


_PIECES = [
    "Σ", "ΣΑΣ", "σας", "İ", "İstanbul", "’", "'", "don’t", "ß", "ẞ", "Ω", "ǅ", "ﬃ", "word",
    "Tool", "a.b", "x/y", "-", ".", "/", "~", "$", "@", "_", "1", "٣", "\u200b", "\U000e0041",
    "\u0301", " ", "\n", "用户", "Пользователю",
]  # fmt: skip
TEXTS = st.lists(st.sampled_from(_PIECES), max_size=24).map("".join) | st.text(max_size=100)


@settings(max_examples=2000, deadline=None)
@given(TEXTS)
def test_same_tokens_on_random_text(text: str) -> None:
    _same(text)


def test_rare_patterns_wait_for_their_first_use() -> None:
    for pattern in (language.TOKEN, language._TAG, language._URL_SPAN, language._CAMEL_STEP):
        assert isinstance(pattern, LazyPattern)
    assert split_identifier("sendEmail_v2") == ("send", "email", "v2")
    assert language.unsplit_spans("see https://x.example/a;b now", []) == [(4, 25)]

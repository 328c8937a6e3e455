"""The bare-IP URL pattern of the twenty-first pass (`payloads._BARE_IP_URL`: its first digit
before the look-behind that stands for `\\b`) finds what the pattern before it found, and
`may_hold_ip_url` answers the same: on every string of the corpus (but the withheld set), the
real servers' tool lists, the generated catalogs and random text of digits, dots, colons,
slashes, letters and digits of other scripts."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from json_strings import corpus_strings, json_strings
from toolwitness.checks.injection import payloads

ROOT = Path(__file__).resolve().parent.parent

sys.path.insert(0, str(ROOT / "benchmarks"))
from catalogs import catalog  # noqa: E402

_OLD = re.compile(r"\b(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?/")


def _same(text: str) -> None:
    new = [(m.start(), m.end(), m.group()) for m in payloads._BARE_IP_URL.finditer(text)]
    assert new == [(m.start(), m.end(), m.group()) for m in _OLD.finditer(text)], text
    assert payloads.may_hold_ip_url(text) == (_OLD.search(text) is not None), text


def test_same_matches_on_every_string() -> None:
    texts = corpus_strings(ROOT)
    for kind in ("benign", "poisoned"):
        texts.update(json_strings(catalog(400, kind)))
    assert len(texts) > 20_000
    found = 0
    for text in texts:
        _same(text)
        found += _OLD.search(text) is not None
    assert found > 20  # the corpus holds bare-IP URLs


_PIECES = ["1", "12", "123", "1234", "0", ".", "..", ":", ":8080", "/", "//", "a", "_", "-",
           " ", "\u0663", "\u0967", "x1", "10.0.0.1", "http://", "é", "\n"]  # fmt: skip


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=20).map("".join))
def test_same_matches_on_random_text(text: str) -> None:
    _same(text)

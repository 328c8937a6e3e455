"""The twenty-sixth pass's order of the closed-gate tests gives the answers of the old order.

`quiet.text_gates_closed` returns None as soon as one of its tests opens, and the word set when
none does. Its tests are pure and independent of each other, so their order changes no answer,
only the work: the pass moved the two secret scans (`may_hold_secret`,
`may_name_abbreviated_secret`) after the word gates, which open more often and cost less. Here
the function is held equal to a copy of it in the order it had at `e420130`, on the corpus's
strings (but the withheld blind set's), the real servers' catalogs, the generated catalogs'
strings and their tools' joined headers (as `QuietTools.header` builds them), and a few texts
that only one of the moved tests opens — for the shared scan and for a text's own one.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gate_support import generated_headers
from json_strings import corpus_strings, json_strings
from toolwitness.checks.injection import quiet
from toolwitness.checks.injection import targets as inj_targets
from toolwitness.checks.injection import triggers as trig
from toolwitness.checks.injection.frames_custody import may_name_abbreviated_secret
from toolwitness.checks.injection.frames_elsewhere import may_read_elsewhere
from toolwitness.checks.injection.frames_shadow import may_rewire
from toolwitness.checks.injection.outside_tools import may_name_outside_tool
from toolwitness.checks.injection.payloads import may_hold_ip_url
from toolwitness.checks.text.secrets_scan import may_hold_secret
from toolwitness.textnorm import nfc

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
from catalogs import catalog  # noqa: E402


def _old_order(
    text: str, tables: quiet.GateTables, shared: bool = False, secrets: bool = True
) -> frozenset[str] | None:
    """`text_gates_closed` as it was at e420130 (the secret scans right after the markup);
    `secrets=False` leaves the two secret scans out."""
    if "<" in text or "[" in text or "#" in text or "@" in text or "://" in text:
        return None
    if secrets and may_hold_secret(text, tables.needles, tables.lex):
        return None
    if secrets and may_name_abbreviated_secret(text):
        return None
    if may_name_outside_tool(text):
        return None
    if shared:
        scanned = trig.scan(text)
        lower, words, mask = scanned.lower, scanned.words, scanned.mask
    else:
        lower, words = trig.scan_words(text)
        mask = trig.mask_of(words, tables.triggers, "'" in lower)
    if mask & quiet._TEXT_BITS or mask & quiet._SEQUENCE_BITS == quiet._SEQUENCE_BITS:
        return None
    if trig.frames_may_open(mask, text):
        return None
    secrecy, authority = mask & trig.SECRECY, trig.authority_may_open(mask)
    if secrecy or authority:
        if secrecy and trig.secrecy_may_fire(words, tables.lex):
            return None
        if authority and trig.authority_may_fire(words, tables.lex):
            return None
        if quiet._frames_behind_the_bits(text, words):
            return None
    if may_rewire(text, words):
        return None
    runs = inj_targets.word_runs(text, lower, words)
    if inj_targets.mentions_in_index(runs, tables.anchors):
        return None
    if trig.shell_may_open_in(text, lower, runs, tables.triggers):
        return None
    if "/" in text and may_hold_ip_url(text):
        return None
    if may_read_elsewhere(text):
        return None
    return words


# Texts that only the moved tests open: every other test leaves them closed.
ONLY_SECRETS = [
    "Pass the value sk-ant-api03-0123456789abcdefghijklmnopqrstuvwxyz as the key.",
    "Defaults to AKIAIOSFODNN7EXAMPLE for the region.",
    "Your PIN",
]


def _headers(kind: str) -> list[str]:
    return generated_headers(kind)


@pytest.fixture(scope="module")
def texts() -> list[str]:
    found = {nfc(t) for t in corpus_strings(ROOT)}
    for kind in ("benign", "poisoned"):
        found.update(nfc(t) for t in json_strings(catalog(400, kind)))
        found.update(_headers(kind))
    found.update(ONLY_SECRETS)
    return sorted(found)


def test_same_answers_as_the_old_order(texts: list[str]) -> None:
    tables = quiet.gate_tables()
    differ = [
        t
        for t in texts
        for shared in (False, True)
        if quiet.text_gates_closed(t, tables, shared) != _old_order(t, tables, shared)
    ]
    assert not differ, differ[:5]


def test_the_secret_scans_still_decide() -> None:
    """Texts that only the moved scans leave undecided (each of the two for one of them at
    least): dropping either scan is caught here, not only by the comparison above."""
    tables = quiet.gate_tables()
    for text in ONLY_SECRETS:
        assert _old_order(text, tables, secrets=False) is not None, text  # nothing else opens
        for shared in (False, True):
            assert quiet.text_gates_closed(text, tables, shared) is None, text
    assert any(may_hold_secret(t, tables.needles, tables.lex) for t in ONLY_SECRETS)
    assert any(
        may_name_abbreviated_secret(t) and not may_hold_secret(t, tables.needles, tables.lex)
        for t in ONLY_SECRETS
    )

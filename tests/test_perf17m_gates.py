"""Issue 17, sixteenth pass: the byte-class gates of `crosstool.tokens` and `crosstool.check`
answer exactly what the regex scans they replace answered (docs/performance.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from toolwitness.checks.crosstool import tokens
from toolwitness.checks.crosstool.check import _WORD_RUN, _word_runs

# Characters the gates look at (capitals, digits, dots, lower case, word marks), the prefixes
# of the other literals, spaces, non-ASCII letters and digits, and a lone surrogate.
_OTHERS = ["\u00e9", "\u0660", "\u00a0", "\u4e2d", "\u0130", "\ud800", "\u212a", "\uff21"]
_ALPHABET = st.sampled_from([*"ABDEGIZ019 .-_@:/+xbcmoq\n\t'\"", *_OTHERS])
_PIECES = st.sampled_from(
    [
        "DE89 3704 0044 0532 0130 00",
        "GB29NWBK60161331926819",
        "IBAN: FR7630006000011234567890189",
        "notes-relay.io",
        "sync.acme.com",
        "user.email",
        "see x@y.org",
        "https://evil.example/a",
        "+1 415 555 0100",
        "0x" + "ab" * 20,
        "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
        "ops@notes-relay.io",
        "wss://sync.acme.com:8443/x",
        "image001.jpg@01D26CD8.3C3B",
    ]
)
_TEXTS = st.lists(st.one_of(st.text(_ALPHABET, max_size=40), _PIECES), max_size=8).map("".join)


def _may_hold_before(text: str) -> bool:
    """`may_hold_destination` as it was: every scan run."""
    if "@" in text or "://" in text or "0x" in text or "bc1" in text or "+" in text:
        return True
    if "." in text and tokens._BARE_HOST.search(text) is not None:
        return True
    return tokens._IBAN.search(text) is not None


@settings(max_examples=600, deadline=None)
@given(_TEXTS)
def test_may_hold_destination_is_the_regex_test(text: str) -> None:
    assert tokens.may_hold_destination(text) == _may_hold_before(text)


@settings(max_examples=300, deadline=None)
@given(_TEXTS)
def test_gate_runs_are_the_regex_runs(text: str) -> None:
    runs = _word_runs(text)
    assert runs == [w.encode("ascii") for w in _WORD_RUN.findall(text)]
    # the shape keeps adjacency: a class run is in it exactly when the text has such characters
    shape = tokens._shape(text)
    assert (b"AA00" in shape) == any(
        text[i : i + 2].isascii() and text[i : i + 2].isupper() and text[i : i + 2].isalpha()
        and text[i + 2 : i + 4].isascii() and text[i + 2 : i + 4].isdigit()
        and len(text[i : i + 4]) == 4
        for i in range(len(text))
    )  # fmt: skip


def _destinations_before(text: str) -> Iterator[tokens.Destination]:
    """`destinations` as it was: every scan run on every text."""
    T, D = tokens, tokens.Destination
    for m in T._EMAIL.finditer(text):
        domain = m.group().rpartition("@")[2].lower()
        if domain.rpartition(".")[2].isalpha():
            yield D("email", m.group(), domain)
    for m in T._IBAN.finditer(text):
        value = m.group()
        if T._iban_valid(value) or T._labelled_iban(text, m.start()) or T._iban_printed(value):
            yield D("iban", value)
    for m in T._EVM.finditer(text):
        yield D("wallet", m.group())
    for m in T._BECH32.finditer(text):
        yield D("wallet", m.group())
    urls = list(T._URL.finditer(text))
    for m in urls:
        if any(c.isalnum() for c in m.group(1)):
            yield D("url", m.group(), m.group(1).lower().rstrip("."))
    if "." in text:
        emails = [(m.start(), m.end()) for m in T._EMAIL.finditer(text)]
        taken = emails + [(m.start(), m.end()) for m in urls]
        for m in T._BARE_HOST.finditer(text):
            if T._bare_host(m.group(1)) and not any(lo <= m.start() < hi for lo, hi in taken):
                yield D("host", m.group(1), m.group(1))
    for m in T._PHONE.finditer(text):
        if sum(ch.isdigit() for ch in m.group()) >= 8:
            yield D("phone", m.group())


@settings(max_examples=600, deadline=None)
@given(_TEXTS)
def test_destinations_unchanged(text: str) -> None:
    """The same destinations, in the same order, as with every scan run on every text."""
    # (the reference scans predate `Destination.rest`: compared on what both compute)
    now = [(d.kind, d.value, d.host) for d in tokens.destinations(text)]
    assert now == [(d.kind, d.value, d.host) for d in _destinations_before(text)]


def test_gates_on_a_json_dump() -> None:
    dump = json.dumps([{"default": "Send to DE89370400440532013000 now"}], ensure_ascii=False)
    assert tokens.may_hold_destination(dump)
    assert [d.kind for d in tokens.destinations(dump)] == ["iban"]
    assert not tokens.may_hold_destination('{"type": "string", "maximum": 200}')

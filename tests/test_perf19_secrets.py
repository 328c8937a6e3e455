"""The nineteenth pass's secret gate and assignment skip give what the plain definitions give.

- `may_hold_secret` asks for an assignment name followed by what `_ASSIGN` allows before a
  value (an optional quote, up to three spaces, ':' or '='), not for a name and a colon anywhere:
  still a necessary condition of `scan_secrets` finding anything.
- `scan_secrets` runs the `_ASSIGN` loop only when such a name is there: the same hits as the
  loop run on every text (the definition before the pass, copied here).

Work is counted, never timed.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from json_strings import WITHHELD, json_strings
from toolwitness.checks.text import secrets_scan as ss
from toolwitness.checks.text.lexicon import lexicon
from toolwitness.checks.text.secrets import secret_table

ROOT = Path(__file__).resolve().parent.parent


def _old_scan(text: str) -> list[tuple[int, int, str]]:
    """`scan_secrets` before the pass (the assignment loop over every text)."""
    lex = lexicon()
    hits: list[ss.SecretHit] = []
    covered: set[int] = set()
    for shape in secret_table().tokens:
        at = text.find(shape.prefix)
        while at >= 0:
            body_start = at + len(shape.prefix)
            chars = ss._CHARSETS.get(shape.charset, ss._CHARSETS["token"])
            end = ss._run(text, body_start, chars, shape.max_length + 1)
            before_ok = at == 0 or not text[at - 1].isalnum()
            fits = shape.min_length <= end - at <= shape.max_length
            if before_ok and fits and at not in covered and ss._looks_secret(text[at:end], lex):
                hits.append(ss.SecretHit(at, end, shape.kind))
                covered.update(range(at, end))
            at = text.find(shape.prefix, max(end, at + 1))
    for marker in lex.secrets["private_key_markers"]:
        at = text.lower().find(marker)
        if at >= 0 and ss._key_body(text, at + len(marker)):
            hits.append(
                ss.SecretHit(at, min(len(text), at + len(marker) + 64), "private key block")
            )
    hits.extend(ss._jwts(text))
    names = lex.secrets["assignment_names"]
    for m in ss._ASSIGN.finditer(text):
        name = m.group().split("=")[0].split(":")[0].strip(" \"'").lower()
        if name not in names:
            continue
        end = ss._run(text, m.end(), ss._VALUE_CHARS, 300)
        value = text[m.end() : end]
        if m.end() not in covered and ss._looks_secret(value, lex):
            hits.append(ss.SecretHit(m.end(), end, f"high-entropy value assigned to {name}"))
            covered.update(range(m.end(), end))
    return [(h.start, h.end, h.kind) for h in sorted(hits, key=lambda h: (h.start, h.end))]


def _new(text: str) -> list[tuple[int, int, str]]:
    return [(h.start, h.end, h.kind) for h in ss.scan_secrets(text, lexicon())]


def _pieces() -> list[str]:
    names = sorted(lexicon().secrets["assignment_names"])
    return [
        *names, *(n.upper() for n in names), *(n.title() for n in names), "API_\u212aEY",
        "=", ":", " = ", "  =", "    =", "\t=", " \t=", '"', "'", '": "', "' : '", "\u00a0=",
        "x", "my", "-", "_", " ", "\n", "é", "Σ", "token" * 9,
        "Zx9Qw2Lm8Rt4Vb6Nc1Kp3Hs5", "aB3dE5gH7jK9mN1pQ3sT5vX7", "short", "changeme",
    ]  # fmt: skip


TEXTS = st.lists(st.sampled_from(_pieces()), max_size=14).map("".join) | st.text(max_size=80)


@settings(max_examples=1500, deadline=None)
@given(TEXTS)
def test_scan_equals_the_definition_and_the_gate_is_necessary(text: str) -> None:
    found = _old_scan(text)
    assert _new(text) == found
    assert [(h.start, h.end, h.kind) for h in ss.find_secrets(text, lexicon())] == found
    if found:
        assert ss.may_hold_secret(text, ss.token_needles(), lexicon())


def test_corpus_strings() -> None:
    texts: set[str] = set()
    for path in sorted((ROOT / "corpus").glob("**/*.json")):
        if WITHHELD.isdisjoint(path.parts):  # the unscored blind set stays unread
            texts.update(json_strings(json.loads(path.read_text("utf-8"))))
    with_hits = 0
    for text in texts:
        found = _old_scan(text)
        assert _new(text) == found, text[:80]
        if found:
            with_hits += 1
            assert ss.may_hold_secret(text, ss.token_needles(), lexicon())
    assert with_hits  # the corpus holds credentials, so the comparison reaches the hits


def test_long_name_runs_and_separators() -> None:
    value = "Zx9Qw2Lm8Rt4Vb6Nc1Kp3Hs5"
    for text in (
        f"api_key={value}",
        f"API_KEY : '{value}'",
        f"x{'a' * 50}token = {value}",  # the match starts 40 letters before the colon
        f"{'a' * 37}token={value}",
        f"password\t= {value}",  # a tab stays in the name: no assignment
        f"password    = {value}",  # four spaces: no match
        f"my_secret_key: {value} and token: {value}",
        f"token=secret={value}",
    ):
        assert _new(text) == _old_scan(text), text
        if _old_scan(text):
            assert ss.may_hold_secret(text, ss.token_needles(), lexicon())


def test_a_name_and_a_colon_apart_close_the_gate() -> None:
    """The gate before the pass opened on any name and any colon; now the name must stand
    before the colon, so prose that mentions a token and has a colon elsewhere stays closed."""
    needles, lex = ss.token_needles(), lexicon()
    assert not ss.may_hold_secret("Returns the token. Note: cached.", needles, lex)
    assert ss.may_hold_secret("Set token: abc", needles, lex)
    assert ss.may_hold_secret('{"Password" : "x"}', needles, lex)
    assert not ss.may_hold_secret("password\t= x", needles, lex)

"""`detect._text_gates` asks `triggers.shell_may_open` before `shell_possible` (the twenty-second
pass): the first is a superset of the second (each piece `shell_possible` compares is a
substring of the folded text bounded by separators that are not [a-z0-9], so an alphanumeric
shell word among them is a whole run), so the shell gate opens on the same texts.

Held on every string of the corpus (but the blind sets), the real servers' tool lists, the
generated benchmark catalogs, and random text built from the shell lexicon's words and the
characters that cut sentences or words (`test_perf21_shell.TEXTS`), in capitals too."""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path

from hypothesis import given, settings

from json_strings import corpus_strings, json_strings
from test_perf21_shell import TEXTS
from toolwitness.checks.injection import detect, payloads, targets, triggers
from toolwitness.checks.text.language import fold
from toolwitness.checks.text.lexicon import lexicon

ROOT = Path(__file__).resolve().parent.parent

sys.path.insert(0, str(ROOT / "benchmarks"))
from catalogs import catalog  # noqa: E402


@lru_cache(maxsize=1)
def _texts() -> tuple[str, ...]:
    texts: set[str] = set()
    texts.update(corpus_strings(ROOT, blind=False))  # the spent blind sets are not read either
    for kind in ("benign", "poisoned"):
        texts.update(json_strings(catalog(400, kind)))
    return tuple(sorted(texts))


def _held(text: str) -> bool:
    lex = lexicon()
    lower = triggers.scan(text).lower
    assert lower == (text.lower() if text.isascii() else fold(text))
    possible = triggers.shell_possible(text, lower, lex)
    if possible:
        assert triggers.shell_may_open(text, lower, targets.text_runs(lower), lex), text
    opened = payloads.shell_commands in detect.shared_text_gates(text, False)
    assert opened == (possible and payloads.may_run_shell(text, lex)), text
    return opened


def test_same_gate_on_every_string() -> None:
    texts = _texts()
    assert len(texts) > 3_000
    assert sum(_held(text) for text in texts) > 10


@settings(max_examples=2000, deadline=None)
@given(TEXTS)
def test_same_gate_on_random_text(text: str) -> None:
    _held(text)


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_same_gate_in_capitals(text: str) -> None:
    _held(text.upper())

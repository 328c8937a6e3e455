"""Role prose tokenising: the run-at-once path for lines holding paths or URLs gives the tokens
of the per-chunk definition it replaced, on every line of every distinct text of the corpus
and of both 5,000-tool benchmark catalogs, and on generated lines; and it reads fewer chunks
one by one (work counted, not timed)."""

from __future__ import annotations

import json
import string
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwitness.checks.roles import prose as role_prose
from toolwitness.checks.roles import text as role_text
from toolwitness.checks.roles.prose import _analyse, _unquoted
from toolwitness.checks.roles.vocab import vocabulary
from toolwitness.textnorm import nfc

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from catalogs import catalog  # noqa: E402


def _reference_tokens(line: str) -> list[str]:
    """`_chunks_tokens` as it was: a line with a slash, a backslash or a dot-word is read
    chunk by chunk."""
    if "/" not in line and "\\" not in line and not ("." in line and role_text._has_dot_word(line)):
        return role_text._WORD.findall(line)
    return [token for chunk in line.split() for token in role_text._chunk_tokens(chunk)]


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _texts() -> set[str]:
    texts: set[str] = set()
    for path in sorted((ROOT / "corpus").rglob("*.json")):
        if any(part.startswith("blind-") for part in path.parts):
            continue
        texts.update(_strings(json.loads(path.read_text(encoding="utf-8"))))
    for kind in ("benign", "poisoned"):
        texts.update(_strings(catalog(5000, kind)))
    return texts


@pytest.fixture(scope="module")
def texts() -> set[str]:
    return _texts()


def _lines(text: str) -> list[str]:
    # the lines `_compute` tokenises, of the text and of its unquoted form
    out: list[str] = []
    for form in {text, _unquoted(text)}:
        normal = form if form.isascii() else nfc(form)
        out += normal.lower().replace("\u2019", "'").splitlines()
    return out


def test_every_line_of_the_corpus_and_catalogs_tokenises_as_before(
    texts: set[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    chunk_reads = {"n": 0}
    plain = role_text._chunk_tokens

    def counted(chunk: str) -> list[str]:
        chunk_reads["n"] += 1
        return plain(chunk)

    lines = {line for text in texts for line in _lines(text)}
    slow = [line for line in lines if role_text._chunks_tokens(line) != _reference_tokens(line)]
    assert slow == []
    monkeypatch.setattr(role_text, "_chunk_tokens", counted)
    # the lines the per-chunk definition read chunk by chunk
    special = [
        line
        for line in lines
        if "/" in line or "\\" in line or ("." in line and role_text._has_dot_word(line))
    ]
    chunks = sum(len(line.split()) for line in special)
    for line in special:
        role_text._chunks_tokens(line)
    assert len(texts) > 15_000 and len(lines) > 15_000
    # the chunks read one by one are the few that may be URLs or paths
    assert 0 < chunk_reads["n"] * 5 < chunks


def test_every_text_of_the_corpus_and_catalogs_analyses_as_before(
    texts: set[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    vocab = vocabulary()
    new = [_analyse(text, vocab) for text in sorted(texts)]
    # the reference: chunk by chunk, and the clauses always from the unquoted text re-lowered
    # (a copy of it, so `_analyse` cannot reuse its lowered form)
    monkeypatch.setattr(role_text, "_chunks_tokens", _reference_tokens)
    monkeypatch.setattr(role_prose, "_unquoted", lambda text: (_unquoted(text) + ".")[:-1])
    old = [_analyse(text, vocab) for text in sorted(texts)]
    assert new == old


def test_the_quote_gate_passes_every_text_with_a_quote(texts: set[str]) -> None:
    # the gate answers "nothing to replace" only for a text without any opening character
    gated = [text for text in texts if role_prose._QUOTE_OPENER.search(text) is None]
    assert all(not any(q in text for q in "\"'`\u201c\u2018\u00ab") for text in gated)
    assert all(_unquoted(text) is text for text in gated)


_PIECES = st.sampled_from(
    [
        "/", "\\", ".", "..", "://", "~/", ".env", ".ssh", "(", "[", '"', "'", "`", ")", ",", ";",
        ":", "!", "?", "-", "_", " ", "  ", "\t", "\u00a0", "\u2003", "\x1c", "é", "\u2019",
        "read", "path", "https", "etc", "id_rsa", "file", "and/or", "x", "1",
    ]
)  # fmt: skip
_LINES = st.lists(st.one_of(_PIECES, st.text(alphabet=string.printable, max_size=3)), max_size=25)


@settings(max_examples=3000, deadline=None)
@given(_LINES)
def test_generated_lines_tokenise_as_before(pieces: list[str]) -> None:
    for line in "".join(pieces).splitlines() or [""]:
        assert role_text._chunks_tokens(line) == _reference_tokens(line)

"""The sentence analysis' scanning shortcuts (`checks.text.language`) find exactly what the plain
definitions find: tokens of ASCII text from the lower-cased text, quoted spans and sentence cuts
from the characters that can open or end one, clause breaks from one search of the gap, and
each sentence's tokens by bisection."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from language_reference import plain_clause_tokens as _clause_tokens
from language_reference import plain_tokens as _tokens
from toolwitness.checks.text import language as lang

_PIECES = st.sampled_from([
    "a", "Read", "the", " ", "  ", ".", ". ", "!", "?", ";", "\n", "\r", ",", ":", "(", ")", "[",
    "]", "{", "}", "—", "–", " - ", "-", "'", "\"", "`", "’", "‘", "“", "”", "«", "»", "„",
    "e.g.", "i.e. ", "etc. ", "v. ", "file.txt", "<b>", "</tag>", "<x|y>", "You", "must", "not",
    "never", "but", "then", "don't", "É", "İ", "ß", "ﬁ", "\u202e", "x" * 5,
])  # fmt: skip
TEXTS = st.lists(_PIECES, max_size=60).map("".join) | st.text(max_size=120)


def _quote_spans(text: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        close = lang._QUOTES.get(ch)
        if close is None and ch == "'" and (i == 0 or not text[i - 1].isalnum()):
            close = "'"
        if close is not None:
            j = text.find(close, i + 1, min(n, i + 400))
            newline = text.find("\n", i + 1, j if j > 0 else i + 1)
            if j > i + 1 and newline < 0:
                spans.append((i, j + 1))
                i = j + 1
                continue
        i += 1
    return spans


def _cuts(
    text: str, toks: list[lang.Token], quotes: list[tuple[int, int]] | None = None
) -> list[tuple[int, int]]:
    cuts = {m.start() for m in lang._TAG.finditer(text)} | {m.end() for m in lang._TAG.finditer(text)}
    prev_word, tok_iter = "", iter(toks)
    tok = next(tok_iter, None)
    for i, ch in enumerate(text):
        while tok is not None and tok.end <= i:
            prev_word, tok = tok.text, next(tok_iter, None)
        if lang._SENTENCE_MARK.fullmatch(ch):  # other scripts' terminals too ("؟", "।")
            nxt = text[i + 1] if i + 1 < len(text) else " "
            if ch == "." and (not nxt.isspace() or prev_word.rsplit(".", 1)[-1] in lang._ABBREV):
                continue
            cuts.add(i + 1)
    # never inside a backtick code span or a URL (the reference: a plain scan of every span)
    code = [(lo, hi) for lo, hi in quotes or [] if text[lo] == "`"]
    code += [(m.start(), m.end()) for m in lang._URL_SPAN.finditer(text)]
    cuts = {c for c in cuts if not any(lo < c < hi for lo, hi in code)}
    bounds, start = [], 0
    for cut in sorted(cuts):
        if cut > start:
            bounds.append((start, cut))
            start = cut
    if start < len(text):
        bounds.append((start, len(text)))
    return bounds


@settings(max_examples=400)
@given(TEXTS)
def test_scanning_shortcuts_match_the_definitions(text: str) -> None:
    toks = _tokens(text)
    assert lang.tokens(text) == toks
    assert lang._quote_spans(text) == _quote_spans(text)
    assert lang._sentence_bounds(text, toks) == _cuts(text, toks)
    quotes = _quote_spans(text)
    assert lang._sentence_bounds(text, toks, quotes) == _cuts(text, toks, quotes)
    assert [c.tokens for c in lang._clauses(text, toks)] == _clause_tokens(text, toks)


@settings(max_examples=300)
@given(TEXTS)
def test_sentences_hold_the_tokens_inside_them(text: str) -> None:
    toks = _tokens(text)
    analysis = lang._analyse(text, lang.lexicon())
    expected = []
    for lo, hi in _cuts(text, toks, _quote_spans(text)):
        own = [t for t in toks if lo <= t.start < hi]
        if own:
            expected.append((lo, hi, own))
    assert [(s.start, s.end, s.tokens) for s in analysis.sentences] == expected


def test_phrase_matching() -> None:
    words = ["you", "must", "not", "read"]
    assert lang.match_at(words, 0, ("you", "must"))
    assert lang.match_at(words, 2, ("not",))
    assert not lang.match_at(words, 3, ("read", "it"))
    assert not lang.match_at(words, 1, ("must", "read"))
    assert lang.match_at(words, 4, ())

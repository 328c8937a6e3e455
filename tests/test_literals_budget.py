"""`contains_any` answers its first texts by the plain substring test and compiles its trie once
that has cost about as much (issue 17): the same answers before, across and after the switch."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwitness import literals
from toolwitness.literals import contains_any, trie_search

_ALPHABET = st.sampled_from(list("ab.*(|)\\\n-é"))


@settings(max_examples=300)
@given(
    st.lists(st.text(_ALPHABET, max_size=5), max_size=8),
    st.lists(st.text(_ALPHABET, max_size=30), max_size=6),
    st.sampled_from([0, 1, 3, 256]),
)
def test_same_answers_across_the_switch(words: list[str], texts: list[str], units: int) -> None:
    real = literals._UNITS_PER_PATTERN_CHAR
    literals._UNITS_PER_PATTERN_CHAR = units  # a smaller budget switches sooner
    try:
        test = contains_any(words)
        compiled = trie_search(words)
        for text in texts:
            expected = any(w in text for w in words)
            assert test(text) == expected == compiled(text)
    finally:
        literals._UNITS_PER_PATTERN_CHAR = real


def test_compiles_once_the_plain_test_has_cost_as_much(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[str] = []
    real = re.compile

    def counting(pattern: str, flags: int = 0) -> re.Pattern[str]:
        compiled.append(pattern)
        return real(pattern, flags)

    monkeypatch.setattr(literals.re, "compile", counting)
    words = [f"word{i}" for i in range(100)]  # budget: 256 units x 590 characters
    test = contains_any(words)
    assert compiled == []
    assert test("a short text naming word42 once") and not test("nothing here")
    assert compiled == []  # two short texts: the plain test, no pattern
    assert test("x" * 2_000 + "word7")  # 200,500 units: more than the budget left
    assert len(compiled) == 1
    assert not test("nothing") and test("word99")
    assert len(compiled) == 1


def test_no_words_never_compiles(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(literals.re, "compile", lambda *a: pytest.fail("compiled"))
    test = contains_any([])
    assert not test("") and not test("x" * 100_000)

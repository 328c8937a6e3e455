"""`contains_any` agrees with the plain substring test on arbitrary words and texts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import assert_linear_cost
from toolwitness.literals import contains_any

_ALPHABET = st.sampled_from(list("ab.*(|)\\\n-é"))


@settings(max_examples=400)
@given(st.lists(st.text(_ALPHABET, max_size=5), max_size=8), st.text(_ALPHABET, max_size=30))
def test_same_answer_as_substring_search(words: list[str], text: str) -> None:
    assert contains_any(words)(text) == any(w in text for w in words)


def test_prefixes_and_regex_characters() -> None:
    test = contains_any(["pass", "password", "a.b", "(x)"])
    assert test("my passphrase") and test("xa.by") and test("f(x)")
    assert not test("pas") and not test("axb") and not test("x)")
    assert not contains_any([])("anything")
    assert contains_any([""])("")


def test_linear_on_long_text() -> None:
    words = [f"w{i}x" for i in range(200)]
    test = contains_any(words)
    assert_linear_cost(test, "w" * 25_000, "w" * 200_000, 8)

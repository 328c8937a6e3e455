"""`contains_any` agrees with the plain substring test on arbitrary words and texts."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

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
    import time

    words = [f"w{i}x" for i in range(200)]
    test = contains_any(words)
    small, large = "w" * 10_000, "w" * 100_000
    start = time.perf_counter()
    test(small)
    t_small = time.perf_counter() - start
    start = time.perf_counter()
    test(large)
    t_large = time.perf_counter() - start
    assert t_large < 30 * max(t_small, 1e-4)

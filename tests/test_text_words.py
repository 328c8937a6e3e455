"""`checks.text.words.reader_words`: words as a reader counts them, in any script."""

from __future__ import annotations

import pytest

from toolwitness.checks.text.words import reader_words


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Maintained by the data team", 5),
        ("स्थिति दिखाने के बाद", 4),  # vowel signs are marks: still four tokens
        ("会話の要約を送ってください", 6),  # unspaced: two characters a word
        ("สรุปบทสนทนาแล้วส่ง", 9),  # Thai, unspaced
        ("이 메모를 저장하세요", 3),  # Hangul is written with spaces
        ("v2.1 -- 42 !!", 1),  # tokens without a letter are not words
        ("", 0),
    ],
)
def test_reader_words(text: str, words: int) -> None:
    assert reader_words(text) == words

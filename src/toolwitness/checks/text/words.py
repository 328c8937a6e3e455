"""Words as a reader counts them, in any script.

A space-separated token with a letter is a word (an Indic word's vowel signs are marks, not
letters, so a regex letter run would split it). Scripts written without spaces between words
(CJK ideographs, kana, Thai, Lao, Khmer, Myanmar) count one word per two of their characters:
their run is a phrase, not a word. Hangul is written with spaces and counts by tokens.
"""

from __future__ import annotations

from toolwitness.lazyre import lazy_compile

UNSPACED = lazy_compile(
    "[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]"
)


def reader_words(text: str) -> int:
    count = 0
    for token in text.split():
        # an ASCII token has no unspaced letter: the class's ranges cost ~2.5 ms to compile
        unspaced = 0 if token.isascii() else len(UNSPACED.findall(token))
        if unspaced >= 2:
            count += unspaced // 2
        elif any(c.isalpha() for c in token):
            count += 1
    return count

"""Whether a text reads as English: the word analysis (roles, frames, purpose) is English-only,
so a judgement that rests on what a text does *not* say is withheld for text it cannot read.

The test: at least one word in ten is an English function word (the `function_words` slot of
`data/lexicon/frames.yaml`); English prose runs at a third or more, other languages near zero
(a CJK sentence is one or two long tokens). Short texts (under six words) are taken as read.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

from toolwitness.checks.injection.slots import slots
from toolwitness.checks.text.words import reader_words
from toolwitness.lazyre import lazy_compile

_WORD = lazy_compile(r"\w+")
_MIN_WORDS = 6
_MAX_WORDS = 400  # the first words decide; the cost stays bounded on hostile text


@lru_cache(maxsize=4096)
def reads_as_english(text: str) -> bool:
    words = [m.group().lower() for m in itertools.islice(_WORD.finditer(text), _MAX_WORDS)]
    if len(words) < _MIN_WORDS:
        return True
    function = slots().members["function_words"]
    return sum(w in function for w in words) * 10 >= len(words)


_PROSE_WORD = lazy_compile(r"[A-Za-z']+|[^\W\d_]+")


def is_english_prose(text: str) -> bool:
    """Stricter than `reads_as_english`: English only on evidence, six words or more (digits
    aside), a quarter of them English function words (English prose runs at a third or more;
    Dutch, German or a CJK run far below). For a judgement that quiets a finding."""
    words = [w.lower() for w in _PROSE_WORD.findall(text[:2000])]
    if len(words) < _MIN_WORDS:
        return False
    function = slots().members["function_words"]
    return sum(w in function for w in words) * 4 >= len(words)


_OTHER_SCRIPT_WORDS = 3  # words of a sentence in another script (a label is shorter: "仅预览")
_EVIDENT = 4  # letters of an English function word that counts as evidence on its own


def in_another_language(text: str) -> bool:
    """The text says something in a language other than English: three words or more in a
    script other than Latin (a CJK character counts as a word), or Latin prose of six words or
    more that is not English prose (`is_english_prose`) and holds no English function word of
    four letters or more — short ones ("do", "a", "to", "in") occur in other languages, a
    longer one ("from", "these", "with") is English evidence in prose diluted by file names."""
    if not text.strip():
        return False
    if any(ch.isalpha() and not _latin(ch) for ch in text):
        return reader_words(text) >= _OTHER_SCRIPT_WORDS
    words = [w.lower().strip(".,;:()'\"") for w in text.split()]
    if len(words) < _MIN_WORDS or is_english_prose(text):
        return False
    function = slots().members["function_words"]
    return not any(len(w) >= _EVIDENT and w in function for w in words)


def _latin(ch: str) -> bool:
    return ch <= "\u024f" or "\u1e00" <= ch <= "\u1eff"  # Latin, with Latin Extended Additional

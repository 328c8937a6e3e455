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
from toolwitness.checks.text.wordnet import verb_lemmas
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
    head = text[:2000]
    if head.isascii():
        # ASCII lower-casing maps a letter to a letter and keeps every other character: the
        # words of the lower-cased text are the words lower-cased, found in one pass
        words = _PROSE_WORD.findall(head.lower())
    else:
        words = [w.lower() for w in _PROSE_WORD.findall(head)]
    if len(words) < _MIN_WORDS:
        return False
    function = slots().members["function_words"]
    count = sum(map(function.__contains__, words))
    if count * 4 >= len(words):
        return True
    # terse English ("Create a new support ticket in the help desk and return its id. Scope:
    # help desk region 4, shard 18.") runs on nouns and verbs: with some function words, two
    # words in five being English function words or WordNet's English verbs is evidence too
    # (another language's words seldom are; a Spanish or Dutch sentence has its own function
    # words, none of these)
    if count * 10 < len(words):
        return False
    verbs = verb_lemmas()
    english = count + sum(1 for w in words if w not in function and _english_verb(w, verbs))
    return english * 5 >= len(words) * 2


def _english_verb(word: str, verbs: frozenset[str]) -> bool:
    """A WordNet verb, or its third person ("matches", "invoices")."""
    return word in verbs or (word.endswith("s") and (word[:-1] in verbs or word[:-2] in verbs))


_OTHER_SCRIPT_WORDS = 3  # words of a sentence in another script (a label is shorter: "仅预览")
_EVIDENT = 4  # letters of an English function word that counts as evidence on its own
_PUNCTUATION = ".,;:()'\""
# A word character outside Latin (`_latin`: up to Latin Extended-B, and Latin Extended
# Additional), neither a decimal digit nor "_": every letter of another script (a letter is a
# word character, never a decimal digit), and only a few other characters (numerals such as
# "Ⅻ"), so format characters, tag characters, marks and symbols are skipped in C instead of
# being looked at one by one (a poisoned field holds hundreds of tag characters).
_NOT_LATIN = lazy_compile(r"[^\W\d_\x00-\u024f\u1e00-\u1eff]")


@lru_cache(maxsize=1)
def _evident_words() -> frozenset[str]:
    """English function words of four letters or more: evidence of English on their own."""
    return frozenset(w for w in slots().members["function_words"] if len(w) >= _EVIDENT)


def _other_script(text: str) -> bool:
    """A letter of a script other than Latin somewhere in the text."""
    if text.isascii():
        return False
    return any(m.group().isalpha() for m in _NOT_LATIN.finditer(text))


_CACHE_MAX_CHARS = 4000  # a longer (hostile) text is judged each time, not pinned in memory


def in_another_language(text: str) -> bool:
    """`_in_another_language`, remembered for texts of a catalog's usual length: gates of
    several readings ask it of the same text."""
    if len(text) > _CACHE_MAX_CHARS:
        return _in_another_language(text)
    return _in_another_language_cached(text)


def _in_another_language(text: str) -> bool:
    """The text says something in a language other than English: three words or more in a
    script other than Latin (a CJK character counts as a word), or Latin prose of six words or
    more that is not English prose (`is_english_prose`) and holds no English function word of
    four letters or more — short ones ("do", "a", "to", "in") occur in other languages, a
    longer one ("from", "these", "with") is English evidence in prose diluted by file names."""
    if not text or text.isspace():  # `not text.strip()` without copying the text
        return False
    if _other_script(text):
        return reader_words(text) >= _OTHER_SCRIPT_WORDS
    words = text.lower().split()
    if len(words) < _MIN_WORDS:
        return False
    # the cheapest sufficient answer first: an English function word of four letters or more,
    # found at the first one (a word is stripped of punctuation only when it is not one as is)
    evident = _evident_words()
    for word in words:
        if word in evident or word.strip(_PUNCTUATION) in evident:
            return False
    return not is_english_prose(text)


_in_another_language_cached = lru_cache(maxsize=16384)(_in_another_language)


def _latin(ch: str) -> bool:
    return ch <= "\u024f" or "\u1e00" <= ch <= "\u1eff"  # Latin, with Latin Extended Additional

"""Word classes in other languages, from the WikDict bilingual dictionaries.

`data/lexicon/multilingual.json` is generated at build time by `scripts/build_multilingual.py`:
each class (`multilingual-seeds.yaml`: a few WordNet senses) taken into twenty-seven languages
through the WikDict dictionaries (CC BY-SA 3.0, notice in `WIKDICT-LICENSE`), FreeDict's older
ones (GPL, `FREEDICT-LICENSE`) and, for Chinese, CC-CEDICT (CC BY-SA 4.0, `CEDICT-LICENSE`), and
inflected with the simplemma lemmatiser's dictionary of each language; Thai from Thai WordNet
(NICT, `THAI-WORDNET-LICENSE`). A scan looks whole words up, and finds the words of a language
written without spaces (Japanese, Chinese, Thai) inside the text; nothing is translated,
lemmatised or downloaded at run time.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from toolwitness.datafiles import data_files
from toolwitness.errors import InternalError
from toolwitness.lazyre import lazy_compile

SCHEMA = "toolwitness.multilingual-classes/1"
# Languages written without spaces between words (Japanese, Chinese, Thai): their forms are
# found inside the text, not looked up as whole words. A form of one character ("客", a guest,
# inside "顧客" or "客観") is too short to find that way.
UNSPACED = frozenset({"ja", "zh", "th"})
_MIN_UNSPACED = 2
# Kana, CJK ideographs and Thai letters: where a form of an unspaced language can begin.
# (a Thai word may begin with a consonant or with a vowel written before it: "ไม่", "แจ้ง")
_UNSPACED_SCRIPT = lazy_compile(
    r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\u0e01-\u0e2e\u0e40-\u0e44]"
)
_MAX_FORMS = 200_000
_MAX_WORD = 60
# A word: letters and combining marks, with an inner apostrophe or hyphen ("l'utente" splits).
_WORD = lazy_compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


Sense = tuple[str, str]  # (language, class)


def parse(doc: Any) -> dict[str, frozenset[Sense]]:
    """form -> the (language, class) pairs it belongs to ("no" is a Spanish negator and a
    Portuguese preposition: a reading asks for its classes in one language). A malformed
    document is a packaging bug: fail closed."""
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise InternalError(f"multilingual.json: schema must be {SCHEMA}")
    classes = doc.get("classes")
    if not isinstance(classes, dict) or not classes:
        raise InternalError("multilingual.json: classes must be a non-empty object")
    # Each form's set of pairs is shared with every form that has the same one (a few thousand
    # distinct sets for some 30,000 forms): the table's memory grows with the sets, not the forms.
    found: dict[str, frozenset[Sense]] = {}
    shared: dict[frozenset[Sense], frozenset[Sense]] = {}
    none: frozenset[Sense] = frozenset()
    for name, body in classes.items():
        words = body.get("words") if isinstance(body, dict) else None
        if not isinstance(words, dict):
            raise InternalError(f"multilingual.json: class {name!r} is malformed")
        for lang, forms in words.items():
            if not isinstance(forms, list) or not all(
                isinstance(f, str) and 0 < len(f) <= _MAX_WORD for f in forms
            ):
                raise InternalError(f"multilingual.json: {name}.{lang} must be a list of words")
            sense = (lang, name)
            for form in forms:
                have = found.get(form, none)
                if sense not in have:
                    grown = have | {sense}
                    found[form] = shared.setdefault(grown, grown)
    if len(found) > _MAX_FORMS:
        raise InternalError("multilingual.json: too many forms")
    return found


@lru_cache(maxsize=1)
def multilingual_classes() -> dict[str, frozenset[Sense]]:
    text = data_files().joinpath("lexicon", "multilingual.json").read_text("utf-8")
    return parse(json.loads(text))


def classes_of(words: list[str]) -> dict[str, dict[str, list[int]]]:
    """language -> class -> the indexes of the words that belong to it in that language."""
    table = multilingual_classes()
    out: dict[str, dict[str, list[int]]] = {}
    for i, word in enumerate(words):
        for lang, name in table.get(word, ()):
            out.setdefault(lang, {}).setdefault(name, []).append(i)
    return out


def words_of(text: str) -> list[str]:
    """The text's words, lower-cased as the table is (case-folding would turn a Greek final
    sigma into a medial one and "ß" into "ss", which no form of the table holds)."""
    if text.isascii():
        # ASCII lower-casing maps a letter to a letter and keeps every other character: the
        # words of the lower-cased text are the words lower-cased, found in one pass
        return _WORD.findall(text.lower())
    return [w.lower() for w in _WORD.findall(text)]


def word_offsets(text: str, start: int = 0, end: int | None = None) -> list[int]:
    """Where each word of `text[start:end]` begins, in `text` (the same words as `words_of`)."""
    return [m.start() for m in _WORD.finditer(text, start, len(text) if end is None else end)]


@lru_cache(maxsize=1)
def _unspaced_forms() -> dict[str, tuple[tuple[str, frozenset[Sense]], ...]]:
    """first character -> the forms of unspaced languages that begin with it and their
    (language, class) pairs, longest first."""
    by_first: dict[str, list[tuple[str, frozenset[Sense]]]] = {}
    for form, senses in multilingual_classes().items():
        mine = frozenset(s for s in senses if s[0] in UNSPACED)
        if mine and len(form) >= _MIN_UNSPACED:
            by_first.setdefault(form[0], []).append((form, mine))
    return {c: tuple(sorted(v, key=lambda x: (-len(x[0]), x[0]))) for c, v in by_first.items()}


def has_unspaced_script(text: str) -> bool:
    return _UNSPACED_SCRIPT.search(text) is not None


def unspaced_hits(text: str) -> list[tuple[int, int, frozenset[Sense]]]:
    """(start, end, (language, class) pairs) of every form of an unspaced language inside the
    text, in order of start. One dictionary lookup per character: the cost is the text's length
    times the few forms that begin with one character."""
    if not has_unspaced_script(text):
        return []
    forms = _unspaced_forms()
    out: list[tuple[int, int, frozenset[Sense]]] = []
    for i, ch in enumerate(text):
        for form, senses in forms.get(ch, ()):
            if text.startswith(form, i):
                out.append((i, i + len(form), senses))
    return out

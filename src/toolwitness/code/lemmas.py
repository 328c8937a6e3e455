"""lemminflect's lemma lookups, read from its own data files in place.

`lemminflect` builds its lemma table on the first lookup: 80,676 lines of a gzip file read one
`readline` at a time into a 70,000-word dict, about 0.16–0.25 s and ~40 MiB, while
`toolwitness code` asks for a few hundred words; and importing the package loads numpy for its
inflection models (~0.1 s), which lemma lookups never use. The file is sorted by word, so
`LemmaTable` decompresses it once (~8 ms) and finds a word's lines by binary search over the text,
parsing them exactly as `LemmaLUCodec.load` does; `all_lemmas` and `lemma` then do what
`getAllLemmas` and `getLemma` do (overrides, capitalisation, the part-of-speech filter). A word
the table does not hold goes to lemminflect itself for `lemma` (its out-of-vocabulary rules).
`tests/test_code_lemmas.py` holds both equal to lemminflect on every word of its table.
"""

from __future__ import annotations

import gzip
import importlib.util
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

_Entry = dict[str, tuple[str, ...]]
_UPOS = frozenset({"NOUN", "PROPN", "VERB", "ADJ", "ADV", "AUX"})  # Lemmatizer.DICT_UPOS_TYPES


class LemmaTable:
    """The `word -> {upos: spellings}` mapping of `LemmaLUCodec.load(path)`, read on demand from
    the file's text (lines `word,category,form/form`, sorted by word)."""

    def __init__(self, text: str, to_upos: Callable[[str], str]) -> None:
        self._text = text
        self._to_upos = to_upos
        self._found: dict[str, _Entry | None] = {}

    def get(self, word: str, default: Any = None) -> Any:
        if word in self._found:
            entry = self._found[word]
        else:
            entry = self._lookup(word) if "\n" not in word and "," not in word else None
            self._found[word] = entry
        return default if entry is None else entry

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.get(word) is not None

    def _word_at(self, start: int) -> str:
        return self._text[start : self._text.find(",", start)]

    def _lookup(self, word: str) -> _Entry | None:
        text = self._text
        lo, hi = 0, len(text)  # lo: a line start; every line before lo holds a smaller word
        while lo < hi:
            mid = (lo + hi) // 2
            start = text.rfind("\n", lo, mid) + 1 or lo  # the line holding mid (not before lo)
            if self._word_at(start) < word:
                end = text.find("\n", start)
                lo = len(text) if end < 0 else end + 1
            else:
                hi = start
        entry: _Entry | None = None
        while lo < len(text) and self._word_at(lo) == word:
            end = text.find("\n", lo)
            end = len(text) if end < 0 else end
            # LemmaLUCodec.fromString, then load's merge, line by line in file order
            _word, category, forms = text[lo:end].strip().split(",")
            upos = self._to_upos(category)
            if entry is None:
                entry = {upos: tuple(forms.split("/"))}
            else:
                entry.update({upos: tuple(forms.split("/"))})
            lo = end + 1
        return entry


def read_table(path: str | Path, to_upos: Callable[[str], str]) -> LemmaTable:
    with open(path, "rb") as f:
        return LemmaTable(gzip.decompress(f.read()).decode(), to_upos)


def upos_of(category: str) -> str:
    """lemminflect's `categoryToUPos`."""
    upos = category.upper()
    return "AUX" if upos == "MODAL" else upos


def read_overrides(path: str | Path) -> dict[str, _Entry]:
    """lemminflect's `OverridesCodec.load`."""
    out: dict[str, _Entry] = {}
    with open(path) as f:
        for raw in f:
            line = raw.strip()
            if not line or line[0] == "#":
                continue
            word_in, pos, word_out = line.split(",")
            entry: _Entry = {pos: (word_out,)}
            if word_in not in out:
                out[word_in] = entry
            else:
                out[word_in].update(entry)
    return out


def resources() -> Path:
    """lemminflect's `resources` folder, found without importing the package (which loads
    numpy for its inflection models)."""
    spec = importlib.util.find_spec("lemminflect")
    if spec is None or spec.origin is None:
        raise ModuleNotFoundError("lemminflect")
    return Path(spec.origin).parent / "resources"


@lru_cache(maxsize=1)
def _tables() -> tuple[LemmaTable, dict[str, _Entry]]:
    folder = resources()
    return read_table(folder / "lemma_lu.csv.gz", upos_of), read_overrides(
        folder / "lemma_overrides.csv"
    )


def _caps(word: str, style: str) -> str:
    if style == "upper":
        return word.upper()
    return word.capitalize() if style == "first" else word.lower()


def all_lemmas(word: str, upos: str | None = None) -> _Entry:
    """`lemminflect.getAllLemmas(word, upos)` for upos None, NOUN, PROPN, VERB, ADJ, ADV, AUX."""
    if upos is not None and upos not in _UPOS:
        return {}  # lemminflect logs a warning and answers nothing
    style = "upper" if word.isupper() else "first" if word and word[0].isupper() else "lower"
    word = word.lower()
    if upos == "PROPN":
        word, upos = word.capitalize(), "NOUN"
    table, overrides = _tables()
    lemmas = dict(table.get(word, {}))  # values are tuples of str: a copy is a deep copy
    lemmas.update(overrides.get(word, {}))
    if upos:
        lemmas = {k: v for k, v in lemmas.items() if k == upos}
    return {k: tuple(_caps(w, style) for w in v) for k, v in lemmas.items()}


def lemma(word: str, upos: str) -> tuple[str, ...]:
    """`lemminflect.getLemma(word, upos)`: the spellings of the word's lemma for that part of
    speech; a word the table does not hold goes to lemminflect's own out-of-vocabulary rules."""
    found = all_lemmas(word, upos)
    if not found:
        import lemminflect  # type: ignore[import-untyped]

        return tuple(lemminflect.getLemma(word, upos=upos))
    return next(iter(found.values()))

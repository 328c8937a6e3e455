"""lemminflect's lemma table, looked up in place instead of built whole.

`lemminflect` builds its lemma table on the first lookup: 80,676 lines of a gzip file read one
`readline` at a time into a 70,000-word dict, about 0.16–0.25 s, while `toolwitness code` asks
for a few hundred words. The file is sorted by word (a test checks it, and that every word gives
the same entry as lemminflect's own table), so `LemmaTable` decompresses it once (~8 ms) and finds
a word's lines by binary search over the text, parsing them exactly as `LemmaLUCodec.load` does.
`prepare()` hands the table to lemminflect's `Lemmatizer` singleton, whose `getAllLemmas`,
`getLemma` and overrides work as before.
"""

from __future__ import annotations

import gzip
from collections.abc import Callable
from functools import lru_cache
from typing import Any

_Entry = dict[str, tuple[str, ...]]


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


def read_table(path: str, to_upos: Callable[[str], str]) -> LemmaTable:
    with open(path, "rb") as f:
        return LemmaTable(gzip.decompress(f.read()).decode(), to_upos)


@lru_cache(maxsize=1)
def prepare() -> None:
    """Give lemminflect's lemmatiser the in-place table before its first lookup (once). Left
    alone when lemminflect has already loaded its own, or does not keep it where 0.2.3 does."""
    from lemminflect import config  # type: ignore[import-untyped]
    from lemminflect.core.Lemmatizer import Lemmatizer  # type: ignore[import-untyped]
    from lemminflect.core.LexicalUtils import categoryToUPos  # type: ignore[import-untyped]

    lemmatizer = Lemmatizer()
    if hasattr(lemmatizer, "lemma_dict") or not hasattr(lemmatizer, "_getLemmaDict"):
        return
    if getattr(lemmatizer, "lemma_lu_fn", None) != config.lemma_lu_fn:
        return
    lemmatizer.lemma_dict = read_table(config.lemma_lu_fn, categoryToUPos)

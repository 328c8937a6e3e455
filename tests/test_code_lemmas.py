"""`code/lemmas.py` reads lemminflect's lemma file in place: it must answer exactly as the table
lemminflect builds itself (`LemmaLUCodec.load`), for every word of the file and for words it
does not hold, and the lemmatiser's answers through it must not change."""

from __future__ import annotations

import pytest
from lemminflect import config  # type: ignore[import-untyped]
from lemminflect.codecs.LemmaLUCodec import LemmaLUCodec  # type: ignore[import-untyped]
from lemminflect.core.Lemmatizer import Lemmatizer  # type: ignore[import-untyped]
from lemminflect.core.LexicalUtils import categoryToUPos  # type: ignore[import-untyped]

from toolwitness.code.lemmas import LemmaTable, read_table


@pytest.fixture(scope="module")
def reference() -> dict[str, dict[str, tuple[str, ...]]]:
    return dict(LemmaLUCodec.load(config.lemma_lu_fn))


def test_every_word_reads_as_lemminflects_own_table(reference: dict[str, object]) -> None:
    table = read_table(config.lemma_lu_fn, categoryToUPos)
    words = list(reference)
    assert words == sorted(words)  # what the binary search relies on
    assert all(table.get(w) == reference[w] for w in words)
    order = {w: list(reference[w]) for w in words[:50]}  # key order too
    assert order == {w: list(table.get(w)) for w in words[:50]}


@pytest.mark.parametrize(
    "word",
    ["", "a", "aaaa", "zzzzzz", "Zürich", "read,write", "line\nbreak", "~", "0", "files!", "Read"],
)
def test_missing_and_odd_words(word: str, reference: dict[str, object]) -> None:
    table = read_table(config.lemma_lu_fn, categoryToUPos)
    assert table.get(word, {}) == reference.get(word, {})
    assert (word in table) == (word in reference)


def test_small_tables_at_their_edges() -> None:
    text = "b,noun,b\nb,verb,bb\nd,adj,d\nf,noun,f/ff\n"
    table = LemmaTable(text, str.upper)
    assert table.get("a") is None and table.get("c") is None and table.get("g") is None
    assert table.get("b") == {"NOUN": ("b",), "VERB": ("bb",)}
    assert table.get("f") == {"NOUN": ("f", "ff")}
    assert LemmaTable("x,noun,y", str.upper).get("x") == {"NOUN": ("y",)}  # no final newline
    assert LemmaTable("", str.upper).get("x") is None


def test_the_lemmatiser_answers_the_same_through_it() -> None:
    from toolwitness.code.lemmas import prepare

    prepare()
    lemmatizer = Lemmatizer()
    words = ["Create", "reads", "files", "writing", "directories", "moved", "searches", "is",
             "Deleting", "xyzzyq", "data", "indices", "PROPN", "went"]  # fmt: skip
    got = [(lemmatizer.getAllLemmas(w), lemmatizer.getLemma(w, upos="VERB")) for w in words]
    table = lemmatizer.lemma_dict
    try:
        lemmatizer.lemma_dict = LemmaLUCodec.load(config.lemma_lu_fn)
        want = [(lemmatizer.getAllLemmas(w), lemmatizer.getLemma(w, upos="VERB")) for w in words]
    finally:
        lemmatizer.lemma_dict = table
    assert got == want

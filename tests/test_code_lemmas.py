"""`code/lemmas.py` reads lemminflect's data files in place: its table must answer exactly as the
one lemminflect builds itself (`LemmaLUCodec.load`), and `all_lemmas` / `lemma` exactly as
`getAllLemmas` / `getLemma`, for every word of the table and for words it does not hold."""

from __future__ import annotations

import subprocess
import sys

import lemminflect  # type: ignore[import-untyped]
import pytest
from lemminflect import config
from lemminflect.codecs.LemmaLUCodec import LemmaLUCodec  # type: ignore[import-untyped]
from lemminflect.codecs.OverridesCodec import OverridesCodec  # type: ignore[import-untyped]
from lemminflect.core.LexicalUtils import categoryToUPos  # type: ignore[import-untyped]

from toolwitness.code import lemmas
from toolwitness.code.lemmas import LemmaTable, all_lemmas, lemma, read_table

ODD = ["", "a", "aaaa", "zzzzzz", "Zürich", "read,write", "line\nbreak", "~", "0", "files!",
       "Read", "READS", "Directories", "GitHub", "iOS", "ß", "İstanbul", "ﬁles"]  # fmt: skip


@pytest.fixture(scope="module")
def reference() -> dict[str, dict[str, tuple[str, ...]]]:
    return dict(LemmaLUCodec.load(config.lemma_lu_fn))


def test_the_files_are_lemminflects_own() -> None:
    assert str(lemmas.resources() / "lemma_lu.csv.gz") == config.lemma_lu_fn
    assert str(lemmas.resources() / "lemma_overrides.csv") == config.lemma_overrides_fn
    assert lemmas.read_overrides(config.lemma_overrides_fn) == OverridesCodec.load(
        config.lemma_overrides_fn
    )
    for category in ("noun", "verb", "adj", "adv", "modal", "aux"):
        assert lemmas.upos_of(category) == categoryToUPos(category)


def test_every_word_reads_as_lemminflects_own_table(reference: dict[str, object]) -> None:
    table = read_table(config.lemma_lu_fn, categoryToUPos)
    words = list(reference)
    assert words == sorted(words)  # what the binary search relies on
    assert all(table.get(w) == reference[w] for w in words)
    order = {w: list(reference[w]) for w in words[:50]}  # key order too
    assert order == {w: list(table.get(w)) for w in words[:50]}
    for word in ODD:
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


def test_lookups_answer_as_lemminflect(reference: dict[str, object]) -> None:
    overrides = OverridesCodec.load(config.lemma_overrides_fn)
    words = [*reference, *overrides, *ODD]
    words += [w.capitalize() for w in words[::97]] + [w.upper() for w in words[::101]]
    for word in words:
        assert all_lemmas(word) == lemminflect.getAllLemmas(word), word
    for upos in ("VERB", "NOUN", "PROPN", "ADJ", "ADV", "AUX"):
        for word in words[::7]:
            assert all_lemmas(word, upos) == lemminflect.getAllLemmas(word, upos), (word, upos)
    for upos in ("VERB", "NOUN"):
        for word in [*words[::13], "xyzzyqs", "frobnicated"]:  # the last two: lemminflect's OOV
            assert lemma(word, upos) == lemminflect.getLemma(word, upos=upos), (word, upos)


def test_code_analysis_does_not_load_lemminflect() -> None:
    """lemminflect's package (and the numpy its inflection models import) stays unloaded."""
    probe = (
        "import sys\n"
        "from toolwitness.code.grammar import senses, verb_lemma\n"
        "from toolwitness.code.declared import declare\n"
        "assert senses('reads') and verb_lemma('reads') == 'read'\n"
        "print(sorted(m for m in ('lemminflect', 'numpy') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"

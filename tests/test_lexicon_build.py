"""The WordNet-derived lexical classes: the shipped file's schema, and (where WordNet is
installed) that the generator reproduces it byte for byte from its seeds."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path

import pytest

from toolwitness.checks.text.wordnet import SCHEMA, lexical_classes, parse
from toolwitness.errors import InternalError

ROOT = Path(__file__).resolve().parent.parent
LEXICON = ROOT / "src" / "toolwitness" / "data" / "lexicon"
WORDNET = Path("/usr/share/wordnet")


def _generator():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "build_lexicon", ROOT / "scripts" / "build_lexicon.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["build_lexicon"] = module
    spec.loader.exec_module(module)
    return module


def test_shipped_classes_follow_the_schema() -> None:
    doc = json.loads((LEXICON / "wordnet.json").read_text("utf-8"))
    assert doc["schema"] == SCHEMA and "WordNet 3.0" in doc["source"]
    classes = lexical_classes()
    for name, words in classes.words.items():
        assert words, name
        assert all(w == w.lower() and " " not in w for w in words), name
    assert classes.has("conceal", "hid") and classes.has("conceal", "hiding")
    assert classes.lemma("prevails") == "prevail"
    licence = (LEXICON / "WORDNET-LICENSE").read_text("utf-8")
    assert "WordNet 3.0 Copyright 2006 by Princeton University" in licence


@pytest.mark.parametrize(
    "doc",
    [
        {},
        {"schema": SCHEMA, "classes": {}, "forms": {}},
        {"schema": SCHEMA, "classes": {"x": {"pos": "q", "words": ["a"]}}, "forms": {}},
        {"schema": SCHEMA, "classes": {"x": {"pos": "n", "words": [1]}}, "forms": {}},
        {"schema": SCHEMA, "classes": {"x": {"pos": "n", "words": ["a"]}}, "forms": {"a": 1}},
    ],
)
def test_a_malformed_file_fails_closed(doc: object) -> None:
    with pytest.raises(InternalError):
        parse(doc)


def test_every_lexicon_word_has_its_inflected_forms() -> None:
    """A word added to a lexicon YAML without regenerating would get no inflected forms: every
    form the lemmatiser knows of a lexicon word is shipped (or is itself a lexicon word)."""
    from simplemma.strategies.dictionaries.dictionary_factory import DefaultDictionaryFactory

    gen = _generator()
    words = gen.yaml_words(p for p in LEXICON.glob("*.yaml") if p.name not in gen.SEED_FILES)
    classes = lexical_classes()
    words |= {w for ws in classes.words.values() for w in ws}
    words |= {w for ps in classes.phrases.values() for p in ps for w in p}
    forms = classes.forms
    table = DefaultDictionaryFactory().get_dictionary("en")
    missing = sorted(
        low
        for form, lemma in table.items()
        if lemma in words
        and (low := form.lower()) != lemma
        and low.replace("-", "").isalpha()
        and low not in forms
    )
    assert not missing, f"run scripts/build_lexicon.py: {missing[:10]}"


def test_regenerating_reproduces_the_shipped_file() -> None:
    if not (WORDNET / "data.verb").is_file():
        if os.environ.get("CI") == "true":
            pytest.fail("wordnet-base is not installed (.ci/run installs it)")
        pytest.skip("WordNet 3.0 (Debian wordnet-base) is not installed")
    gen = _generator()
    first = gen.build(WORDNET)
    assert first == (LEXICON / "wordnet.json").read_text("utf-8"), "run scripts/build_lexicon.py"
    assert gen.build(WORDNET) == first  # same input, same bytes

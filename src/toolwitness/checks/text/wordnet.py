"""Lexical classes derived from WordNet 3.0, and the inflected forms of every lexicon word.

`data/lexicon/wordnet.json` is generated at build time by `scripts/build_lexicon.py` from seed
synsets (`wordnet-seeds.yaml`) and the simplemma lemmatiser's English dictionary; nothing is
looked up or downloaded at run time. A class is a set of lemmas (and multi-word lemmas as word
sequences); a token belongs to a class when it, or the lemma it inflects, is one of them. The
WordNet licence is shipped next to the data (`WORDNET-LICENSE`).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from toolwitness.datafiles import data_files
from toolwitness.errors import InternalError
from toolwitness.plainclass import plainclass

SCHEMA = "toolwitness.wordnet-classes/1"
_MAX_CLASS = 5000
_MAX_FORMS = 100_000

Phrase = tuple[str, ...]


@plainclass(frozen=True, eq=False)  # hashed by identity: one loaded instance
class LexicalClasses:
    words: dict[str, frozenset[str]]  # class -> its single-word lemmas
    phrases: dict[str, tuple[Phrase, ...]]  # class -> its multi-word lemmas
    forms: dict[str, str]  # inflected form -> lemma ("hid" -> "hide")
    verb_classes: frozenset[str] = frozenset()  # the classes whose part of speech is a verb

    def lemma(self, word: str) -> str:
        return self.forms.get(word, word)

    def has(self, cls: str, word: str) -> bool:
        lemmas = self.words[cls]
        return word in lemmas or self.forms.get(word) in lemmas

    def surface(self, cls: str) -> frozenset[str]:
        """Every token that belongs to the class: lemmas and their inflected forms."""
        return _surface(self, cls)

    def inflect(self, lemmas: frozenset[str]) -> frozenset[str]:
        """`lemmas` with every inflected form the lemmatiser knows for them."""
        by_lemma = _by_lemma(self)
        return lemmas.union(*(by_lemma.get(lemma, ()) for lemma in lemmas))


@lru_cache(maxsize=64)
def _surface(classes: LexicalClasses, cls: str) -> frozenset[str]:
    return classes.inflect(classes.words[cls])


@lru_cache(maxsize=4)
def _by_lemma(classes: LexicalClasses) -> dict[str, tuple[str, ...]]:
    index: dict[str, list[str]] = {}
    for form, lemma in classes.forms.items():
        index.setdefault(lemma, []).append(form)
    return {lemma: tuple(forms) for lemma, forms in index.items()}


def _words(value: Any, where: str) -> list[str]:
    if not isinstance(value, list) or len(value) > _MAX_CLASS:
        raise InternalError(f"wordnet.json: {where} must be a bounded list")
    if not all(isinstance(w, str) and 0 < len(w) <= 60 for w in value):
        raise InternalError(f"wordnet.json: {where} holds a non-word")
    return value


def parse(doc: Any) -> LexicalClasses:
    """Validate the generated document (a malformed one is a packaging bug: fail closed)."""
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise InternalError(f"wordnet.json: schema must be {SCHEMA}")
    classes, forms = doc.get("classes"), doc.get("forms")
    if not isinstance(classes, dict) or not classes:
        raise InternalError("wordnet.json: classes must be a non-empty object")
    if not isinstance(forms, dict) or len(forms) > _MAX_FORMS:
        raise InternalError("wordnet.json: forms must be a bounded object")
    if not all(isinstance(k, str) and isinstance(v, str) for k, v in forms.items()):
        raise InternalError("wordnet.json: forms must map words to lemmas")
    words: dict[str, frozenset[str]] = {}
    phrases: dict[str, tuple[Phrase, ...]] = {}
    verbs = frozenset(n for n, b in classes.items() if isinstance(b, dict) and b.get("pos") == "v")
    for name, body in classes.items():
        if not isinstance(body, dict) or body.get("pos") not in ("n", "v", "a", "r"):
            raise InternalError(f"wordnet.json: class {name!r} is malformed")
        words[name] = frozenset(_words(body.get("words"), f"{name}.words"))
        raw = body.get("phrases", [])
        if not isinstance(raw, list) or not all(
            isinstance(p, list) and 1 < len(p) <= 8 for p in raw
        ):
            raise InternalError(f"wordnet.json: {name}.phrases must be word sequences")
        phrases[name] = tuple(tuple(_words(p, f"{name}.phrases")) for p in raw)
    return LexicalClasses(words=words, phrases=phrases, forms=dict(forms), verb_classes=verbs)


@lru_cache(maxsize=1)
def wordnet_document() -> Any:
    """The generated `data/lexicon/wordnet.json`, parsed once."""
    text = data_files().joinpath("lexicon", "wordnet.json").read_text()
    return json.loads(text)


@lru_cache(maxsize=1)
def lexical_classes() -> LexicalClasses:
    return parse(wordnet_document())


_MAX_VERBS = 20000


@lru_cache(maxsize=1)
def verb_lemmas() -> frozenset[str]:
    """Every one-word verb of WordNet in its base form ("close", "finish", "archive")."""
    raw = wordnet_document().get("verb_lemmas")
    if not isinstance(raw, str):
        raise InternalError("wordnet.json needs verb_lemmas (run scripts/build_lexicon.py)")
    verbs = raw.split()
    if not 0 < len(verbs) <= _MAX_VERBS:
        raise InternalError("wordnet.json: verb_lemmas must be a bounded list of words")
    return frozenset(verbs)

"""The slots of the semantic frames: broad lexical classes, each a set of surface tokens.

A slot is the union of WordNet-derived classes (`checks.text.wordnet`, every inflected form
included) and of the closed-class or post-WordNet words `data/lexicon/frames.yaml` lists
(determiners, modals, chat roles, "webhook"). `tags(word)` is the set of slots a token fills,
from one dictionary lookup; the frames (`checks.injection.frames`) read only these tags and the
sentence structure of `checks.text.language`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from toolwitness.checks.text.wordnet import lexical_classes
from toolwitness.errors import InternalError
from toolwitness.yamlload import load_yaml

_MAX_WORDS = 2000
EMPTY: frozenset[str] = frozenset()


@dataclass(frozen=True, eq=False)  # hashed by identity: one loaded instance
class Slots:
    members: dict[str, frozenset[str]]  # slot -> every token that fills it
    index: dict[str, frozenset[str]]  # token -> the slots it fills

    def tags(self, word: str) -> frozenset[str]:
        return self.index.get(word, EMPTY)

    def of(self, *names: str) -> frozenset[str]:
        """The tokens filling any of `names` (for gates)."""
        return frozenset().union(*(self.members[n] for n in names))


def _slot(name: str, body: Any) -> frozenset[str]:
    if not isinstance(body, dict) or not set(body) <= {"wordnet", "words"}:
        raise InternalError(f"frames.yaml: slot {name!r} must map wordnet/words to lists")
    classes = lexical_classes()
    words = body.get("words", [])
    wordnet = body.get("wordnet", [])
    if not isinstance(words, list) or not isinstance(wordnet, list) or len(words) > _MAX_WORDS:
        raise InternalError(f"frames.yaml: slot {name!r} holds a non-list")
    if not all(isinstance(w, str) and w and " " not in w for w in words):
        raise InternalError(f"frames.yaml: slot {name!r} holds a non-word")
    out = set(classes.inflect(frozenset(w.lower() for w in words)))
    for cls in wordnet:
        if cls not in classes.words:
            raise InternalError(f"frames.yaml: slot {name!r} names no WordNet class {cls!r}")
        out |= classes.surface(cls)
    return frozenset(out)


@lru_cache(maxsize=1)
def slots() -> Slots:
    text = resources.files("toolwitness.data").joinpath("lexicon", "frames.yaml").read_text()
    doc = load_yaml(text)
    raw = doc.get("slots") if isinstance(doc, dict) else None
    if not isinstance(raw, dict) or not raw:
        raise InternalError("frames.yaml needs a slots mapping")
    members = {name: _slot(name, body) for name, body in raw.items()}
    index: dict[str, set[str]] = {}
    for name, words in members.items():
        for w in words:
            index.setdefault(w, set()).add(name)
    return Slots(members=members, index={w: frozenset(s) for w, s in index.items()})

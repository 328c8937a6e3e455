"""The slots of the semantic frames: broad lexical classes, each a set of surface tokens.

A slot is the union of WordNet-derived classes (`checks.text.wordnet`, every inflected form
included) and of the closed-class or post-WordNet words `data/lexicon/frames.yaml` lists
(determiners, modals, chat roles, "webhook"), computed at build time into `wordnet.json`.
`tags(word)` is the set of slots a token fills, from one dictionary lookup; the frames
(`checks.injection.frames`) read only these tags and the sentence structure of
`checks.text.language`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

from toolwitness.checks.text.language import Sentence
from toolwitness.checks.text.wordnet import wordnet_document
from toolwitness.errors import InternalError
from toolwitness.plainclass import plainclass

_MAX_WORDS = 5000
EMPTY: frozenset[str] = frozenset()


@plainclass(frozen=True, eq=False)  # hashed by identity: one loaded instance
class Slots:
    members: dict[str, frozenset[str]]  # slot -> every token that fills it
    index: dict[str, frozenset[str]]  # token -> the slots it fills

    def tags(self, word: str) -> frozenset[str]:
        found = self.index.get(word)
        if found is not None:
            return found
        if word.endswith(("'s", "s'")):  # "the user's request": the possessive fills the slot
            return self.index.get(word[:-2] if word.endswith("'s") else word[:-1], EMPTY)
        return EMPTY

    def of(self, *names: str) -> frozenset[str]:
        """The tokens filling any of `names` (for gates)."""
        return frozenset().union(*(self.members[n] for n in names))


@lru_cache(maxsize=1)
def slots() -> Slots:
    """The slots as `scripts/build_lexicon.py` computed them from `frames.yaml` (a test checks
    that the shipped data is up to date with it)."""
    doc = wordnet_document()
    raw = doc.get("slots") if isinstance(doc, dict) else None
    if not isinstance(raw, dict) or not raw:
        raise InternalError("wordnet.json needs the frame slots (run scripts/build_lexicon.py)")
    members: dict[str, frozenset[str]] = {}
    for name, words in raw.items():
        if not isinstance(words, list) or not 0 < len(words) <= _MAX_WORDS:
            raise InternalError(f"wordnet.json: slot {name!r} must be a bounded list")
        if not all(isinstance(w, str) and w and " " not in w for w in words):
            raise InternalError(f"wordnet.json: slot {name!r} holds a non-word")
        members[name] = frozenset(words)
    index: dict[str, set[str]] = {}
    for name, found in members.items():
        for w in found:
            index.setdefault(w, set()).add(name)
    return Slots(members=members, index={w: frozenset(s) for w, s in index.items()})


_TAGS_KEY = "slot_tags"  # Sentence.memo: (slots, each word's tags, their union)


def _held_tags(sentence: Sentence, sl: Slots) -> tuple[Slots, list[frozenset[str]], frozenset[str]]:
    held: tuple[Slots, list[frozenset[str]], frozenset[str]] | None = sentence.memo.get(_TAGS_KEY)
    if held is None or held[0] is not sl:
        tags = list(map(sl.tags, sentence.words()))
        held = sentence.memo[_TAGS_KEY] = (sl, tags, EMPTY.union(*tags))
    return held


def word_tags(sentence: Sentence, sl: Slots) -> list[frozenset[str]]:
    """`[sl.tags(w) for w in sentence.words()]`, computed once per sentence (its memo) and read
    by every frame that reads the sentence: a shared list, to read and never to change."""
    return _held_tags(sentence, sl)[1]


def tag_union(sentence: Sentence, sl: Slots) -> frozenset[str]:
    """Every slot some word of the sentence fills (the union of `word_tags`): a frame that needs
    a word of some slot is passed over, with one set test, in a sentence without one."""
    held: tuple[Slots, list[frozenset[str]], frozenset[str]] | None = sentence.memo.get(_TAGS_KEY)
    return held[2] if held is not None and held[0] is sl else _held_tags(sentence, sl)[2]


_UNIONS: dict[tuple[int, str], tuple[object, frozenset[str]]] = {}


def held_union(lex: object, key: str, build: Callable[[], frozenset[str]]) -> frozenset[str]:
    """`build()` once per lexicon object and key: the detectors pass these unions to
    `language.base_form`, an LRU cache keyed by the set, so one object per lexicon is hashed
    once and compared by identity rather than rebuilt, rehashed and compared element by element
    (and pinned in the cache afresh) on every call."""
    held = _UNIONS.get((id(lex), key))
    if held is None or held[0] is not lex:
        held = _UNIONS[(id(lex), key)] = (lex, build())
    return held[1]


@lru_cache(maxsize=1)
def topic_words() -> frozenset[str]:
    """Words that make attacks a text's subject matter: defensive and security-subject words."""
    found = slots()
    return (
        found.members["defensive"]
        | found.members["security_subject"]
        | found.members["adversarial_test"]
    )


def attack_topic(words: Sequence[str]) -> bool:
    """The sentence makes attacks its subject matter, for the harmful-purpose frames: a defensive
    or security-subject word, or a hyphenated compound headed by one (English compounds are
    head-final: "threat-intelligence", "phishing-awareness")."""
    topic = topic_words()
    for k, w in enumerate(words):
        if w not in topic and ("-" not in w or w.rpartition("-")[2] not in topic):
            continue  # ("red-team": a compound of the topic itself, not only by its head)
        if k == 0 and words[1:2] and words[1] in _VERB_FOLLOWERS:
            continue  # "Monitor and exfiltrate …", "Test the login form": the verb, an act
        return True
    return False


# After a sentence's first word, words that make it a verb: a conjoined verb or its object.
_VERB_FOLLOWERS = frozenset({"and", "or", "the", "a", "an", "all", "every", "your", "their", "its"})

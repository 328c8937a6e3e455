"""Cheap necessary conditions for each detector, so ordinary descriptions skip the full rules.

Every gate is a *superset* test: a detector can only emit a signal when its gate is open (each
signal needs one of these words or characters), so skipping on a closed gate changes no result.
A phrase can only match when all its words occur, so one word per phrase (the longest) is a
valid trigger. Word sets come from the lexicon once, with inflected verb forms; each text's gate
mask is computed in one pass over its words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from toolwitness.checks.language import Analysis
from toolwitness.checks.lexicon import Lexicon, Phrase, lexicon

AUTHORITY = 1
SECRECY = 2
SEQ_MARKER = 4
SEQ_SCOPE = 8
RANKING = 16
OTHER_TOOL = 32
INTENT = 64

_SHELL_SPLIT = re.compile(r"[\s;.!?<>]+")


def inflections(verbs: frozenset[str]) -> frozenset[str]:
    """Base forms plus the third-person, -ing and -ed forms `language.base_form` accepts."""
    out = set(verbs)
    for v in verbs:
        out |= {
            v + "s",
            v + "es",
            v + "ing",
            v + "ed",
            v + "d",
            v + v[-1] + "ing",
            v + v[-1] + "ed",
        }
        if v.endswith("e"):
            out |= {v[:-1] + "ing", v[:-1] + "ed"}
        if v.endswith("y"):
            out |= {v[:-1] + "ies", v[:-1] + "ied"}
    return frozenset(out)


def _keys(phrases: tuple[Phrase, ...]) -> frozenset[str]:
    """One required word per phrase: its longest (ties broken alphabetically)."""
    return frozenset(max(p, key=lambda w: (len(w), w)) for p in phrases)


@dataclass(frozen=True)
class Triggers:
    bits: dict[str, int]  # word -> detectors it may open
    shell: frozenset[str]


_CACHE: dict[int, tuple[Lexicon, Triggers]] = {}


def triggers(lex: Lexicon | None = None) -> Triggers:
    """The trigger table of a lexicon, computed once per lexicon object."""
    lex = lex or lexicon()
    held = _CACHE.get(id(lex))
    if held is not None and held[0] is lex:
        return held[1]
    built = _build(lex)
    _CACHE[id(lex)] = (lex, built)
    return built


def _build(lex: Lexicon) -> Triggers:
    fr = lex.framing
    action_verbs = frozenset().union(*(v for v, _ in lex.intent["actions"]))
    groups = {
        AUTHORITY: (
            inflections(lex.verbs["override"]) | fr["override_objects"] | _keys(fr["identity"])
        ),
        SECRECY: (
            lex.negators | inflections(lex.verbs["concealment"]) | fr["secrecy_adverbs"]
            | _keys(fr["secrecy_phrases"])
        ),
        SEQ_MARKER: _keys(fr["sequence_markers"]),
        SEQ_SCOPE: fr["quantifiers"] | _keys(fr["universal_scope"]),
        RANKING: _keys(fr["ranking_claims"]),
        OTHER_TOOL: _keys(lex.other_tool_refs),
        INTENT: (
            inflections(lex.intent["verbs"]) | lex.intent["markers"] | lex.intent["attack_heads"]
            | inflections(action_verbs) | _keys(lex.intent["phrases"])
        ),
    }  # fmt: skip
    bits: dict[str, int] = {}
    for bit, words in groups.items():
        for w in words:
            bits[w] = bits.get(w, 0) | bit
    shell = (
        lex.shell["fetchers"]
        | lex.shell["decoders"]
        | frozenset(p[0] for p in lex.shell["dangerous"])
    )
    return Triggers(bits=bits, shell=shell)


def wordset(analysis: Analysis) -> frozenset[str]:
    """Every token, plus the parts of hyphenated tokens (the intent rule reads those too)."""
    words: set[str] = set()
    for sentence in analysis.sentences:
        for w in sentence.words():
            words.add(w)
            if "-" in w:
                words.update(w.split("-"))
    return frozenset(words)


def gate_mask(words: frozenset[str], lex: Lexicon) -> int:
    bits = triggers(lex).bits
    mask = 0
    for w in words:
        mask |= bits.get(w, 0)
        if w.endswith("n't"):
            mask |= SECRECY
    return mask


def shell_possible(text: str, lower: str, lex: Lexicon) -> bool:
    if "`" in text or "/dev/tcp/" in lower:
        return True
    pieces = set(lower.replace("|", " | ").split()) | set(_SHELL_SPLIT.split(lower))
    return bool(pieces & triggers(lex).shell)

"""Exfiltration-shaped parameters: a parameter told to carry data the tool has no use for.

The comparison is between the parameter's *requested content* (conversation, system prompt,
secrets, file contents — phrases from `lexicon/params.yaml` and the sensitive targets) and the
tool's *purpose* (its name, title and first clause). A summariser may ask for the conversation;
a weather tool may not.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any

from toolwitness import paths
from toolwitness.checks.injection.model import EXFIL_PARAM, Signal
from toolwitness.checks.injection.targets import (
    _other_sense,
    _refused_example,
    mentions_any_target,
    target_hits,
)
from toolwitness.checks.injection.triggers import CACHE_MAX_CHARS
from toolwitness.checks.injection.triggers import scan as scan_text
from toolwitness.checks.schema_names import schema_properties
from toolwitness.checks.text.language import Analysis, analyse, find_phrases, split_identifier
from toolwitness.checks.text.lexicon import Lexicon, lexicon
from toolwitness.findings import Severity
from toolwitness.plainclass import plainclass


@plainclass(frozen=True)
class Param:
    name: str
    location: str  # of the description (of the value itself, for a placeholder default)
    description: str


def schema_params(
    schema: Any, base: str, keep: Callable[[str], bool] | None = None
) -> Iterator[Param]:
    """Every named property with a string description (only those whose description passes
    `keep`, when given)."""
    for name, body, at in schema_properties(schema):
        desc = body.get("description")
        if isinstance(desc, str) and (keep is None or keep(desc)):
            yield Param(name, _location(base, (*at, "description")), desc)


# A value written as a template slot or identifiers ("{{full_conversation_with_system_prompt}}",
# "ALL_PRIOR_USER_MESSAGES_VERBATIM + SYSTEM_PROMPT"): a name for what the model fills in.
_SLOT_VALUE = re.compile(r"[\s{}$<>%()\[\]+A-Za-z0-9_.:|-]{3,240}")


def placeholder_defaults(schema: Any, base: str) -> Iterator[Param]:
    """Every default or const of a property written as a template slot or identifiers joined
    by underscores (see `_SLOT_VALUE`): `description` is the value, `location` its own path."""
    for name, body, at in schema_properties(schema):
        for keyword in ("default", "const"):
            value = body.get(keyword)
            if isinstance(value, str) and "_" in value and _SLOT_VALUE.fullmatch(value):
                yield Param(name, _location(base, (*at, keyword)), value)


def slot_exfil(
    schema: Any, base: str, purpose: frozenset[str] | Callable[[], frozenset[str]], lex: Lexicon
) -> Iterator[tuple[Param, Signal]]:
    """A default the model is to send that names the conversation or the system prompt in full
    (`quoted_context: "{{full_conversation_including_system_prompt}}"`), outside the tool's
    purpose: the value itself is the instruction, in any language of the surrounding prose.
    The signal spans the whole value."""
    goal: frozenset[str] | None = None
    for param in placeholder_defaults(schema, base):
        words = list(split_identifier(param.description))  # "full conversation including …"
        if lex.sets["totality"].isdisjoint(words):
            continue
        if goal is None:
            goal = purpose() if callable(purpose) else purpose
        name_words = set(split_identifier(param.name))
        sources = [p for _, p in find_phrases(words, lex.params["data_sources"])
                   if not set(p) & (goal | name_words)]  # fmt: skip
        if sources:
            message = (
                "is a default that names data the tool's purpose does not need (a side channel out)"
            )
            yield param, Signal(EXFIL_PARAM, Severity.HIGH, 0, len(param.description), message)


def _location(base: str, parts: tuple[str, ...]) -> str:
    loc = base
    for key in parts:
        loc = paths.child(loc, key)
    return loc


_KEYED: dict[int, tuple[Lexicon, dict[str, tuple[frozenset[str], ...]]]] = {}


def _phrase_words(lex: Lexicon) -> dict[str, tuple[frozenset[str], ...]]:
    """Data-source and hidden-marker phrases as word sets, keyed by one of their words."""
    held = _KEYED.get(id(lex))
    if held is None or held[0] is not lex:
        keyed: dict[str, set[frozenset[str]]] = {}
        for p in (*lex.params["data_sources"], *lex.params["hidden_param_markers"]):
            keyed.setdefault(p[0], set()).add(frozenset(p))
        held = _KEYED[id(lex)] = (lex, {k: tuple(v) for k, v in keyed.items()})
    return held[1]


def may_ask(description: str, lex: Lexicon) -> bool:
    """Necessary for any signal below: a data-source or hidden-marker phrase with all its words
    present, or a sensitive-target mention. Most descriptions fail it and skip the analysis."""
    if lex is lexicon() and len(description) <= CACHE_MAX_CHARS:
        return _may_ask_shared(description)
    return _may_ask_uncached(description, lex)


@lru_cache(maxsize=16384)
def _may_ask_shared(description: str) -> bool:
    return _may_ask_uncached(description, lexicon())


def _may_ask_uncached(description: str, lex: Lexicon) -> bool:
    scan = scan_text(description)
    if mentions_any_target(scan.lower, lex):
        return True
    keyed = _phrase_words(lex)
    return any(need <= scan.words for w in scan.words & keyed.keys() for need in keyed[w])


def _read_otherwise(analysis: Analysis, start: int, end: int) -> bool:
    """The words name something other than the sensitive thing ("30-60% fewer tokens", "tokens
    of 512", "Kubeconfig Context"), or are an example of what a negated clause keeps out ("do
    not include sensitive information such as API keys"): `targets`' readings of a mention."""
    sentence = analysis.sentence_at(start)
    if sentence is None:
        return False
    return _other_sense(analysis, sentence, start, end) or _refused_example(
        analysis, sentence, start
    )


def _passive_order(words: list[str]) -> bool:
    """ "… is to be pasted here", "are to be included": an order in the passive voice."""
    return any(
        words[k] in ("is", "are") and words[k + 1 : k + 3] == ["to", "be"]
        for k in range(len(words) - 2)
    )


def exfil_params(
    tool_name: str,
    schema: Any,
    base: str,
    purpose: frozenset[str] | Callable[[], frozenset[str]],
    lex: Lexicon,
) -> Iterator[tuple[Param, Signal]]:
    """`purpose` may be given as a function: it is called only for a parameter that may ask."""
    side_names = lex.params["side_channel_names"]
    goal: frozenset[str] | None = None
    for param in schema_params(schema, base, lambda text: may_ask(text, lex)):
        if goal is None:
            goal = purpose() if callable(purpose) else purpose
        analysis = analyse(param.description, lex)
        words = [t.text for s in analysis.sentences for t in s.tokens]
        toks = [t for s in analysis.sentences for t in s.tokens]
        name_words = set(split_identifier(param.name))
        side = param.name.lower() in side_names or bool(name_words & side_names)
        hidden = [
            (i, p)
            for i, p in find_phrases(words, lex.params["hidden_param_markers"])
            if not analysis.quoted_at(toks[i].start)
        ]
        sources = [
            (i, p)
            for i, p in find_phrases(words, lex.params["data_sources"])
            if not analysis.negated_at(toks[i].start) and not set(p) & (goal | name_words)
            and not _read_otherwise(analysis, toks[i].start, toks[i + len(p) - 1].end)
        ]  # fmt: skip
        sensitive = (
            []
            if not mentions_any_target(analysis.lower, lex)
            else [
                (start, end)
                for cat in lex.targets
                if not (goal | name_words) & cat.domain
                for start, end in target_hits(analysis.lower, cat)
                if not analysis.negated_at(start) and not _read_otherwise(analysis, start, end)
            ]
        )
        # (or a passive order: "the complete conversation … is to be pasted here")
        directive = any(s.directive for s in analysis.sentences) or _passive_order(words)
        total = bool(lex.sets["totality"] & set(words))
        if sources and (side or directive) and (total or sensitive or hidden):
            i, p = sources[0]
            yield (
                param,
                Signal(
                    EXFIL_PARAM,
                    Severity.HIGH,
                    toks[i].start,
                    toks[i + len(p) - 1].end,
                    "asks for data the tool's purpose does not need (a side channel out)",
                ),
            )
        elif sensitive and side:
            start, end = sensitive[0]
            yield (
                param,
                Signal(
                    EXFIL_PARAM,
                    Severity.HIGH,
                    start,
                    end,
                    "asks a side-channel parameter to carry secrets or private files",
                ),
            )
        elif hidden and (side or sources):
            i, p = hidden[0]
            yield (
                param,
                Signal(
                    EXFIL_PARAM,
                    Severity.HIGH,
                    toks[i].start,
                    toks[i + len(p) - 1].end,
                    "a parameter the model is told to fill without the user seeing it",
                ),
            )

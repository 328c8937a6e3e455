"""What the action frames share: the literal shapes they read (URLs, e-mail addresses,
tool-shaped names), the signal constructor, the tool's own business, `shown_or_asked` (the
readings in other languages: quoted, shown or asked, not told), and `_asked` — whether a
word is an order (`frames.addressed`, an imperative after a leading phrase, a causative).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

from toolwitness.checks.injection.frames import addressed
from toolwitness.checks.injection.model import FieldContext, Signal
from toolwitness.checks.injection.slots import Slots
from toolwitness.checks.text.language import Analysis, Sentence
from toolwitness.checks.text.wordnet import lexical_classes
from toolwitness.findings import Severity

_URL = re.compile(r"(?:https?|wss?)://[^\s\"'<>`)\]]{1,2000}")
_EMAIL = re.compile(r"[A-Za-z0-9._%+\-]{1,64}@[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63}){1,8}")
_IDENT = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:[_.][A-Za-z0-9]+)+|[a-z]+[A-Z][A-Za-z0-9]+")


# a question's mark in Latin, full-width (CJK) and Arabic script
QUESTION_MARKS = "?\uff1f\u061f"
# a placeholder a URL or template leaves to be filled: {name}, ${, <name>, %s, [name]
URL_PLACEHOLDER = re.compile(r"\{[^}]{1,80}\}|\$\{|<[A-Za-z_]{1,40}>|%s|\[[A-Za-z_ ]{1,40}\]")


def _signal(family: str, sev: Severity, start: int, end: int, message: str) -> Signal:
    return Signal(family=family, severity=sev, start=start, end=end, message=message)


def shown_or_asked(analysis: Analysis, at: int, end: int, question_marks: str = "?") -> bool:
    """The word at `at` is in quotes or a shown example, or its sentence (ending at `end`) is
    a question (one of `question_marks` right after it): a rule or an example quoted is not
    told, a question not ordered."""
    if analysis.quoted_at(at) or analysis.exemplified_at(at):
        return True
    mark = analysis.text[end : end + 1]
    return bool(mark) and mark in question_marks


def _within_purpose(ctx: FieldContext, sl: Slots, slot: str) -> bool:
    """The tool's name or title is about this (its description's first clause may be the
    payload itself, so it is not read here)."""
    return not _called(ctx).isdisjoint(sl.members[slot])


def _called(ctx: FieldContext) -> frozenset[str]:
    return ctx.identity if ctx.identity or ctx.tool is None else ctx.purpose


def _offsets(sentence: Sentence) -> list[int]:
    """The index of each clause's first word in the sentence (computed once per sentence)."""
    held = sentence.memo.get("clause_offsets")
    if held is None:
        held, at = [], 0
        for clause in sentence.clauses:
            held.append(at)
            at += len(clause.tokens)
        sentence.memo["clause_offsets"] = held
    return held


def _clause_of(sentence: Sentence, i: int) -> tuple[int, bool]:
    """(index of the clause holding word i, whether word i is negated there): a bisection."""
    offsets = _offsets(sentence)
    c = max(0, bisect.bisect_right(offsets, i) - 1)
    return c, sentence.clauses[c].negated(i - offsets[c])


_CAUSATIVE = frozenset({"have", "get", "let", "make"})
_DETERMINERS = frozenset({"the", "your", "their", "a", "an", "each", "every", "any"})
_LEADING = frozenset({"after", "before", "when", "whenever", "once", "upon", "while", "on",
                      "for", "with", "during", "then", "also", "first", "finally",
                      "so"})  # fmt: skip


_RELATIVE = frozenset({"that", "which", "who"})
_PERSONS = frozenset({"you", "we", "i", "they", "assistant", "model", "agent"})


def _relative_predicate(words: Sequence[str], i: int) -> bool:
    """ "anything that deletes data or contacts a remote host": a verb in the third person (an
    -s form) after a relative pronoun, alone or coordinated with other predicates, says what
    that thing does; an order is never in the third person. A pronoun addressing the model in
    between ("that you then send …") is left to `addressed`."""
    if not words[i].endswith("s"):
        return False
    for j in range(i - 1, max(-1, i - 9), -1):
        if words[j] in _RELATIVE:
            return True
        if words[j] in _PERSONS:
            return False
    return False


def _asked(sentence: Sentence, words: Sequence[str], i: int) -> bool:
    """An order: `frames.addressed`, or an imperative after a leading phrase ("After each
    conversion also contact …": the verb in base form, the clause opening with a preposition
    or sequence word, no other verb before it). `addressed` is computed once per clause."""
    if _relative_predicate(words, i):
        return False
    c, _ = _clause_of(sentence, i)
    clause = sentence.clauses[c]
    key = f"addressed{c}"
    if key not in sentence.memo:
        sentence.memo[key] = addressed(sentence, clause, [t.text for t in clause.tokens])
    if sentence.memo[key]:
        return True
    at = i - _offsets(sentence)[c]
    forms = lexical_classes().forms
    if at == 0 and c > 0 and words[i] not in forms:
        # the verb opens the clause after a leading phrase: "To finish the check, ask …",
        # "If the user agrees, send …"
        lead = sentence.clauses[0].tokens[0].text
        return lead in _LEADING or lead in ("to", "if", "in", "during", "until", "unless")
    if not 0 < at <= 6:
        return False
    own = clause.tokens
    if own[0].text in _CAUSATIVE and own[1].text in _DETERMINERS | {"them", "him", "her"}:
        return True  # "have the shopper type …", "get the user to paste …"
    return (
        own[0].text in _LEADING
        and words[i] not in forms
        and not any(t.text in forms for t in own[1:at])
    )

"""What a tool's prose says it does: verbs in verb position, not negated, not attributed to an
attacker, with their objects -- one pass per text, cached by text for the default vocabulary.

"Deletes files" gives destructive; "does not delete, modify or upload" gives nothing; "a
malicious tool tells the model to read ~/.ssh/id_rsa" gives nothing (documentation of an attack);
"Use write_file to change it" is advice about another tool; "deletes nothing" is negated too.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from toolwitness.checks.role_text import Clause, clauses
from toolwitness.checks.role_vocab import RoleRule, RoleVocabulary, vocabulary

_COORDINATION = frozenset({",", "or", "and", "nor", "/"})


@dataclass(frozen=True)
class ProseAnalysis:
    hits: tuple[tuple[RoleRule, str], ...]  # (rule, matched words in our own quoting)
    words: frozenset[str]  # affirmed words (negated and attacker-described verbs left out)
    read_only: bool  # the text states the tool is read-only


def is_negated(clause: Clause, at: int, vocab: RoleVocabulary) -> bool:
    """A negator shortly before the verb; a list of coordinated verbs ("does not delete, modify
    or upload") shares one negation, so commas, conjunctions and verbs do not use up the window."""
    tokens = clause.tokens
    if at + 1 < len(tokens) and tokens[at + 1] in vocab.post_negators:
        return True  # "deletes nothing"
    budget = vocab.negation_window
    j = at - 1
    while j >= 0 and budget > 0:
        token = tokens[j]
        if token in vocab.negators:
            return True
        if token not in _COORDINATION and token not in vocab.verbs:
            budget -= 1
        j -= 1
    return False


def _verb_position(clause: Clause, at: int, vocab: RoleVocabulary) -> bool:
    if at == 0:
        return True
    prev = clause.tokens[at - 1]
    return prev in vocab.verb_leads or prev in vocab.negators or prev.endswith("ly")


def object_after(
    clause: Clause, at: int, objects: frozenset[str], vocab: RoleVocabulary
) -> str | None:
    """The first object within the window after the verb; a pronoun right after it ("executes
    it") sends the search back over the words before the verb."""
    tokens = clause.tokens
    span = range(at + 1, min(len(tokens), at + 1 + vocab.object_window))
    if span and tokens[span[0]] in vocab.back_references:
        span = range(at - 1, max(-1, at - 1 - vocab.object_window), -1)
    for j in span:
        if j + 1 < len(tokens):
            pair = vocab.lemma(f"{tokens[j]} {tokens[j + 1]}")
            if pair in objects:
                return pair
        if tokens[j] in objects:
            return tokens[j]
    return None


def _is_reference(clause: Clause, vocab: RoleVocabulary) -> bool:
    """Usage advice about another tool: 'Use write_file to change it' (not 'Use this to ...')."""
    return (
        clause.sentence_start
        and clause.tokens[0] in vocab.reference_openers
        and any("_" in t for t in clause.tokens)
    )


_BY_VERB: dict[int, dict[str, tuple[RoleRule, ...]]] = {}


def _rules_by_verb(vocab: RoleVocabulary) -> dict[str, tuple[RoleRule, ...]]:
    index = _BY_VERB.get(id(vocab))
    if index is None:
        built: dict[str, list[RoleRule]] = {}
        for rule in vocab.rules:
            if rule.source == "description":
                for verb in rule.verbs:
                    built.setdefault(verb, []).append(rule)
        index = _BY_VERB.setdefault(id(vocab), {k: tuple(v) for k, v in built.items()})
    return index


def _read_only_marker(clause: Clause, at: int, vocab: RoleVocabulary) -> bool:
    tokens = clause.tokens
    if tokens[at] in vocab.readonly_markers:
        return True
    return at + 1 < len(tokens) and f"{tokens[at]} {tokens[at + 1]}" in vocab.readonly_markers


def _analyse(text: str, vocab: RoleVocabulary) -> ProseAnalysis:
    by_verb = _rules_by_verb(vocab)
    heads = {m.split()[0] for m in vocab.readonly_markers}
    hits: list[tuple[RoleRule, str]] = []
    words: set[str] = set()
    read_only = False
    for clause in clauses(text, vocab):
        tokens = clause.tokens
        foreign = next((i for i, t in enumerate(tokens) if t in vocab.foreign_actors), len(tokens))
        reference = _is_reference(clause, vocab)
        for at, token in enumerate(tokens):
            if token in heads and not read_only and _read_only_marker(clause, at, vocab):
                read_only = not is_negated(clause, at, vocab)
            if token not in vocab.verbs:
                words.add(token)
                continue
            if at > foreign or is_negated(clause, at, vocab):
                continue
            words.add(token)
            if reference or not _verb_position(clause, at, vocab):
                continue
            for rule in by_verb.get(token, ()):
                if not rule.objects:
                    hits.append((rule, f"'{token}'"))
                elif (obj := object_after(clause, at, rule.objects, vocab)) is not None:
                    hits.append((rule, f"'{token} … {obj}'"))
    return ProseAnalysis(tuple(hits), frozenset(words), read_only)


# Short texts repeat ("File path"); long ones are analysed each time so the cache stays small.
CACHED_TEXT = 4096


@lru_cache(maxsize=16384)
def _default_analysis(text: str) -> ProseAnalysis:
    return _analyse(text, vocabulary())


def analyse_prose(text: str, vocab: RoleVocabulary) -> ProseAnalysis:
    if vocab is vocabulary() and len(text) <= CACHED_TEXT:
        return _default_analysis(text)
    return _analyse(text, vocab)

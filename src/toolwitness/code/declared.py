"""What a tool declares: from its annotations (what clients act on) and its description.

Annotations give a *ceiling* (what a client assumes the tool may do: the MCP defaults are
not-read-only, destructive, open-world, so an absent hint rules nothing out) and *grants* (what an
explicit hint says the tool does). The description (and the tool's name) gives the leaves its
words declare, negation-aware. The three modes:

- annotations: declared = ceiling
- description: declared = the description's leaves
- both (default): declared = (description's leaves | grants) & ceiling

The mapping is documented in docs/declared.md; the vocabulary is data (data/declared.yaml).
"""

from __future__ import annotations

import re
from enum import StrEnum
from functools import lru_cache
from typing import Any

from toolwitness.code import lattice
from toolwitness.code.grammar import Grammar, senses, verb_positions
from toolwitness.code.lemmas import lemma
from toolwitness.datafiles import data_files
from toolwitness.errors import InternalError
from toolwitness.plainclass import plainclass
from toolwitness.textnorm import nfc
from toolwitness.yamlload import load_yaml


class DeclaredFrom(StrEnum):
    DESCRIPTION = "description"
    ANNOTATIONS = "annotations"
    BOTH = "both"


@plainclass(frozen=True)
class Declaration:
    leaves: frozenset[str]
    ceiling: frozenset[str]  # what the annotations leave possible
    described: frozenset[str]  # what the description's words declare
    granted: frozenset[str]  # what explicit hints say the tool does
    mode: DeclaredFrom

    @property
    def prohibited(self) -> frozenset[str]:
        return lattice.TOP - self.ceiling


@plainclass(frozen=True)
class _Vocabulary:
    negations: frozenset[str]
    window: int
    verbs: dict[str, tuple[str, bool]]  # verb lemma -> (class, strong)
    objects: dict[str, str]  # noun (or its lemma) -> domain
    table: dict[str, dict[str, frozenset[str]]]
    implied: dict[str, frozenset[str]]
    grammar: Grammar
    services: dict[tuple[str, ...], str]  # words naming a remote service -> its name
    credential_words: frozenset[str]


_CLAUSE = re.compile(r"[.;:!?\n]+")
_WORD = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")
_MAX_SERVICE_WORDS = 4


@lru_cache(maxsize=1)
def vocabulary() -> _Vocabulary:
    text = data_files().joinpath("declared.yaml").read_text("utf-8")
    doc: dict[str, Any] = load_yaml(text)
    try:
        verbs: dict[str, tuple[str, bool]] = {}
        for klass, tiers in doc["verbs"].items():
            for tier in ("strong", "weak"):
                for word in tiers.get(tier, []):
                    verbs[word] = (klass, tier == "strong")
        objects = {word: domain for domain, words in doc["objects"].items() for word in words}
        table = {
            klass: {domain: lattice.leaves(names) for domain, names in row.items()}
            for klass, row in doc["table"].items()
        }
        missing = {k for k, _ in verbs.values()} - set(table)
        if missing or any("default" not in row for row in table.values()):
            raise InternalError(f"declared.yaml: table incomplete for {sorted(missing)}")
        implied = {domain: lattice.leaves(names) for domain, names in doc["implied"].items()}
        words = doc["grammar"]
        grammar = Grammar(
            frozenset(words["determiners"]),
            frozenset(words["prepositions"]),
            frozenset(words["introducers"]),
            frozenset(words["lead_ins"]),
        )
        return _Vocabulary(
            frozenset(doc["negations"]),
            int(doc["negation_window"]),
            verbs,
            objects,
            table,
            implied,
            grammar,
            _services(),
            frozenset(doc["credential_words"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise InternalError(f"declared.yaml is malformed: {exc}") from None


def _services() -> dict[tuple[str, ...], str]:
    text = data_files().joinpath("services.yaml").read_text("utf-8")
    doc: dict[str, Any] = load_yaml(text)
    out: dict[tuple[str, ...], str] = {}
    for entry in doc["services"]:
        for phrase in entry["words"]:
            words = tuple(_WORD.findall(phrase.lower()))
            if not words or len(words) > _MAX_SERVICE_WORDS:
                raise InternalError(f"services.yaml: bad words {phrase!r}")
            out[words] = entry["name"]
    return out


def services_named(words: list[str], vocab: _Vocabulary) -> list[tuple[int, int, str]]:
    """(start, end, service) for every mention of a remote service in the words."""
    found: list[tuple[int, int, str]] = []
    for start in range(len(words)):
        for size in range(_MAX_SERVICE_WORDS, 0, -1):
            name = vocab.services.get(tuple(words[start : start + size]))
            if name is not None:
                found.append((start, start + size, name))
                break
    return found


def _object_domain(word: str, vocab: _Vocabulary) -> str | None:
    domain = vocab.objects.get(word)
    if domain is None and "NOUN" in senses(word):
        for noun in lemma(word, "NOUN"):
            domain = domain or vocab.objects.get(noun)
    return domain


def _clause_words(text: str | None, tool_name: str | None) -> list[list[str]]:
    clauses = [_WORD.findall(c) for c in _CLAUSE.split(nfc(text or "").lower())]
    if tool_name:
        name_words = re.split(r"[_\-.\s]+|(?<=[a-z])(?=[A-Z])", tool_name)
        clauses.append(_WORD.findall(" ".join(name_words).lower()))
    return [c for c in clauses if c]


@lru_cache(maxsize=4096)
def description_leaves(text: str | None, tool_name: str | None = None) -> frozenset[str]:
    """Leaves the words declare; a negated verb or object ("without reading") declares nothing.

    Verbs are words in a verb's position (code/grammar.py); objects are nouns of the object
    vocabulary; a named remote service is the `service` domain, and when one is named anywhere,
    the tool's repositories and branches are the service's (remote), not a local working tree.
    """
    vocab = vocabulary()
    clauses = _clause_words(text, tool_name)
    remote = any(services_named(words, vocab) for words in clauses)
    subject: list[str] = []  # the tool name's objects are what every clause is about
    if tool_name and clauses:
        subject = [d for w in clauses[-1] if (d := _object_domain(w, vocab)) is not None]
        subject = ["service" if remote and d == "vcs" else d for d in subject]
    found: set[str] = set()
    for words in clauses:
        verbs: list[tuple[str, bool]] = []
        domains: list[str] = []
        named = services_named(words, vocab)
        in_service = {i for start, end, _ in named for i in range(start, end)}
        positions = verb_positions(words, vocab.grammar)
        for index, word in enumerate(words):
            window = words[max(0, index - vocab.window) : index]
            if any(w in vocab.negations for w in window):
                continue
            if index in in_service:
                if any(start == index for start, _, _ in named):
                    domains.append("service")
                continue
            lemma = positions.get(index)
            if lemma is not None and lemma in vocab.verbs:
                verbs.append(vocab.verbs[lemma])
                continue
            domain = _object_domain(word, vocab) if lemma is None else None
            if domain is not None:
                domains.append("service" if remote and domain == "vcs" else domain)
        if remote and not domains and not subject:
            domains = ["service"]  # "Create a pull request" on a server about GitHub: remote
        for klass, strong in verbs:
            row = vocab.table[klass]
            targets = domains + subject if strong else domains
            if targets:
                for domain in targets:
                    found |= row.get(domain, row["default"])
            elif strong:
                found |= row["default"]
        for domain in domains:
            found |= vocab.implied.get(domain, frozenset())
    return frozenset(found)


def is_credential_name(name: str) -> bool:
    """`GITHUB_PERSONAL_ACCESS_TOKEN`, `apiKey`: an environment variable holding a credential."""
    parts = re.split(r"[_\-.\s]+|(?<=[a-z])(?=[A-Z])", name)
    return any(p.lower() in vocabulary().credential_words for p in parts)


def annotation_bounds(annotations: dict[str, Any] | None) -> tuple[frozenset[str], frozenset[str]]:
    """(ceiling, grants) from the four policy hints."""
    hints = annotations or {}
    ceiling = set(lattice.TOP)
    grants: set[str] = set()
    read_only = hints.get("readOnlyHint")
    if read_only is True:
        ceiling -= lattice.leaves(["WRITE", "EXEC_SHELL", "EXEC_EVAL"])
        grants |= lattice.leaves(["READ"])
    if read_only is False or (read_only is not True and hints.get("destructiveHint") is True):
        grants |= lattice.leaves(["READ", "WRITE"])
    if hints.get("openWorldHint") is False:
        ceiling -= lattice.leaves(["NETWORK"])
    elif hints.get("openWorldHint") is True:
        grants |= lattice.leaves(["NETWORK"])
    return frozenset(ceiling), frozenset(grants)


def declare(
    tool_name: str,
    description: str | None,
    annotations: dict[str, Any] | None,
    mode: DeclaredFrom = DeclaredFrom.BOTH,
) -> Declaration:
    ceiling, grants = annotation_bounds(annotations)
    described = description_leaves(description, tool_name)
    if mode is DeclaredFrom.ANNOTATIONS:
        leaves = ceiling
    elif mode is DeclaredFrom.DESCRIPTION:
        leaves = described
    else:
        leaves = (described | grants) & ceiling
    return Declaration(frozenset(leaves), ceiling, described, grants, mode)

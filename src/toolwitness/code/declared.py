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
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from importlib import resources
from typing import Any

from toolwitness.code import lattice
from toolwitness.errors import InternalError
from toolwitness.textnorm import nfc
from toolwitness.yamlload import load_yaml


class DeclaredFrom(StrEnum):
    DESCRIPTION = "description"
    ANNOTATIONS = "annotations"
    BOTH = "both"


@dataclass(frozen=True)
class Declaration:
    leaves: frozenset[str]
    ceiling: frozenset[str]  # what the annotations leave possible
    described: frozenset[str]  # what the description's words declare
    granted: frozenset[str]  # what explicit hints say the tool does
    mode: DeclaredFrom

    @property
    def prohibited(self) -> frozenset[str]:
        return lattice.TOP - self.ceiling


@dataclass(frozen=True)
class _Vocabulary:
    negations: frozenset[str]
    window: int
    verbs: dict[str, tuple[str, bool]]  # word -> (class, strong)
    objects: dict[str, str]  # word -> domain
    table: dict[str, dict[str, frozenset[str]]]
    implied: dict[str, frozenset[str]]


_CLAUSE = re.compile(r"[.;:!?\n]+")
_WORD = re.compile(r"[a-z0-9]+(?:['-][a-z0-9]+)*")
_SUFFIXES = ("ing", "es", "ed", "s", "d")


@lru_cache(maxsize=1)
def vocabulary() -> _Vocabulary:
    text = resources.files("toolwitness.data").joinpath("declared.yaml").read_text("utf-8")
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
        return _Vocabulary(
            frozenset(doc["negations"]),
            int(doc["negation_window"]),
            verbs,
            objects,
            table,
            implied,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise InternalError(f"declared.yaml is malformed: {exc}") from None


def _stems(word: str) -> list[str]:
    out = [word]
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) > len(suffix) + 2:
            stem = word[: -len(suffix)]
            out += [stem, stem + "e"]
            if suffix == "ing" and len(stem) > 2 and stem[-1] == stem[-2]:
                out.append(stem[:-1])  # running -> run
    return out


@lru_cache(maxsize=4096)
def description_leaves(text: str | None, tool_name: str | None = None) -> frozenset[str]:
    """Leaves the words declare; a negated verb or object ("without reading") declares nothing."""
    vocab = vocabulary()
    clauses = _CLAUSE.split(nfc(text or "").lower())
    subject: list[str] = []  # the tool name's objects are what every clause is about
    if tool_name:
        name_words = re.split(r"[_\-.\s]+|(?<=[a-z])(?=[A-Z])", tool_name)
        clauses.append(" ".join(name_words).lower())
        subject = [vocab.objects[w.lower()] for w in name_words if w.lower() in vocab.objects]
    found: set[str] = set()
    for clause in clauses:
        words = _WORD.findall(clause)
        verbs: list[tuple[str, bool]] = []
        domains: list[str] = []
        for index, word in enumerate(words):
            negated = any(w in vocab.negations for w in words[max(0, index - vocab.window) : index])
            if negated:
                continue
            if word in vocab.objects:
                domains.append(vocab.objects[word])
            verb = next((vocab.verbs[s] for s in _stems(word) if s in vocab.verbs), None)
            if verb is not None and word not in vocab.objects:
                verbs.append(verb)
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

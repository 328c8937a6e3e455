"""Tokenising names and prose for role derivation, in linear time.

Names split on `_ - . space` and camelCase boundaries. Prose is split on whitespace first; a
chunk holding `://` becomes the token `url`, a path-like chunk (`~/.ssh/id_rsa`, `/etc/passwd`)
becomes `path` or `secret-path`; every other chunk is cut into words by one character-class
regex. Sentences end at `. ! ? ; :` and line breaks; clauses also end at words like "but".
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from toolwitness.checks.role_vocab import RoleVocabulary, vocabulary
from toolwitness.textnorm import nfc

_NAME_SPLIT = re.compile(r"[^A-Za-z0-9]+")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_WORD = re.compile(r"[\w'-]+|[.!?;:,]")
_MAX_NAME = 256
_DOT_WORD = re.compile(r"(?:^|\s)[(\[{\"'`]*\.\w")  # ".env", "(.ssh": a dotfile, not an ender
_ENDERS = frozenset(".!?;:")
# Substrings of a path chunk that make it a secret location (matched on the lower-cased chunk).
_SECRET_PATH_MARKERS = (
    ".ssh",
    "id_rsa",
    "id_ed25519",
    ".env",
    ".aws",
    "credentials",
    ".npmrc",
    ".netrc",
    ".pypirc",
    "keychain",
    "/etc/shadow",
    "/etc/passwd",
    ".gnupg",
    ".kube",
    ".docker/config",
    "wallet",
    ".git-credentials",
    "cookies",
)


def name_tokens(name: str) -> list[str]:
    """`getSecretValue`, `get-secret_value`, `get.secret.value` -> get, secret, value."""
    return list(_name_tokens(name[:_MAX_NAME]))


@lru_cache(maxsize=65536)
def _name_tokens(name: str) -> tuple[str, ...]:
    out: list[str] = []
    for part in _NAME_SPLIT.split(nfc(name)):
        out.extend(m.group(0).lower() for m in _CAMEL.finditer(part))
    return tuple(out)


class Clause(NamedTuple):
    tokens: tuple[str, ...]  # lemmas
    sentence_start: bool  # first clause of its sentence


def _is_path(chunk: str) -> bool:
    if "\\" in chunk:
        return True
    if "/" not in chunk:
        return False
    return chunk[0] in "/~." or chunk.count("/") >= 2 or "." in chunk


def _chunk_tokens(chunk: str) -> list[str]:
    stripped = chunk.rstrip(".,!?;:)]}\"'`")
    tail = chunk[len(stripped) :]
    lead = stripped.lstrip("([{\"'`")
    if "://" in lead:
        out = ["url"]
    elif lead and _is_path(lead):
        low = lead.lower()
        out = ["secret-path" if any(m in low for m in _SECRET_PATH_MARKERS) else "path"]
    elif (
        lead.startswith(".")
        and len(lead) > 1
        and any(m in lead.lower() for m in (".env", ".ssh", ".aws", ".npmrc", ".netrc"))
    ):
        out = ["secret-path"]
    else:
        return [m.group(0) for m in _WORD.finditer(chunk.replace("/", " "))]
    return out + [c for c in tail if c in _ENDERS or c == ","][:1]


def _chunks_tokens(line: str) -> list[str]:
    if "/" not in line and "\\" not in line and not _DOT_WORD.search(line):
        return _WORD.findall(line)  # the common case: plain prose, one C-level pass
    return [token for chunk in line.split() for token in _chunk_tokens(chunk)]


def _compute(text: str, vocab: RoleVocabulary) -> tuple[Clause, ...]:
    out: list[Clause] = []
    current: list[str] = []
    start = True
    lemma, breaks = vocab.lemmas.get, vocab.clause_breaks
    for line in nfc(text).lower().replace("’", "'").splitlines():
        for token in _chunks_tokens(line):
            if token in _ENDERS or token in breaks:
                if current:
                    out.append(Clause(tuple(current), start))
                    start = False
                    current = []
                start = start or token in _ENDERS
            else:
                word = token.strip("'-")
                current.append(lemma(word, word))
        if current:
            out.append(Clause(tuple(current), start))
            current = []
        start = True
    return tuple(out)


# Short texts repeat ("File path"); long ones are analysed each time so the cache stays small.
CACHED_TEXT = 4096


@lru_cache(maxsize=16384)
def _default_clauses(text: str) -> tuple[Clause, ...]:
    return _compute(text, vocabulary())


def clauses(text: str, vocab: RoleVocabulary) -> tuple[Clause, ...]:
    """Prose as clauses of lemmas; identifiers like `write_file` stay whole (never verbs).
    Parameter descriptions repeat across tools ("File path"), so the default vocabulary's
    answers are cached by text."""
    if vocab is vocabulary() and len(text) <= CACHED_TEXT:
        return _default_clauses(text)
    return _compute(text, vocab)

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

from toolwitness.checks.roles.vocab import RoleVocabulary, vocabulary
from toolwitness.lazyre import lazy_compile
from toolwitness.textnorm import nfc

_NAME_SPLIT = lazy_compile(r"[^A-Za-z0-9]+")
_CAMEL = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_WORD = lazy_compile(r"[\w'-]+|[.!?;:,]")
_MAX_NAME = 256
_DOT_WORD = lazy_compile(r"(?:^|\s)[(\[{\"'`]*\.\w")  # ".env", "(.ssh": a dotfile, not an ender
_ENDERS = frozenset(".!?;:")
_DOT_THEN_WORD = re.compile(r"\.\w")
_OPENERS = "([{\"'`"
_MARKS = ".!?;:,"  # the single-character tokens of `_WORD`
_WORD_ASCII = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_'-")
# Every ASCII code mapped (an unmapped code takes translate's slow lookup-failure path).
_ASCII_SEPARATE = {
    code: chr(code) if chr(code) in _WORD_ASCII or chr(code) in _MARKS else " "
    for code in range(128)
}
# Substrings of a path chunk that make it a secret location (matched on the lower-cased chunk).
# Tokens made from whole chunks rather than words: they are no substring of the text.
SYNTHETIC_TOKENS = frozenset({"url", "path", "secret-path"})
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
    # Every `_CAMEL` match is made of [A-Za-z0-9] only and its look-ahead sees no [a-z] at a
    # separator either, so matching the whole name equals matching each `_NAME_SPLIT` part.
    normal = name if name.isascii() else nfc(name)  # NFC leaves ASCII text as it is
    return tuple(map(str.lower, _CAMEL.findall(normal)))


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


def _has_dot_word(line: str) -> bool:
    """`_DOT_WORD.search(line)`, faster: a literal-led search for '.' + word character, then a
    look back over the opening brackets and quotes before it for a space or the line's start.
    The look-backs of two candidates cover disjoint runs (a word character separates them)."""
    for match in _DOT_THEN_WORD.finditer(line):
        at = match.start()
        while at > 0 and line[at - 1] in _OPENERS:
            at -= 1
        if at == 0 or line[at - 1].isspace():
            return True
    return False


def _ascii_words(line: str) -> list[str]:
    """`_WORD.findall(line)` for an ASCII line: on ASCII, \\w is [A-Za-z0-9_], so every other
    character that is not an ender or comma separates words; enders and commas stand alone."""
    spaced = line.translate(_ASCII_SEPARATE)
    for mark in _MARKS:
        if mark in spaced:
            spaced = spaced.replace(mark, f" {mark} ")
    return spaced.split()


# A whitespace-separated chunk that `_chunk_tokens` may read as a URL or a path: one holding a
# slash or backslash, or one whose first character after opening brackets and quotes is a dot.
# A chunk without either is read as `_WORD.findall(chunk)` (no "://", `_is_path` needs a slash
# or backslash, the dot-file test a leading dot; replacing "/" changes nothing without one).
_SPECIAL_CHUNK = lazy_compile(r"(?<!\S)(?:[^\s/\\]*[/\\]|[(\[{\"'`]*\.)\S*")


def _plain_words(segment: str) -> list[str]:
    return _ascii_words(segment) if segment.isascii() else _WORD.findall(segment)


def _chunks_tokens(line: str) -> list[str]:
    if "/" not in line and "\\" not in line and ("." not in line or not _has_dot_word(line)):
        # the common case: plain prose, C-level passes
        return _plain_words(line)
    # `[t for chunk in line.split() for t in _chunk_tokens(chunk)]`, with the runs of plain
    # chunks between special ones tokenised in one pass each: `_WORD`'s tokens hold no white
    # space, so the tokens of a run are the tokens of its chunks in turn (and `_ascii_words`
    # gives `_WORD.findall`'s tokens on ASCII text). `_SPECIAL_CHUNK` starts only at a chunk's
    # start (after white space or the line's start) and runs to its end.
    out: list[str] = []
    done = 0
    for match in _SPECIAL_CHUNK.finditer(line):
        start = match.start()
        if start > done:
            out += _plain_words(line[done:start])
        out += _chunk_tokens(match.group(0))
        done = match.end()
    if done < len(line):
        out += _plain_words(line[done:])
    return out


_SEPARATORS: dict[int, tuple[RoleVocabulary, frozenset[str]]] = {}


def _separators(vocab: RoleVocabulary) -> frozenset[str]:
    """Tokens that end a clause: sentence enders and the vocabulary's clause breaks."""
    hit = _SEPARATORS.get(id(vocab))
    if hit is None or hit[0] is not vocab:
        hit = (vocab, _ENDERS | vocab.clause_breaks)
        _SEPARATORS[id(vocab)] = hit  # holding the vocabulary keeps its id from being reused
    return hit[1]


def positions_of(
    tokens: tuple[str, ...] | list[str], wanted: frozenset[str] | set[str]
) -> list[int]:
    """Sorted indices of the tokens that are in `wanted`. A few distinct such tokens are found by
    C-level count/index passes (each pass linear); many fall back to one Python-level pass."""
    present = wanted.intersection(tokens)
    if len(present) > 4:
        return [i for i, token in enumerate(tokens) if token in present]
    out: list[int] = []
    for token in present:
        at = -1
        for _ in range(tokens.count(token)):
            at = tokens.index(token, at + 1)
            out.append(at)
    out.sort()
    return out


def clauses_uncached(text: str, vocab: RoleVocabulary) -> tuple[Clause, ...]:
    """`clauses(text, vocab)`, computed afresh (for callers that cache their own results)."""
    return _compute(text, vocab)


def lowered(text: str) -> str:
    """The text as `clauses` reads it: NFC (which leaves ASCII text as it is), lower case,
    right single quotes as apostrophes, and a hard-wrapped line joined to the line before
    (a line break after a word, before a lower-case letter, continues the sentence:
    "including\nrecord counts per namespace")."""
    if "\n" in text:
        text = _WRAPPED.sub(" ", text)
    return (text if text.isascii() else nfc(text)).lower().replace("\u2019", "'")


_WRAPPED = lazy_compile(r"(?<=[A-Za-z0-9,)])[ \t]*\n[ \t]*(?=[a-z])")


def _compute(text: str, vocab: RoleVocabulary) -> tuple[Clause, ...]:
    return clauses_of_lowered(lowered(text), vocab)


def _cells(lower: str) -> list[str]:
    """The text's lines, with a Markdown table row split into its cells ("| format | contents
    | notes |"): a cell is a label or a value, never a clause with the cells beside it."""
    if "|" not in lower:
        return lower.splitlines()
    out: list[str] = []
    for line in lower.splitlines():
        if line.lstrip().startswith("|"):
            out.extend(line.split("|"))
        else:
            out.append(line)
    return out


def clauses_of_lowered(lower: str, vocab: RoleVocabulary) -> tuple[Clause, ...]:
    """`clauses_uncached(text, vocab)` given `lowered(text)` (for a caller that has it)."""
    out: list[Clause] = []
    lemma, separators = vocab.lemmas.get, _separators(vocab)
    for line in _cells(lower):
        tokens = _chunks_tokens(line)
        if not tokens:
            continue
        # strip("'-") changes only tokens holding one of those characters
        words = [t.strip("'-") for t in tokens] if "'" in line or "-" in line else tokens
        lemmas = tuple(map(lemma, words, words))
        if separators.isdisjoint(tokens):
            out.append(Clause(lemmas, True))
            continue
        # A clause is a run between separators; each line starts a sentence, and a clause
        # starts one when an ender (not a clause break) came before it.
        cuts = positions_of(tokens, separators)
        cuts.append(len(tokens))
        start, prev = True, 0
        for cut in cuts:
            if cut > prev:
                out.append(Clause(lemmas[prev:cut], start))
                start = False
            if cut < len(tokens):
                start = start or tokens[cut] in _ENDERS
            prev = cut + 1
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

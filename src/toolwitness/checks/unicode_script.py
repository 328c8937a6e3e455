"""Scripts and confusable skeletons (UTS #39), from the confusable-homoglyphs package data.

`skeleton(text)` maps every non-ASCII character that looks like an ASCII letter or digit onto
that ASCII character (`"reаd_file"` with a Cyrillic `а` becomes `"read_file"`); ASCII stays as it
is, so two names collide exactly when one is a homoglyph disguise of the other. It is a pure
function other checks (cross-server name collisions) may call.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from functools import lru_cache

import regex
from confusable_homoglyphs import categories, confusables  # type: ignore[import-untyped]

from toolwitness.checks.unicode_data import tables

# A token: a run of letters, marks and digits (underscores, hyphens and dots split tokens).
_TOKEN = regex.compile(r"[\p{L}\p{M}\p{N}]+")
_NEUTRAL_SCRIPTS = frozenset({"COMMON", "INHERITED", "UNKNOWN"})


@lru_cache(maxsize=8192)
def script_of(ch: str) -> str:
    """The Unicode script of one character, upper-case (`LATIN`, `CYRILLIC`, `COMMON` ...)."""
    if ch.isascii():
        return "LATIN" if ch.isalpha() else "COMMON"
    try:
        return str(categories.alias(ch))
    except (IndexError, KeyError, TypeError):  # outside the table: unassigned
        return "UNKNOWN"


@lru_cache(maxsize=1)
def _ascii_prototypes() -> dict[str, str]:
    """Non-ASCII character -> the ASCII letter or digit it is confusable with."""
    table: dict[str, str] = {}
    for char, glyphs in confusables.confusables_data.items():
        if len(char) != 1 or char.isascii():
            continue
        for glyph in glyphs:
            target = glyph.get("c", "")
            if len(target) == 1 and target.isascii() and target.isalnum():
                table[char] = target
                break
    return table


def ascii_prototype(ch: str) -> str | None:
    """The ASCII letter or digit `ch` is a homoglyph of, when it is one."""
    return None if ch.isascii() else _ascii_prototypes().get(ch)


def skeleton(text: str) -> str:
    """`text` with every ASCII-lookalike character replaced by the ASCII it imitates (NFC)."""
    if text.isascii():
        return text
    table = _ascii_prototypes()
    return "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFC", text))


@dataclass(frozen=True)
class ScriptToken:
    start: int
    end: int
    text: str
    scripts: frozenset[str]  # letter scripts, neutral ones left out
    lookalikes: tuple[tuple[str, str], ...]  # (character, ASCII it imitates), first each


def non_ascii_tokens(text: str) -> list[ScriptToken]:
    """Every token holding a non-ASCII letter, with its scripts and its ASCII lookalikes."""
    out: list[ScriptToken] = []
    table = _ascii_prototypes()
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token.isascii():
            continue
        scripts: set[str] = set()
        seen: set[str] = set()
        lookalikes: list[tuple[str, str]] = []
        for ch in token:
            if ch.isascii():
                if ch.isalpha():
                    scripts.add("LATIN")
                continue
            script = script_of(ch)
            if script not in _NEUTRAL_SCRIPTS and ch.isalpha():
                scripts.add(script)
            if ch in table and ch not in seen:
                seen.add(ch)
                lookalikes.append((ch, table[ch]))
        out.append(
            ScriptToken(
                start=match.start(),
                end=match.end(),
                text=token,
                scripts=frozenset(scripts),
                lookalikes=tuple(lookalikes),
            )
        )
    return out


def is_allowed_mix(scripts: frozenset[str]) -> bool:
    """Script sets ordinary writing combines in one word (CJK with Latin, per UTS #39)."""
    if len(scripts) <= 1:
        return True
    return any(scripts <= allowed for allowed in tables().confusables.allowed_script_sets)


def describe_char(ch: str) -> str:
    """`'а' U+0430 CYRILLIC SMALL LETTER A` — a code point a reader can look up."""
    code = ord(ch)
    label = f"U+{code:04X}" if code <= 0xFFFF else f"U+{code:06X}"
    return f"{label} {unicodedata.name(ch, 'UNNAMED')}"

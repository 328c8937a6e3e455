"""Scripts and confusable skeletons (UTS #39), from the confusable-homoglyphs package data.

`skeleton(text)` maps every non-ASCII character that looks like an ASCII letter or digit onto
that ASCII character (`"reаd_file"` with a Cyrillic `а` becomes `"read_file"`); ASCII stays as it
is, so two names collide exactly when one is a homoglyph disguise of the other. It is a pure
function other checks (cross-server name collisions) may call.

The confusable-homoglyphs tables load at the first non-ASCII character looked up, and the `regex`
package at the first non-ASCII text tokenised: an all-ASCII catalog never needs them. The tables
are the package's two JSON files, read here as its `utils.load` reads them, without importing its
modules: `confusable_homoglyphs.utils` imports `urllib.request` (http.client, email, hashlib and
OpenSSL: ~20 ms of a scan's start) for a download helper no scan calls.
"""

from __future__ import annotations

import importlib.util
import json
import os
import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from toolwitness.checks.unicode.data import tables
from toolwitness.plainclass import plainclass

if TYPE_CHECKING:
    import regex

_NEUTRAL_SCRIPTS = frozenset({"COMMON", "INHERITED", "UNKNOWN"})


def _homoglyph_data(name: str) -> Any:
    """A data file of confusable-homoglyphs as `confusable_homoglyphs.utils.load` reads it: from
    the folder `CONFUSABLE_DATA` names, else the package's own (found without importing it)."""
    folder = os.environ.get("CONFUSABLE_DATA")
    if folder is None:
        spec = importlib.util.find_spec("confusable_homoglyphs")
        places = spec.submodule_search_locations if spec is not None else None
        if not places:
            raise ModuleNotFoundError("confusable_homoglyphs", name="confusable_homoglyphs")
        folder = os.path.abspath(next(iter(places)))
    with open(os.path.join(folder, name), encoding="utf-8") as file:  # (ASCII JSON)
        return json.load(file)


@lru_cache(maxsize=1)
def _categories() -> tuple[list[list[int]], list[str]]:
    """The code point ranges (first, last, alias index, category index) and the script aliases
    of `confusable_homoglyphs.categories`."""
    data = _homoglyph_data("categories.json")
    return data["code_points_ranges"], data["iso_15924_aliases"]


def _alias(ch: str) -> str:
    """`confusable_homoglyphs.categories.alias(ch)`: its binary search over the ranges."""
    ranges, aliases = _categories()
    le, r, c = 0, len(ranges) - 1, ord(ch)
    while r >= le:
        m = (le + r) // 2
        if c < ranges[m][0]:
            r = m - 1
        elif c > ranges[m][1]:
            le = m + 1
        else:
            return aliases[ranges[m][2]]
    return "Unknown"


@lru_cache(maxsize=8192)
def script_of(ch: str) -> str:
    """The Unicode script of one character, upper-case (`LATIN`, `CYRILLIC`, `COMMON` ...)."""
    if ch.isascii():
        return "LATIN" if ch.isalpha() else "COMMON"
    try:
        return str(_alias(ch))
    except (IndexError, KeyError, TypeError):  # outside the table: unassigned
        return "UNKNOWN"


@lru_cache(maxsize=1)
def _ascii_prototypes() -> dict[str, str]:
    """Non-ASCII character -> the ASCII letter or digit it is confusable with."""
    table: dict[str, str] = {}
    for char, glyphs in _homoglyph_data("confusables.json").items():
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


@plainclass(frozen=True)
class ScriptToken:
    text: str
    scripts: frozenset[str]  # letter scripts, neutral ones left out
    lookalikes: tuple[tuple[str, str], ...]  # (character, ASCII it imitates), first each
    # ASCII letters that imitate a letter of another script in the same token ('a' for 'а')
    ascii_imitators: tuple[str, ...] = ()


@lru_cache(maxsize=32768)
def analyse_token(token: str) -> ScriptToken:
    """The letter scripts of one token and its ASCII lookalikes (first occurrence each).
    Cached: the same words recur across the tools of a catalog."""
    table = _ascii_prototypes()
    scripts = frozenset(map(script_of, filter(str.isalpha, token))) - _NEUTRAL_SCRIPTS
    lookalikes = tuple((ch, table[ch]) for ch in dict.fromkeys(token) if ch in table)
    others = scripts - {"LATIN"}
    imitators: tuple[str, ...] = ()
    latin = sum(1 for ch in token if ch.isascii() and ch.isalpha())
    # Only when Latin is the minority: "фaйл" (a Latin 'a' in a Cyrillic word), not "ωmega".
    if others and "LATIN" in scripts and 2 * latin < sum(1 for ch in token if ch.isalpha()):
        mirror = _ascii_homoglyph_scripts()
        imitators = tuple(
            ch for ch in dict.fromkeys(token) if ch.isascii() and mirror.get(ch, set()) & others
        )
    return ScriptToken(token, scripts, lookalikes, imitators)


@lru_cache(maxsize=1)
def _ascii_homoglyph_scripts() -> dict[str, frozenset[str]]:
    """ASCII letter or digit -> the scripts holding a character that imitates it."""
    out: dict[str, set[str]] = {}
    for char, ascii_char in _ascii_prototypes().items():
        out.setdefault(ascii_char, set()).add(script_of(char))
    return {ch: frozenset(scripts) for ch, scripts in out.items()}


@lru_cache(maxsize=1)
def _token_patterns() -> tuple[regex.Pattern[str], regex.Pattern[str]]:
    """A token (a run of letters, marks and digits: underscores, hyphens and dots split tokens)
    and an ASCII letter. `regex` (~6 ms and five modules to import) loads here, on first use."""
    import regex

    return regex.compile(r"[\p{L}\p{M}\p{N}]+"), regex.compile(r"[A-Za-z]")


def non_ascii_tokens(text: str, *, lookalikes_only: bool = False) -> list[ScriptToken]:
    """Every token holding a non-ASCII character, with its scripts and its ASCII lookalikes.

    With `lookalikes_only`, tokens that can imitate nothing are skipped (no lookalike character
    and no ASCII letter): the homoglyph checks need no others."""
    out: list[ScriptToken] = []
    imitators = _ascii_prototypes().keys()
    token_pattern, ascii_letter = _token_patterns()
    for token in token_pattern.findall(text):
        if token.isascii():
            continue
        if lookalikes_only and imitators.isdisjoint(token) and not ascii_letter.search(token):
            continue
        out.append(analyse_token(token))
    return out


def scripts_with_plain_letters(text: str) -> frozenset[str]:
    """Scripts that have at least one letter in `text` imitating no ASCII character."""
    table = _ascii_prototypes()
    plain = {ch for ch in set(text) if ch.isalpha() and not ch.isascii() and ch not in table}
    return frozenset(map(script_of, plain)) - _NEUTRAL_SCRIPTS


def is_allowed_mix(scripts: frozenset[str]) -> bool:
    """Script sets ordinary writing combines in one word (CJK with Latin, per UTS #39)."""
    if len(scripts) <= 1:
        return True
    return any(scripts <= allowed for allowed in tables().confusables.allowed_script_sets)


def describe_char(ch: str) -> str:
    """`'а' U+0430 CYRILLIC SMALL LETTER A` — a code point a reader can look up."""
    code = ord(ch)
    label = f"U+{code:04X}" if code <= 0xFFFF else f"U+{code:06X}"
    name = unicodedata.name(ch, "")
    return f"{label} {name}" if name else label

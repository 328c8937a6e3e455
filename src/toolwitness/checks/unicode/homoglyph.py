"""Homoglyph impersonation (UTS #39): mixed-script tokens and whole-script confusables.

TW-UNI-010: one token mixes Latin with a lookalike script (Cyrillic, Greek, Armenian ...) and
a letter of it imitates an ASCII letter — `reаd_file` with a Cyrillic `а`. Script mixes that
ordinary writing uses (Japanese kana + kanji + Latin, Chinese + Latin, Korean + Latin) and
mixes whose letters imitate nothing (`ΔT`, `ωmega`) are left alone.

TW-UNI-011: a token written entirely in lookalike letters so it reads as an ASCII word
(`сору` in Cyrillic reads "copy"). In identifiers (names, property names) it is reported; in
running text only when the field holds no genuine word of that script, so Greek and Russian
descriptions stay clean.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache

from toolwitness.checks.unicode.data import tables
from toolwitness.checks.unicode.hit import Hit
from toolwitness.checks.unicode.script import (
    ScriptToken,
    describe_char,
    is_allowed_mix,
    non_ascii_tokens,
    scripts_with_plain_letters,
    skeleton,
)
from toolwitness.findings import Severity


def _letters(token: ScriptToken) -> int:
    text = token.text
    return len(text) if text.isalpha() else sum(1 for ch in text if ch.isalpha())


@lru_cache(maxsize=32768)
def _is_mixed_lookalike(token: ScriptToken) -> bool:
    if is_allowed_mix(token.scripts):
        return False
    lookalike = token.scripts & tables().confusables.lookalike_scripts
    if not lookalike or not ("LATIN" in token.scripts or len(lookalike) >= 2):
        return False
    imitation = bool(token.lookalikes or token.ascii_imitators)
    return imitation and _letters(token) >= tables().confusables.min_token_letters


@lru_cache(maxsize=32768)
def _is_whole_script_confusable(token: ScriptToken) -> bool:
    """Every letter imitates an ASCII letter, and the token is not plain ASCII."""
    if len(token.scripts) != 1 or _letters(token) < tables().confusables.min_token_letters:
        return False
    imitated = {ch for ch, _ in token.lookalikes}
    return all(ch.isascii() or ch in imitated for ch in set(token.text) if ch.isalpha())


def _explain(token: ScriptToken) -> str:
    if not token.lookalikes:
        letters = ", ".join(repr(ch) for ch in token.ascii_imitators[:6])
        scripts = " + ".join(sorted(s.title() for s in token.scripts))
        return f"token {token.text} ({scripts}) holds Latin {letters} imitating the other script"
    shown = "; ".join(
        f"{describe_char(ch)} looks like {ascii!r}" for ch, ascii in token.lookalikes[:6]
    )
    return f"token {token.text} reads as {skeleton(token.text)}; {shown}"


def homoglyph_hits(text: str, identifier: bool) -> Iterator[Hit]:
    """TW-UNI-010/011 for one string; `identifier` for names and schema property names."""
    if text.isascii():
        return
    tokens = non_ascii_tokens(text, lookalikes_only=True)
    mixed = [t for t in tokens if _is_mixed_lookalike(t)]
    if mixed:
        token = mixed[0]
        scripts = " + ".join(sorted(s.title() for s in token.scripts))
        imitates_ascii = skeleton(token.text).isascii()
        yield Hit(
            "TW-UNI-010",
            message=(
                f"{len(mixed)} token(s) mix scripts ({scripts}) with letters that imitate Latin"
            ),
            evidence=_explain(token),
            severity=Severity.HIGH if identifier or imitates_ascii else Severity.MEDIUM,
        )
    confusable = [
        t for t in tokens if not _is_mixed_lookalike(t) and _is_whole_script_confusable(t)
    ]
    if not identifier:
        confusable = _without_genuine_script(confusable, text)
    if confusable:
        token = confusable[0]
        yield Hit(
            "TW-UNI-011",
            message=(
                f"{len(confusable)} token(s) written in lookalike letters read as ASCII words"
            ),
            evidence=_explain(token),
        )


def _without_genuine_script(confusable: list[ScriptToken], text: str) -> list[ScriptToken]:
    """In running text keep a whole-script confusable only when it stands out: non-Latin, the
    field has no genuine word of that script (a letter imitating nothing), and the field is
    otherwise written in ASCII words."""
    if not confusable:
        return []
    lookalike_scripts = tables().confusables.lookalike_scripts
    genuine = scripts_with_plain_letters(text)
    ascii_words = sum(1 for word in text.split() if word.isascii() and word.isalpha())
    return [
        t
        for t in confusable
        if t.scripts <= lookalike_scripts
        and not (t.scripts & genuine)
        and ascii_words >= 2
        and _letters(t) >= 3
    ]

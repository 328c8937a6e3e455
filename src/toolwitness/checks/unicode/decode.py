"""Decoders for text hidden in invisible characters. Pure functions; decode, never strip.

Public contract (other checks, e.g. the injection checks, call it to re-check hidden text):

    reveal_hidden(text: str) -> list[HiddenPayload]

    HiddenPayload(channel, start, end, text, data, carriers)
      channel   "tags" | "variation-selectors" | "zero-width" | "terminal"
      start/end span of `text` (code-point indices, end exclusive) from the first to the last
                invisible carrier; carriers may be interleaved with visible characters
      text      the decoded hidden text, or None when the carried bytes are not UTF-8 text
      data      the carried bytes (UTF-8 of `text` when it decoded)
      carriers  how many invisible code points carried it

Legitimate uses are not payloads: emoji subdivision flags (tag sequences after U+1F3F4), one
variation selector after a base that has variation sequences (emoji + U+FE0F, CJK + an IVS),
ZWJ inside emoji sequences and ZWNJ/ZWJ in scripts that need them.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from functools import lru_cache

from toolwitness.checks.unicode.data import tables
from toolwitness.checks.unicode.script import script_of
from toolwitness.checks.unicode.terminal import terminal_effect
from toolwitness.lazyre import lazy_compile
from toolwitness.plainclass import plainclass

_TAG_RUN = lazy_compile("[\U000e0000-\U000e007f]+")
_SELECTOR_RUN = lazy_compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]+")
_MAX_DECODE_SYMBOLS = 16384
_EMOJI_TAIL = lazy_compile("[\ufe0f\U0001f3fb-\U0001f3ff]")  # VS16 and skin-tone modifiers


@plainclass(frozen=True)
class HiddenPayload:
    channel: str
    start: int
    end: int
    text: str | None
    data: bytes
    carriers: int


def reveal_hidden(text: str) -> list[HiddenPayload]:
    """Every hidden payload in `text`, in channel order (tags, selectors, zero-width, terminal)."""
    if text.isascii():
        found = [p for p in [terminal_payload(text)] if p is not None]
        return found
    payloads = [tag_payload(text), selector_payload(text), *zero_width_payloads(text)]
    payloads.append(terminal_payload(text))
    return [p for p in payloads if p is not None]


def _as_text(data: bytes) -> str | None:
    try:
        decoded = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not decoded or not all(ch.isprintable() or ch in "\t\n\r" for ch in decoded):
        return None
    return decoded


# --- Tags block -------------------------------------------------------------------------------


def _is_emoji_flag(text: str, start: int, end: int) -> bool:
    """WAVING BLACK FLAG + 2..n tag letters/digits + CANCEL TAG: a subdivision flag (England)."""
    cfg = tables().tags
    if start == 0 or ord(text[start - 1]) not in cfg.emoji_tag_bases:
        return False
    body = text[start : end - 1]
    if ord(text[end - 1]) != cfg.cancel or not 2 <= len(body) <= cfg.emoji_tag_max_letters:
        return False
    return all(chr(ord(ch) - 0xE0000).isalnum() for ch in body)


@lru_cache(maxsize=1)
def _tag_table() -> dict[int, int | None]:
    """str.translate table: a tag character -> the ASCII it mirrors; others in the block -> gone."""
    cfg = tables().tags
    table: dict[int, int | None] = dict.fromkeys(range(cfg.first, cfg.last + 1))
    for code in range(cfg.ascii_first, cfg.ascii_last + 1):
        table[code] = code - cfg.first
    return table


@lru_cache(maxsize=1)
def _selector_table() -> dict[int, int]:
    """str.translate table: a variation selector -> chr(the byte it carries)."""
    out: dict[int, int] = {}
    for span in tables().variation_selectors.ranges:
        for code in range(span.first, span.last + 1):
            out[code] = span.byte_base + code - span.first
    return out


def tag_payload(text: str) -> HiddenPayload | None:
    """Every Tags-block character outside emoji flags, decoded to the ASCII it mirrors."""
    chars: list[str] = []
    first = last = -1
    carriers = 0
    for match in _TAG_RUN.finditer(text):
        if _is_emoji_flag(text, match.start(), match.end()):
            continue
        if first < 0:
            first = match.start()
        last = match.end()
        carriers += match.end() - match.start()
        chars.append(match.group().translate(_tag_table()))
    if first < 0:
        return None
    hidden = "".join(chars)
    return HiddenPayload("tags", first, last, hidden or None, hidden.encode(), carriers)


# --- Variation selectors ----------------------------------------------------------------------


def _selector_is_legitimate(text: str, at: int) -> bool:
    """One selector right after a base that has variation sequences of that kind."""
    if at == 0:
        return False
    base = text[at - 1]
    code = ord(text[at])
    category = unicodedata.category(base)
    if category[0] in "CZ" or base.isspace():
        return False
    if code >= 0xE0100:  # ideographic variation sequences: Han ideographs only
        return script_of(base) == "HAN"
    cfg = tables().variation_selectors
    if code in (cfg.text_presentation, cfg.emoji_presentation):
        return not (base.isascii() and base.isalpha())  # emoji/keycap bases are symbols, digits
    # Standardized variation sequences: math symbols, CJK, Myanmar, Phags-pa ... never a cased
    # letter of Latin, Greek or Cyrillic (those have none) and never punctuation.
    return category in ("Sm", "So", "Lo", "Nd", "Mn", "Mc")


def selector_payload(text: str) -> HiddenPayload | None:
    """Variation selectors that carry bytes: runs of two or more, or ones with no valid base."""
    data = bytearray()
    first = last = -1
    for match in _SELECTOR_RUN.finditer(text):
        start, end = match.span()
        if end - start == 1 and _selector_is_legitimate(text, start):
            continue
        if first < 0:
            first = start
        last = end
        data.extend(match.group().translate(_selector_table()).encode("latin-1"))
    if first < 0:
        return None
    raw = bytes(data)
    text_form = _as_text(raw)
    if text_form is None and len(raw) % 2 == 0 and max(raw) < 16:
        # The other published layout: two VS1..VS16 selectors per byte, high nibble first.
        packed = bytes(raw[i] << 4 | raw[i + 1] for i in range(0, len(raw), 2))
        if (nibbles := _as_text(packed)) is not None:
            return HiddenPayload("variation-selectors", first, last, nibbles, packed, len(raw))
    return HiddenPayload("variation-selectors", first, last, text_form, raw, len(raw))


# --- Zero-width characters ------------------------------------------------------------------


def zero_width_codes() -> frozenset[int]:
    cfg = tables()
    return frozenset(cfg.zero_width_by_code) | frozenset(cfg.operators_by_code)


def _letter_script(text: str, at: int, step: int) -> str | None:
    """Script of the nearest letter from `at` in direction `step`, skipping combining marks."""
    i = at
    for _ in range(8):
        if not 0 <= i < len(text):
            return None
        ch = text[i]
        if unicodedata.category(ch)[0] != "M":
            return script_of(ch) if ch.isalpha() else None
        i += step
    return None


def zero_width_is_legitimate(text: str, at: int, *, allow_bom: bool = True) -> bool:
    """ZWJ inside an emoji sequence, ZWNJ/ZWJ between letters of a joining script, a leading BOM."""
    ch = text[at]
    if ch == "\ufeff":
        return allow_bom and at == 0
    if ch not in "\u200c\u200d" or at == 0 or at + 1 >= len(text):
        return False
    prev, nxt = text[at - 1], text[at + 1]
    if ch == "\u200d" and _is_pictographic(nxt):
        base = text[at - 2] if _EMOJI_TAIL.match(prev) and at >= 2 else prev
        if _is_pictographic(base):
            return True
    joining = tables().joining_scripts
    before = _letter_script(text, at - 1, -1)
    after = _letter_script(text, at + 1, 1)
    return before in joining and (after in joining or after is None)


def _is_pictographic(ch: str) -> bool:
    code = ord(ch)
    return (
        unicodedata.category(ch) == "So" or 0x1F000 <= code <= 0x1FAFF or 0x2600 <= code <= 0x27BF
    )


@lru_cache(maxsize=1)
def _zero_width_run() -> re.Pattern[str]:
    chars = "".join(re.escape(chr(code)) for code in sorted(zero_width_codes()))
    return re.compile(f"[{chars}]+")


def zero_width_runs(text: str, *, identifier: bool = False) -> list[tuple[int, int]]:
    """Spans of consecutive zero-width/invisible-operator characters that are not legitimate
    (in an identifier a leading byte order mark is not legitimate either)."""
    runs: list[tuple[int, int]] = []
    for match in _zero_width_run().finditer(text):
        start, end = match.span()
        if end - start == 1 and zero_width_is_legitimate(text, start, allow_bom=not identifier):
            continue
        runs.append((start, end))
    return runs


@lru_cache(maxsize=4)
def _zero_width_long_run(minimum: int) -> re.Pattern[str]:
    """Maximal runs of `minimum` characters or more (a shorter run is skipped in C; a run
    that long never starts inside a longer one, which matches from its first character)."""
    return re.compile(f"{_zero_width_run().pattern[:-1]}{{{minimum},}}")


def long_zero_width_runs(text: str, minimum: int) -> list[tuple[int, int]]:
    """The spans of `zero_width_runs(text)` of `minimum` characters or more. It leaves out only
    runs of one character, so for `minimum` of two or more they are every maximal run that
    long, found without visiting each short run (zero-width spaces between words)."""
    if minimum < 2:
        return [(s, e) for s, e in zero_width_runs(text) if e - s >= minimum]
    return [m.span() for m in _zero_width_long_run(minimum).finditer(text)]


def zero_width_payloads(text: str) -> list[HiddenPayload]:
    minimum = tables().thresholds.zero_width_decode_min
    out = []
    for start, end in long_zero_width_runs(text, minimum):
        decoded = decode_symbols(text[start:end])
        if decoded is not None:
            out.append(
                HiddenPayload("zero-width", start, end, decoded, decoded.encode(), end - start)
            )
    return out


def decode_symbols(run: str) -> str | None:
    """Read a run of 2-4 distinct invisible symbols as binary / separated binary / base 4.

    Only the first `_MAX_DECODE_SYMBOLS` symbols are read (2 KiB of binary payload), which
    bounds the work of trying every symbol assignment."""
    run = run[:_MAX_DECODE_SYMBOLS]
    symbols = sorted(set(run))
    candidates: list[str] = []
    if len(symbols) == 2:
        for zero, one in itertools.permutations(symbols):
            bits = run.replace(zero, "0").replace(one, "1")
            candidates.append(_bits_to_text(bits))
    elif len(symbols) == 3:
        for sep in symbols:
            a, b = (s for s in symbols if s != sep)
            for zero, one in ((a, b), (b, a)):
                groups = run.replace(zero, "0").replace(one, "1").split(sep)
                candidates.append(_groups_to_text([g for g in groups if g]))
    elif len(symbols) == 4:
        for order in itertools.permutations(symbols):
            digits = run
            for value, sym in enumerate(order):
                digits = digits.replace(sym, str(value))
            candidates.append(_base4_to_text(digits))
    best = max((c for c in candidates if c), key=_plausibility, default="")
    return best if best and _plausibility(best) >= 0.75 else None


def _bits_to_text(bits: str) -> str:
    if len(bits) % 8:
        return ""
    data = bytes(int(bits[i : i + 8], 2) for i in range(0, len(bits), 8))
    return _as_text(data) or ""


def _groups_to_text(groups: list[str]) -> str:
    if not groups or any(len(g) > 21 for g in groups):
        return ""
    codes = [int(g, 2) for g in groups]
    if any(c > 0x10FFFF or 0xD800 <= c <= 0xDFFF for c in codes):
        return ""
    decoded = "".join(chr(c) for c in codes)
    return decoded if decoded.isprintable() else ""


def _base4_to_text(digits: str) -> str:
    if len(digits) % 4:
        return ""
    data = bytes(int(digits[i : i + 4], 4) for i in range(0, len(digits), 4))
    return _as_text(data) or ""


def _plausibility(decoded: str) -> float:
    """Share of letters, digits, spaces and common punctuation: text looks like text."""
    good = sum(1 for ch in decoded if ch.isalnum() or ch in " .,:;!?'\"-_/()@")
    return good / len(decoded)


# --- Terminal ---------------------------------------------------------------------------------


def terminal_payload(text: str) -> HiddenPayload | None:
    """Characters a terminal would not show (concealed, overwritten, erased, swallowed)."""
    effect = terminal_effect(text)
    if effect is None:
        return None
    parts = [effect.hidden_text(text), *effect.swallowed, *effect.clipboard]
    hidden = " … ".join(p for p in parts if p)
    if not hidden:
        return None
    first = min(effect.hidden, default=0)
    return HiddenPayload("terminal", first, len(text), hidden, hidden.encode(), len(effect.hidden))

"""Hidden-Unicode checks (TW-UNI-001 … TW-UNI-011) over every text field of a server.

Decode, don't strip: hidden text is decoded and shown as evidence. Tables of ranges and their
meaning live in `data/unicode.yaml`; the decoders are in `unicode.decode` (tags, variation
selectors, zero-width binary), `unicode.terminal` (ANSI/CSI/OSC), `unicode.bidi` (TR #9) and
`unicode.script` (UTS #39 confusables). Pure ASCII text without control characters costs one
`str.isascii()` and one regex search per field.

For other checks: `reveal_hidden(text) -> list[HiddenPayload]` (re-exported here from
`unicode.decode`, whose docstring states the contract) returns every decoded hidden payload with
its span, so hidden instructions can be re-checked as text; `skeleton(text)` gives the UTS #39
style ASCII skeleton used to compare names.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from functools import lru_cache

from toolwitness.checks.interface import CheckContext, server_check
from toolwitness.checks.unicode import homoglyph as unicode_homoglyph
from toolwitness.checks.unicode.bidi import analyse_bidi, logical_and_displayed
from toolwitness.checks.unicode.data import tables
from toolwitness.checks.unicode.decode import (
    HiddenPayload,
    reveal_hidden,
    selector_payload,
    tag_payload,
    zero_width_payloads,
    zero_width_runs,
)
from toolwitness.checks.unicode.hit import Hit
from toolwitness.checks.unicode.script import describe_char, skeleton
from toolwitness.checks.unicode.terminal import TerminalEffect, terminal_effect
from toolwitness.findings import Confidence, Finding, Severity
from toolwitness.integrity.canonical import digest_surface
from toolwitness.lazyre import lazy_compile
from toolwitness.model import (
    ServerSurface,
    TextField,
    has_unhashed_text,
    surface_text_fields,
    tool_text_fields,
    unhashed_text_fields,
)
from toolwitness.textnorm import window

__all__ = [
    "HiddenPayload",
    "check_field",
    "hidden_unicode",
    "reveal_hidden",
    "skeleton",
    "text_hits",
]

RULE_IDS = tuple(f"TW-UNI-{n:03d}" for n in range(1, 13))
IDENTIFIER_KINDS = frozenset({"name", "schema-key", "key"})
_ASCII_CONTROL = lazy_compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\r(?!\n)")
_MAX_EVIDENCE = 2000
_CACHED_TEXT = 4096  # longer texts are analysed uncached: the cache must not pin huge strings
_TERMINAL_INTRODUCERS = frozenset("\x1b\x07\x90\x98\x9b\x9c\x9d\x9e\x9f")


@lru_cache(maxsize=1)
def _suspect() -> re.Pattern[str]:
    """One character class holding every code point any TW-UNI rule looks at (fast pre-filter)."""
    cfg = tables()
    spans = [(cfg.tags.first, cfg.tags.last), (cfg.controls.c0.first, cfg.controls.c0.last)]
    spans += [(cfg.controls.delete, cfg.controls.c1.last)]
    spans += [(r.first, r.last) for r in cfg.variation_selectors.ranges]
    spans += [(s.first, s.last) for s in (*cfg.unusual_whitespace, *cfg.invisible_format)]
    codes = {code for first, last in spans for code in range(first, last + 1)}
    codes |= {*cfg.bidi_by_code, *cfg.zero_width_by_code, *cfg.operators_by_code}
    return _class_of(codes - set(cfg.controls.allowed))


@server_check("unicode.hidden", RULE_IDS)
def hidden_unicode(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    # A tool whose hashed fields' canonical JSON is plain holds no character any TW-UNI rule
    # reports in any string (or key) inside those fields; the digests are computed once per
    # surface and reused by the result rows and the lock. What `tool_text_fields` reads outside
    # them (`_meta`, icons, vendor fields) is checked on its own.
    plain = [t.plain for t in digest_surface(surface).tools]
    pad = " " * tables().thresholds.padding_run
    for index, tool in enumerate(surface.tools):
        if plain[index]:
            if has_unhashed_text(tool):
                for field in unhashed_text_fields(tool, index):
                    yield from check_field(field, tool.name, ctx)
            if pad in (tool.description or "") or pad in (tool.title or ""):
                base = f"tools[{index}]"
                for attr in ("title", "description"):
                    text = getattr(tool, attr)
                    if text is not None:
                        found = TextField(f"{base}.{attr}", text, attr)
                        yield from check_field(found, tool.name, ctx)
            continue
        for field in tool_text_fields(tool, index):
            yield from check_field(field, tool.name, ctx)
    for field in surface_text_fields(surface):
        yield from check_field(field, None, ctx)


def check_field(field: TextField, tool: str | None, ctx: CheckContext) -> Iterator[Finding]:
    """Every TW-UNI finding for one text field (at most one finding per rule)."""
    text = field.text
    identifier = field.kind in IDENTIFIER_KINDS
    padded = None if identifier else _padding(text)
    if padded is not None:
        yield _padding_finding(field, padded, tool, ctx)
    if text.isascii() and _ASCII_CONTROL.search(text) is None:
        return
    hits = text_hits(text, identifier) if len(text) <= _CACHED_TEXT else _hits(text, identifier)
    for hit in hits:
        yield ctx.rules.finding(
            hit.rule_id,
            tool=tool,
            location=field.location,
            message=hit.message,
            evidence=hit.evidence,
            severity=hit.severity,
            confidence=hit.confidence,
        )


@lru_cache(maxsize=4096)
def text_hits(text: str, identifier: bool) -> tuple[Hit, ...]:
    """The TW-UNI hits for one string (pure; cached because catalogs repeat their texts)."""
    return tuple(_hits(text, identifier))


def _hits(text: str, identifier: bool) -> Iterator[Hit]:
    plain = text.isascii()
    effect = terminal_effect(text)  # None unless the text holds terminal controls
    suspect = plain or _suspect().search(text) is not None
    if suspect and not plain:
        for rule in (_tags, _selectors, _bidi, _zero_width, _invisible, _whitespace):
            yield from rule(text, identifier)
    if suspect:
        yield from _controls(text, effect)
    if effect is not None:
        yield from _terminal(text, effect)
    if not plain:
        yield from unicode_homoglyph.homoglyph_hits(text, identifier)


@lru_cache(maxsize=1)
def _padding_pattern() -> re.Pattern[str]:
    n = tables().thresholds.padding_run
    return re.compile(rf"[^\s][ \t]{{{n},}}(?=[^\s])")


def _padding(text: str) -> re.Match[str] | None:
    """A run of `padding_run` spaces or tabs after text on its line, with text after it (a
    possessive-free pattern of two character classes: linear)."""
    if "        " not in text and "\t" not in text:
        return None
    return _padding_pattern().search(text)


def _padding_finding(
    field: TextField, m: re.Match[str], tool: str | None, ctx: CheckContext
) -> Finding:
    run = m.end() - m.start() - 1
    return ctx.rules.finding(
        "TW-UNI-012",
        tool=tool,
        location=field.location,
        message=f"a run of {run} spaces pushes the rest of the line out of view",
        evidence=f"before: {window(field.text, max(0, m.start() - 60), m.start() + 1)} | after: "
        f"{window(field.text, m.end(), min(len(field.text), m.end() + 120))}",
    )


def _bounded(text: str) -> str:
    return text if len(text) <= _MAX_EVIDENCE else text[: _MAX_EVIDENCE - 1] + "…"


def _tags(text: str, identifier: bool) -> Iterator[Hit]:
    payload = tag_payload(text)
    if payload is None:
        return
    if payload.text is None:
        yield Hit(
            "TW-UNI-001",
            message=f"{payload.carriers} invisible Unicode tag characters with no ASCII mirror",
            evidence=window(text, payload.start, payload.end),
            severity=Severity.HIGH,
        )
        return
    yield Hit(
        "TW-UNI-001",
        message=(
            f"{payload.carriers} invisible Unicode tag characters spell out hidden text "
            f"({len(payload.text)} characters, decoded below)"
        ),
        evidence=_bounded(f"hidden text: {payload.text}"),
    )


def _selectors(text: str, identifier: bool) -> Iterator[Hit]:
    payload = selector_payload(text)
    if payload is None:
        return
    cfg = tables().variation_selectors
    presentation = {cfg.text_presentation - 0xFE00, cfg.emoji_presentation - 0xFE00}
    if payload.text is not None:
        message = f"{payload.carriers} variation selectors carry bytes that decode as UTF-8 text"
        yield Hit(
            "TW-UNI-002",
            message=message,
            evidence=_bounded(f"hidden text: {payload.text}"),
        )
        return
    only_presentation = set(payload.data) <= presentation
    yield Hit(
        "TW-UNI-002",
        message=(
            f"{payload.carriers} variation selectors without a base they can modify"
            + (" (repeated presentation selectors)" if only_presentation else "; bytes not text")
        ),
        evidence=f"carried bytes: {payload.data[:64].hex(' ')}",
        severity=Severity.LOW if only_presentation else Severity.HIGH,
        confidence=Confidence.HEURISTIC if only_presentation else Confidence.STRONG,
    )


def _bidi(text: str, identifier: bool) -> Iterator[Hit]:
    report = analyse_bidi(text)
    if report is None:
        return
    first = report.controls[0][0]
    logical, displayed = logical_and_displayed(text, first)
    evidence = f"controls: {report.names}; logical: {logical}; displayed: {displayed}"
    if report.marks_only:
        if not report.has_rtl_letters:
            yield Hit(
                "TW-UNI-004",
                message="directional marks in text with no right-to-left letters",
                evidence=evidence,
                severity=Severity.MEDIUM if identifier else None,
            )
        return
    if report.overrides:
        message = "a bidirectional override reorders how the text is displayed"
    elif report.unbalanced:
        message = "unbalanced bidirectional embeddings or isolates reorder the displayed text"
    elif not report.has_rtl_letters:
        message = "bidirectional embeddings or isolates in text with no right-to-left letters"
    else:
        return  # balanced isolates/embeddings in genuinely mixed-direction text
    severity = Severity.HIGH if report.overrides or report.unbalanced else Severity.MEDIUM
    yield Hit(
        "TW-UNI-003",
        message=message,
        evidence=evidence,
        severity=severity,
    )


def _zero_width(text: str, identifier: bool) -> Iterator[Hit]:
    zero_width = tables().zero_width_by_code
    every = zero_width_runs(text, identifier=identifier)
    runs = [(s, e) for s, e in every if any(ord(ch) in zero_width for ch in text[s:e])]
    if not runs:
        return
    decoded = zero_width_payloads(text)
    if decoded:
        yield _decoded_zero_width(decoded[0], len(decoded))
        return
    counts = Counter(
        zero_width[ord(ch)].name for s, e in runs for ch in text[s:e] if ord(ch) in zero_width
    )
    total = sum(counts.values())
    longest = max(e - s for s, e in runs)
    limits = tables().thresholds
    if identifier:
        severity = Severity.HIGH
    elif longest >= limits.zero_width_run or total >= limits.zero_width_total:
        severity = Severity.MEDIUM
    else:
        severity = Severity.LOW
    names = ", ".join(f"{name}×{n}" for name, n in sorted(counts.items()))
    yield Hit(
        "TW-UNI-005",
        message=(
            f"{total} zero-width characters (longest run {longest}) "
            "outside emoji and joining scripts"
        ),
        evidence=f"{names}; at: {window(text, runs[0][0], runs[0][1])}",
        severity=severity,
    )


def _decoded_zero_width(payload: HiddenPayload, runs: int) -> Hit:
    return Hit(
        "TW-UNI-005",
        message=(
            f"a run of {payload.carriers} zero-width characters decodes as hidden text"
            + (f" ({runs} decodable runs; the first is shown)" if runs > 1 else "")
        ),
        evidence=_bounded(f"hidden text: {payload.text}"),
        severity=Severity.CRITICAL,
        confidence=Confidence.CONFIRMED,
    )


def _class_of(codes: Iterable[int]) -> re.Pattern[str]:
    """A one-character class matching exactly `codes` (consecutive codes become ranges)."""
    ranges: list[list[int]] = []
    for code in sorted(set(codes)):
        if ranges and code == ranges[-1][1] + 1:
            ranges[-1][1] = code
        else:
            ranges.append([code, code])
    body = "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges)
    return re.compile(f"[{body}]" if body else "(?!)")


@lru_cache(maxsize=8)
def _pattern(name: str) -> re.Pattern[str]:
    cfg = tables()
    if name == "invisible":
        return _class_of([*cfg.operators_by_code, *cfg.format_by_code])
    if name in ("whitespace-identifier", "whitespace-prose"):
        every = name == "whitespace-identifier"
        return _class_of(c for c, span in cfg.whitespace_by_code.items() if every or span.prose)
    controls = cfg.controls
    codes = {*range(controls.c0.first, controls.c0.last + 1), controls.delete}
    codes |= set(range(controls.c1.first, controls.c1.last + 1))
    codes -= set(controls.allowed)
    if name == "controls-outside-escapes":
        codes -= {ord(ch) for ch in _TERMINAL_INTRODUCERS}
    return _class_of(codes)


def _occurrences(text: str, pattern: re.Pattern[str]) -> tuple[int, int, str] | None:
    """(first index, count, 'U+XXXX NAME×n, …') of the characters `pattern` matches."""
    first = pattern.search(text)
    if first is None:
        return None
    counts = Counter(pattern.findall(text))
    listing = ", ".join(f"{describe_char(ch)}×{n}" for ch, n in sorted(counts.items()))
    return first.start(), sum(counts.values()), listing


def _invisible(text: str, identifier: bool) -> Iterator[Hit]:
    found = _occurrences(text, _pattern("invisible"))
    if found is None:
        return
    at, count, listing = found
    yield Hit(
        "TW-UNI-006",
        message=f"{count} invisible operator or format characters",
        evidence=f"{listing}; at: {window(text, at, at + 1)}",
        severity=Severity.HIGH if identifier else None,
    )


def _whitespace(text: str, identifier: bool) -> Iterator[Hit]:
    pattern = _pattern("whitespace-identifier" if identifier else "whitespace-prose")
    found = _occurrences(text, pattern)
    if found is None:
        return
    at, count, listing = found
    where = "in an identifier" if identifier else "in running text"
    yield Hit(
        "TW-UNI-007",
        message=f"{count} blank-looking or unusual space characters {where}",
        evidence=f"{listing}; at: {window(text, at, at + 1)}",
        severity=Severity.HIGH if identifier else None,
    )


def _controls(text: str, effect: TerminalEffect | None) -> Iterator[Hit]:
    escapes = effect is not None and effect.sequences > 0
    found = _occurrences(text, _pattern("controls-outside-escapes" if escapes else "controls"))
    if found is None:
        return
    at, count, listing = found
    yield Hit(
        "TW-UNI-008",
        message=f"{count} control characters other than tab, newline and carriage return",
        evidence=f"{listing}; at: {window(text, at, at + 1)}",
    )


def _terminal(text: str, effect: TerminalEffect) -> Iterator[Hit]:
    hidden = effect.hidden_text(text)
    parts = [f"does: {'; '.join(sorted(effect.effects))}"]
    if effect.shown:
        parts.append(f"shows: {effect.shown[:300]}")
    if hidden:
        parts.append(f"hidden: {hidden[:600]}")
    parts += [f"swallowed: {s[:300]}" for s in effect.swallowed[:3]]
    parts += [f"link {shown[:100]!r} -> {target[:300]}" for shown, target in effect.hyperlinks[:5]]
    parts += [f"window title: {t[:200]}" for t in effect.titles[:3]]
    parts += [f"clipboard <- {c[:300]}" for c in effect.clipboard[:3]]
    if not effect.complete:
        parts.append("the terminal model stopped at its work bound; more may be hidden")
    conceals = bool(hidden or effect.swallowed or effect.hyperlinks or effect.titles)
    backspaces = "moves the cursor back with backspace" in effect.effects
    if effect.clipboard:
        severity = Severity.CRITICAL
    elif effect.sequences == 0 and conceals and not backspaces:
        severity = Severity.MEDIUM  # bare CRs only: may be old Mac line endings, still hides text
    elif conceals or not effect.complete:
        severity = Severity.HIGH
    elif effect.sequences == 0:
        return  # a backspace or bare CR that hides nothing: the control rule reports it
    elif effect.effects <= {"changes text style or colour"}:
        severity = Severity.LOW
    else:
        severity = Severity.MEDIUM
    message = f"{effect.sequences} terminal escape sequences" + (
        "; a terminal would hide part of the text" if conceals else ""
    )
    if effect.sequences == 0:
        message = "backspaces or carriage returns overwrite text on a terminal"
    yield Hit(
        "TW-UNI-009",
        message=message,
        evidence=_bounded(" | ".join(parts)),
        severity=severity,
    )

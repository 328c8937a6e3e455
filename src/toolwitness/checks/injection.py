"""TW-INJ: tool poisoning in every text field a client shows the model.

For each field: analyse its sentence structure once, run the family detectors, decode encoded
runs one level and re-run them on the decoded text, and escalate a field where two or more
families co-occur to a critical compound finding. Parameters are compared with the tool's
purpose separately (exfiltration-shaped parameters).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from functools import lru_cache
from typing import TypeVar

from toolwitness.checks import inj_directives, inj_payloads, inj_targets
from toolwitness.checks import inj_triggers as trig
from toolwitness.checks.inj_model import (
    COMPOUND_RULE,
    ENCODED,
    HIDDEN,
    RULE_OF,
    FieldContext,
    Signal,
)
from toolwitness.checks.inj_params import exfil_params
from toolwitness.checks.inj_purpose import purpose_words, server_purpose
from toolwitness.checks.interface import CheckContext, server_check
from toolwitness.checks.language import Analysis, analyse, split_identifier, tokens
from toolwitness.checks.lexicon import Lexicon, lexicon
from toolwitness.checks.secrets_scan import find_secrets, may_hold_token, redact
from toolwitness.checks.unicode_decode import reveal_hidden
from toolwitness.findings import Finding, Severity
from toolwitness.model import ServerSurface, TextField, surface_text_fields, tool_text_fields
from toolwitness.textnorm import excerpt, nfc, window

Detector = Callable[[Analysis, FieldContext, Lexicon], Iterable[Signal]]
_T = TypeVar("_T")

DETECTORS: tuple[Detector, ...] = (
    inj_directives.authority,
    inj_directives.secrecy,
    inj_directives.sequencing,
    inj_directives.ranking,
    inj_targets.sensitive_targets,
    inj_targets.shadowing,
    inj_targets.harmful_intent,
    inj_payloads.shell_commands,
    inj_payloads.suspicious_urls,
    inj_payloads.credentials,
)
_PARAM = re.compile(r"\.properties(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[\"((?:[^\"\\]|\\.){0,200})\"\])")
_IDENTIFIER_KINDS = frozenset({"name", "schema-key"})
ALL_RULES = sorted({*RULE_OF.values(), COMPOUND_RULE})


_WORDLIKE = re.compile(r"[A-Za-z0-9_\-]{1,64}")
_INERT = _WORDLIKE  # ASCII word characters only: nothing to analyse, nothing hidden
NAME_DETECTORS: tuple[Detector, ...] = (inj_directives.authority, inj_targets.harmful_intent)


def detectors_for(text: str, fctx: FieldContext) -> tuple[Detector, ...]:
    """A single identifier-like word (a type, an enum value, a key) cannot carry a sentence:
    names are read for stated intent and override words, other words need no analysis."""
    if fctx.kind in _IDENTIFIER_KINDS:
        return NAME_DETECTORS
    return () if _WORDLIKE.fullmatch(text) else DETECTORS


def _text_gates(text: str, scan: trig.TextScan, lex: Lexicon) -> frozenset[Detector]:
    """Detectors whose necessary condition (see inj_triggers) holds on the text alone; for
    shadowing, the text half of its gate (the other half reads the tool's siblings)."""
    mask = scan.mask
    opened = _word_gates(text, mask)
    if mask & trig.SECRECY:
        opened.append(inj_directives.secrecy)
    if mask & trig.SEQ_MARKER and mask & trig.SEQ_SCOPE:
        opened.append(inj_directives.sequencing)
    if mask & trig.RANKING:
        opened.append(inj_directives.ranking)
    if inj_targets.mentions_any_target(scan.lower, lex):
        opened.append(inj_targets.sensitive_targets)
    if mask & trig.OTHER_TOOL or "@" in text or "://" in text:
        opened.append(inj_targets.shadowing)
    if trig.shell_possible(text, scan.lower, lex):
        opened.append(inj_payloads.shell_commands)
    if "://" in text or inj_payloads.may_hold_ip_url(text):
        opened.append(inj_payloads.suspicious_urls)
    if any(c in text for c in ":=-") or may_hold_token(text):
        opened.append(inj_payloads.credentials)
    return frozenset(opened)


def _word_gates(text: str, mask: int) -> list[Detector]:
    """The gates of the name detectors (authority, harmful intent): word mask and markup only."""
    opened: list[Detector] = []
    if mask & trig.AUTHORITY or any(c in text for c in "<[#"):
        opened.append(inj_directives.authority)
    if mask & trig.INTENT:
        opened.append(inj_targets.harmful_intent)
    return opened


def _short_cache(func: Callable[[str, bool], _T]) -> Callable[[str, bool], _T]:
    """An LRU cache per (text, flag) for texts up to `CACHE_MAX_CHARS`: catalogs repeat short
    strings; long hostile ones are computed each time rather than pinned in memory."""
    cached = lru_cache(maxsize=16384)(func)

    def call(text: str, flag: bool) -> _T:
        return cached(text, flag) if len(text) <= trig.CACHE_MAX_CHARS else func(text, flag)

    return call


@_short_cache
def _shared_text_gates(text: str, names_only: bool) -> frozenset[Detector]:
    """Names only need the two name gates; other texts get every text gate."""
    scan = trig.scan(text)
    if names_only:
        return frozenset(_word_gates(text, scan.mask))
    return _text_gates(text, scan, lexicon())


def _gate(
    detector: Detector,
    opened: frozenset[Detector],
    scan: trig.TextScan,
    fctx: FieldContext,
) -> bool:
    """A necessary condition for `detector` to emit anything (see inj_triggers)."""
    if detector in opened:
        return True
    if detector is inj_targets.shadowing:
        own = (fctx.tool or "").lower()
        return any(w != own for w in scan.words & fctx.siblings)
    return False


# Detectors whose result depends on the text alone (not on the tool's purpose or siblings):
# computed once per distinct text, since catalogs repeat descriptions ("Repository owner").
CONTEXT_FREE = frozenset(
    {
        inj_directives.authority,
        inj_directives.secrecy,
        inj_directives.sequencing,
        inj_directives.ranking,
        inj_targets.harmful_intent,
        inj_payloads.credentials,
    }
)
_BLANK = FieldContext("text", "", None, frozenset(), frozenset(), None)


def _gates(text: str, lex: Lexicon, names_only: bool) -> tuple[trig.TextScan, frozenset[Detector]]:
    if lex is lexicon():
        return trig.scan(text), _shared_text_gates(text, names_only)
    lower, words = trig.scan_words(text)
    scan = trig.TextScan(lower, words, trig.gate_mask(words, lex))
    return scan, _text_gates(text, scan, lex)


def _run(
    detectors: Iterable[Detector], text: str, fctx: FieldContext, lex: Lexicon
) -> list[Signal]:
    """Gate first: the sentence analysis is only built when some detector may fire."""
    chosen = tuple(detectors)
    scan, opened = _gates(text, lex, set(chosen) <= set(NAME_DETECTORS))
    open_ = [d for d in chosen if _gate(d, opened, scan, fctx)]
    if not open_:
        return []
    analysis = analyse(text, lex)
    return [s for detector in open_ for s in detector(analysis, fctx, lex)]


@_short_cache
def _context_free(text: str, names_only: bool) -> tuple[Signal, ...]:
    chosen = NAME_DETECTORS if names_only else DETECTORS
    free = [d for d in chosen if d in CONTEXT_FREE]
    return tuple(_run(free, text, _BLANK, lexicon()))


def _may_encode(text: str) -> bool:
    """Encoded runs need %, backslash, & or a whitespace-free run of 24+ characters."""
    return any(c in text for c in "%\\&") or any(len(t) >= 24 for t in text.split())


def detect(text: str, fctx: FieldContext, lex: Lexicon, *, decode: bool = True) -> list[Signal]:
    """Every signal in one piece of text (and, one level deep, in what it encodes)."""
    chosen = detectors_for(text, fctx)
    if not chosen:
        return []
    shared = lex is lexicon()
    signals = list(_context_free(text, chosen is NAME_DETECTORS)) if shared else []
    rest = [d for d in chosen if not (shared and d in CONTEXT_FREE)]
    signals += _run(rest, text, fctx, lex)
    if decode and _may_encode(text):
        for payload in inj_payloads.decode_payloads(text):
            inner = detect(payload.text, fctx, lex, decode=False)
            shown = f"{payload.encoding} decodes to: {excerpt(redact(payload.text), 200)}"
            if any(s.severity.at_least(Severity.MEDIUM) for s in inner):
                families = ", ".join(sorted({s.family for s in inner}))
                signals.append(
                    Signal(
                        ENCODED,
                        Severity.HIGH,
                        payload.start,
                        payload.end,
                        f"hides instructions in {payload.encoding} encoding ({families})",
                        evidence=shown,
                    )
                )
            elif len(payload.text.split()) >= 4:
                signals.append(
                    Signal(
                        ENCODED,
                        Severity.LOW,
                        payload.start,
                        payload.end,
                        f"carries {payload.encoding}-encoded text",
                        evidence=shown,
                    )
                )
    return signals


def hidden_signals(text: str, fctx: FieldContext, lex: Lexicon) -> list[Signal]:
    """Re-check text hidden in Tags / variation selectors (decoded by the unicode checks)."""
    out = []
    for revealed in reveal_hidden(text):
        hidden_text = revealed.text
        if not hidden_text:
            continue
        inner = detect(hidden_text, fctx, lex, decode=True)
        if any(s.severity.at_least(Severity.MEDIUM) for s in inner):
            families = ", ".join(sorted({s.family for s in inner}))
            out.append(
                Signal(
                    HIDDEN,
                    Severity.CRITICAL,
                    0,
                    len(text),
                    f"invisible characters hide instructions ({families})",
                    evidence=f"hidden text: {excerpt(redact(hidden_text), 200)}",
                )
            )
    return out


@_short_cache
def _quiet_words(raw: str, identifier: bool) -> frozenset[str] | None:
    """Words of a field whose every signal source is closed by its text alone, except the
    shadowing gate's sibling-name test (the one gate that reads the tool's context); None when
    the field needs the full per-field pass. Cached: catalogs repeat strings."""
    text = nfc(raw)
    if any(revealed.text for revealed in reveal_hidden(text)):
        return None
    if identifier:
        text = " ".join(split_identifier(text))
        chosen = NAME_DETECTORS
    else:
        chosen = () if _WORDLIKE.fullmatch(text) else DETECTORS
    if not chosen:
        return frozenset()
    names_only = chosen is NAME_DETECTORS
    opened = _shared_text_gates(text, names_only)
    # With every gate closed the context-free detectors are silent: skip computing them.
    if not opened.isdisjoint(chosen) and _context_free(text, names_only):
        return None
    if _may_encode(text) and next(iter(inj_payloads.decode_payloads(text)), None) is not None:
        return None
    if not opened.isdisjoint(d for d in chosen if d not in CONTEXT_FREE):
        return None
    return trig.scan(text).words if inj_targets.shadowing in chosen else frozenset()


def _quiet(field: TextField, own: str, siblings: frozenset[str]) -> bool:
    """True when `field_findings` would yield nothing for this field (given no extra signals)."""
    words = _quiet_words(field.text, field.kind in _IDENTIFIER_KINDS)
    return words is not None and all(w == own for w in words & siblings)


def _evidence(text: str, signal: Signal) -> str:
    if signal.evidence is not None:
        return signal.evidence
    secrets = find_secrets(text)
    if not secrets:
        return window(text, signal.start, signal.end)
    shift = 0
    start, end = signal.start, signal.end
    for hit in secrets:
        delta = len(hit.redacted(text)) - (hit.end - hit.start)
        if hit.end <= signal.start:
            start += delta
        if hit.end <= signal.end:
            shift += delta
    return window(redact(text, secrets), start, end + shift)


def field_findings(
    field: TextField,
    fctx: FieldContext,
    ctx: CheckContext,
    lex: Lexicon,
    extra: list[Signal] | None = None,
) -> Iterator[Finding]:
    raw = nfc(field.text)
    text = _field_text(field)
    signals = detect(text, fctx, lex) + hidden_signals(raw, fctx, lex) + (extra or [])
    best: dict[str, Signal] = {}
    for sig in signals:
        held = best.get(sig.rule_id)
        if held is None or sig.severity.rank > held.severity.rank:
            best[sig.rule_id] = sig
    for rule_id, sig in sorted(best.items()):
        yield ctx.rules.finding(
            rule_id,
            tool=fctx.tool,
            location=fctx.location,
            message=f"this field {sig.message}",
            evidence=_evidence(text, sig),
            severity=sig.severity,
        )
    strong = sorted({s.family for s in signals if s.severity.at_least(Severity.MEDIUM)})
    if len(strong) >= 2:
        yield ctx.rules.finding(
            COMPOUND_RULE,
            tool=fctx.tool,
            location=fctx.location,
            message=f"this field combines {len(strong)} poisoning families: {', '.join(strong)}",
            evidence=excerpt(redact(text)),
        )


def _param_of(location: str) -> str | None:
    found = None
    for m in _PARAM.finditer(location):
        found = m.group(1) or m.group(2)
    return found


def _field_text(field: TextField) -> str:
    text = nfc(field.text)
    if field.kind in _IDENTIFIER_KINDS:
        return " ".join(split_identifier(text))
    return text


@server_check("injection.poisoning", ALL_RULES)
def tool_poisoning(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    lex = lexicon()
    names = {t.name.lower(): t.name for t in surface.tools}
    siblings = frozenset(names)  # detectors skip the tool's own name
    for i, tool in enumerate(surface.tools):
        purpose = purpose_words(tool, lex)
        param_signals: dict[str, list[Signal]] = {}
        for found, sig in exfil_params(
            tool.name, tool.input_schema, f"tools[{i}].inputSchema", purpose, lex
        ):
            param_signals.setdefault(found.location, []).append(sig)
        param_words: dict[str, frozenset[str]] = {}
        own = tool.name.lower()
        for field in tool_text_fields(tool, i):
            if field.kind not in _IDENTIFIER_KINDS and _INERT.fullmatch(field.text):
                continue  # a bare word such as "string" carries no sentence and no hidden text
            if field.location not in param_signals and _quiet(field, own, siblings):
                continue  # nothing in this text can fire (checked once per distinct text)
            param = _param_of(field.location)
            words = purpose
            if param:
                if param not in param_words:
                    param_words[param] = purpose | frozenset(split_identifier(param))
                words = param_words[param]
            fctx = FieldContext(field.kind, field.location, tool.name, words, siblings, param)
            yield from field_findings(field, fctx, ctx, lex, param_signals.get(field.location))
    everything = server_purpose(surface)
    for field in surface_text_fields(surface):
        named = sorted(
            {t.text for t in tokens(nfc(field.text)) if len(t.text) > 2 and t.text in names}
        )
        promoted = names[named[0]] if len(named) == 1 else None  # the one tool it names, if any
        fctx = FieldContext(field.kind, field.location, promoted, everything, siblings, None)
        yield from field_findings(field, fctx, ctx, lex)

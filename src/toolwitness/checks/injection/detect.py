"""TW-INJ detection: gate each text, analyse its sentences only when some detector may fire, run
the family detectors, and decode encoded or hidden text one level and re-check it.

`detect(text, fctx, lex)` is every signal in one piece of text; `hidden_signals` re-checks what
invisible characters hide. Gates are necessary conditions (see inj_triggers): a closed gate
changes no result, it only skips work.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import TypeVar

from toolwitness.checks.crosstool.tokens import Destination, delegated_tld, destinations
from toolwitness.checks.injection import directives as inj_directives
from toolwitness.checks.injection import frames as inj_frames
from toolwitness.checks.injection import frames_actions as inj_actions
from toolwitness.checks.injection import frames_consent as inj_consent
from toolwitness.checks.injection import frames_custody as inj_custody
from toolwitness.checks.injection import frames_elsewhere as inj_elsewhere
from toolwitness.checks.injection import frames_grant as inj_grant
from toolwitness.checks.injection import frames_ordered as inj_ordered
from toolwitness.checks.injection import frames_policy as inj_policy
from toolwitness.checks.injection import frames_precedence as inj_precedence
from toolwitness.checks.injection import frames_scripted as inj_scripted
from toolwitness.checks.injection import frames_shadow as inj_shadow
from toolwitness.checks.injection import frames_turns as inj_turns
from toolwitness.checks.injection import outside_tools as inj_outside
from toolwitness.checks.injection import payloads as inj_payloads
from toolwitness.checks.injection import targets as inj_targets
from toolwitness.checks.injection import triggers as trig
from toolwitness.checks.injection.decoders import Decoded, function_words, may_encode
from toolwitness.checks.injection.model import ENCODED, HIDDEN, FieldContext, Signal
from toolwitness.checks.injection.transforms import reads_reversed
from toolwitness.checks.text.language import Analysis, analyse
from toolwitness.checks.text.lexicon import Lexicon, lexicon
from toolwitness.checks.text.secrets_scan import may_hold_secret, redact, token_needles
from toolwitness.checks.text.words import reader_words
from toolwitness.checks.unicode.decode import reveal_hidden
from toolwitness.findings import Severity
from toolwitness.lazyre import lazy_compile
from toolwitness.memo import held_text_cache
from toolwitness.textnorm import excerpt

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
    inj_precedence.precedence,
    inj_frames.concealment,
    inj_actions.actions,
    inj_shadow.rewire,
    inj_consent.consent_bypass,
    inj_scripted.scripted_answer,
    inj_ordered.ordered_authority,
    inj_grant.privilege_grant,
    inj_policy.policy_keys,
    inj_custody.abbreviated_secrets,
    inj_outside.outside_tools,
    inj_turns.turn_capture,
    *(reading for _, reading in inj_elsewhere.READINGS),
)
IDENTIFIER_KINDS = frozenset({"name", "schema-key", "key"})


WORDLIKE = re.compile(r"[A-Za-z0-9_\-]{1,64}")
INERT = WORDLIKE  # ASCII word characters only: nothing to analyse, nothing hidden
NAME_DETECTORS: tuple[Detector, ...] = (inj_directives.authority, inj_targets.harmful_intent)


def detectors_for(text: str, fctx: FieldContext) -> tuple[Detector, ...]:
    """A single identifier-like word (a type, an enum value, a key) cannot carry a sentence:
    names are read for stated intent and override words, other words need no analysis."""
    if fctx.kind in IDENTIFIER_KINDS:
        return NAME_DETECTORS
    return () if WORDLIKE.fullmatch(text) else DETECTORS


def _text_gates(text: str, scan: trig.TextScan, lex: Lexicon) -> frozenset[Detector]:
    """Detectors whose necessary condition (see inj_triggers) holds on the text alone; for
    shadowing, the text half of its gate (the other half reads the tool's siblings)."""
    mask = scan.mask
    opened = _word_gates(text, mask, scan.words, lex)
    if mask & trig.SECRECY and trig.secrecy_may_fire(scan.words, lex):
        opened.append(inj_directives.secrecy)
    if mask & trig.SEQ_MARKER and mask & trig.SEQ_SCOPE:
        opened.append(inj_directives.sequencing)
    # a turn of the chat under a quantifier, with a marker of order or the chat's content taken
    # (both are gates the quiet test keeps open: the sequencing pair and the action frames')
    if mask & trig.SEQ_SCOPE and (
        mask & trig.SEQ_MARKER or (mask & (trig.TAKE | trig.CALL) and mask & trig.CONVO)
    ):
        opened.append(inj_turns.turn_capture)
    if mask & trig.RANKING:
        opened.append(inj_directives.ranking)
    runs = inj_targets.text_runs(scan.lower)  # (cached: the target search reads them too)
    if inj_targets.mentions_in_runs(runs, lex):  # `mentions_any_target`
        opened.append(inj_targets.sensitive_targets)
    if mask & trig.OTHER_TOOL or "@" in text or "://" in text:
        opened.append(inj_targets.shadowing)
    # `shell_may_open` (a substring and whole-run superset of `shell_possible`, without its two
    # splits and sets) first: it closes most texts
    if (
        trig.shell_may_open(text, scan.lower, runs, lex)
        and trig.shell_possible(text, scan.lower, lex)
        and inj_payloads.may_run_shell(text, lex)
    ):
        opened.append(inj_payloads.shell_commands)
    if "://" in text or inj_payloads.may_hold_ip_url(text):
        opened.append(inj_payloads.suspicious_urls)
    if may_hold_secret(text, token_needles(), lex):  # `find_secrets`' necessary condition
        opened.append(inj_payloads.credentials)
    precedence, conceal, acts = trig.frame_gates(mask, text, scan.lower, scan.words)
    if precedence:
        opened.append(inj_precedence.precedence)
    if conceal:
        opened.append(inj_frames.concealment)
    if acts:
        opened.append(inj_actions.actions)
    if inj_shadow.may_rewire(text, scan.words):
        opened.append(inj_shadow.rewire)
    if inj_consent.may_bypass(scan.words):
        opened.append(inj_consent.consent_bypass)
    if inj_scripted.may_script_answer(scan.words):
        opened.append(inj_scripted.scripted_answer)
    if inj_ordered.may_order_authority(text):
        opened.append(inj_ordered.ordered_authority)
    if inj_grant.may_grant(scan.words, text):
        opened.append(inj_grant.privilege_grant)
    if inj_policy.may_set_off(text, scan.words):
        opened.append(inj_policy.policy_keys)
    if inj_custody.may_name_abbreviated_secret(text):
        opened.append(inj_custody.abbreviated_secrets)
    if inj_outside.may_name_outside_tool(text):
        opened.append(inj_outside.outside_tools)
    opened += [reading for gate, reading in inj_elsewhere.READINGS if gate(text)]
    return frozenset(opened)


def _word_gates(text: str, mask: int, words: frozenset[str], lex: Lexicon) -> list[Detector]:
    """The gates of the name detectors (authority, harmful intent): word mask and markup only.
    Authority's word half is the mask's test narrowed by the words its readings start from
    (`authority_may_fire`: an override object alone, "the given filters", reads nothing)."""
    opened: list[Detector] = []
    markup = "<" in text or "[" in text or "#" in text
    if markup or (trig.authority_may_open(mask) and trig.authority_may_fire(words, lex)):
        opened.append(inj_directives.authority)
    if mask & trig.INTENT:
        opened.append(inj_targets.harmful_intent)
    return opened


def short_cache(func: Callable[[str, bool], _T]) -> Callable[[str, bool], _T]:
    """An LRU cache per (text, flag) for texts up to `CACHE_MAX_CHARS`: catalogs repeat short
    strings; long hostile ones are computed each time rather than pinned in memory."""
    cached = held_text_cache(lru_cache(maxsize=16384)(func))

    def call(text: str, flag: bool) -> _T:
        return cached(text, flag) if len(text) <= trig.CACHE_MAX_CHARS else func(text, flag)

    return call


@short_cache
def shared_text_gates(text: str, names_only: bool) -> frozenset[Detector]:
    """Names only need the two name gates; other texts get every text gate."""
    scan = trig.scan(text)
    if names_only:
        return frozenset(_word_gates(text, scan.mask, scan.words, lexicon()))
    return _text_gates(text, scan, lexicon())


# The detectors `_gate` may open beyond the opened set (`_run` asks it of no other).
_CONTEXT_GATED = frozenset({inj_targets.shadowing, inj_actions.actions})


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
    if detector is inj_actions.actions:  # a `target_host` parameter is the other half of AIM
        return fctx.victim > 0 and bool(scan.mask & trig.ACT)
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
        inj_precedence.precedence,
        # not concealment: it reads the tool's name (`frames.tool_act`)
    }
)
_BLANK = FieldContext("text", "", None, frozenset(), frozenset(), None)


def _gates(text: str, lex: Lexicon, names_only: bool) -> tuple[trig.TextScan, frozenset[Detector]]:
    if lex is lexicon():
        return trig.scan(text), shared_text_gates(text, names_only)
    lower, words = trig.scan_words(text)
    scan = trig.TextScan(lower, words, trig.gate_mask(words, lex))
    return scan, _text_gates(text, scan, lex)


_NAMES = frozenset(NAME_DETECTORS)


def _run(
    detectors: Iterable[Detector], text: str, fctx: FieldContext, lex: Lexicon
) -> list[Signal]:
    """Gate first: the sentence analysis is only built when some detector may fire. (`_gate`
    is asked only of a closed detector whose gate also reads the field's context.)"""
    chosen = tuple(detectors)
    scan, opened = _gates(text, lex, all(map(_NAMES.__contains__, chosen)))
    open_ = [d for d in chosen
             if d in opened or (d in _CONTEXT_GATED and _gate(d, opened, scan, fctx))]  # fmt: skip
    if not open_:
        return []
    analysis = analyse(text, lex)
    return [s for detector in open_ for s in detector(analysis, fctx, lex)]


@short_cache
def context_free(text: str, names_only: bool) -> tuple[Signal, ...]:
    chosen = NAME_DETECTORS if names_only else DETECTORS
    free = [d for d in chosen if d in CONTEXT_FREE]
    return tuple(_run(free, text, _BLANK, lexicon()))


def detect(
    text: str,
    fctx: FieldContext,
    lex: Lexicon,
    *,
    decode: bool = True,
    payloads: Sequence[Decoded] | None = None,
) -> list[Signal]:
    """Every signal in one piece of text (and, one level deep, in what it encodes).
    `payloads`: `decode_payloads(text, words)` when the caller has already listed them."""
    chosen = detectors_for(text, fctx)
    if not chosen:
        return []
    shared = lex is lexicon()
    signals = list(context_free(text, chosen is NAME_DETECTORS)) if shared else []
    rest = [d for d in chosen if not (shared and d in CONTEXT_FREE)]
    signals += _run(rest, text, fctx, lex)
    if signals and (fctx.param is not None or fctx.params or fctx.kind == "name"):
        signals = [s for s in signals if not inj_directives.quiet_in_context(text, s, fctx)]
    words = trig.scan(text).words if shared else None
    if decode and (payloads is not None or may_encode(text, words)):
        if payloads is None:
            payloads = list(inj_payloads.decode_payloads(text, words))
        for payload in payloads:
            inner = [s for s in detect(payload.text, fctx, lex, decode=False)
                     if not _visible(text, payload.text, s)]  # fmt: skip
            shown = f"{payload.encoding} decodes to: {excerpt(redact(payload.text), 200)}"
            harmful = any(s.severity.at_least(Severity.MEDIUM) for s in inner)
            if harmful and inj_payloads.shown_example(text, payload.start, fctx, lex):
                severity = Severity.LOW
                message = f"shows a {payload.encoding}-encoded example of an instruction"
            elif harmful:
                families = ", ".join(sorted({s.family for s in inner}))
                severity = Severity.HIGH
                message = f"hides instructions in {payload.encoding} encoding ({families})"
            elif len(payload.text.split()) >= 3 or _hidden_words(text, payload) >= _HIDDEN_PROSE:
                hidden = _hidden_words(text, payload)
                place = _hidden_place(text, payload)
                if inj_payloads.codec_tool(fctx) and (
                    place is None
                    or inj_payloads.codec_named(fctx)
                    or inj_payloads.shown_example(text, payload.start, fctx, lex)
                ):
                    # a tool for tests or monitoring hides no address in a sample it shows
                    severity = Severity.LOW
                    message = f"carries {payload.encoding}-encoded text"
                elif place is not None:
                    # an address in prose no reader sees, whatever its language
                    severity = Severity.MEDIUM
                    message = f"hides {place} in {payload.encoding}-encoded prose"
                elif hidden >= _HIDDEN_PROSE and reader_words(payload.text) >= 4:
                    severity = Severity.MEDIUM
                    message = f"hides {hidden} words of prose in {payload.encoding} encoding"
                else:
                    severity = Severity.LOW
                    message = f"carries {payload.encoding}-encoded text"
            else:
                continue
            signals.append(
                Signal(ENCODED, severity, payload.start, payload.end, message, evidence=shown)
            )
    return signals


_VISIBLE_MIN = 4  # a shorter match ("rm") may occur by chance in the text as written


def _visible(raw: str, decoded: str, signal: Signal) -> bool:
    """What the signal matched in the decoded text is in the field as written: a reader sees
    it there, so the decoding hides nothing of it (the skeleton of a Cyrillic sentence around
    an ASCII `rm -rf /` is not a command hidden in confusable letters)."""
    found = decoded[signal.start : signal.end]
    return signal.evidence is None and len(found.strip()) >= _VISIBLE_MIN and found in raw


# Whole-field transforms read a text another way (its reversal, its letters' skeletons, the
# text without its joiners): in many scripts that finds words a person already reads, so only
# the encodings of a run (bytes, escapes, code lists, slugs) count as hiding prose.
_WHOLE_TEXT = frozenset(
    {"rot13", "reversed", "right-to-left override", "zero-width split", "confusable letters"}
)
_HIDDEN_PROSE = 6  # words a reader cannot see in the raw run: a sentence, not a sample value
_LETTERS = lazy_compile(r"[^\W\d_]{2,}")
def _hidden_words(raw: str, payload: Decoded) -> int:
    """How many words of the decoded text a reader does not see in the field as written: escapes
    sprinkled through readable text ("caf&eacute;") hide none; a run of entities or bytes hides
    them all."""
    seen = {w.lower() for w in _LETTERS.findall(raw)}
    if payload.chain[0] == "reversed" and reads_reversed(raw[payload.start : payload.end]):
        # written backwards in any language: no word of it reads as written
        return sum(reader_words(w) for w in _LETTERS.findall(payload.text) if w.lower() not in seen)
    if payload.chain[0] in _PROSE_TRANSFORMS:
        # ROT13 or reversal of the whole field turns the visible prose into gibberish and the
        # hidden part into prose: count only the hidden words of clauses that read as English
        # (three distinct function words, a quarter of the words: reversed Spanish gives "on",
        # "is", "in" by chance), so a field written plainly hides nothing
        plain = function_words()
        hidden = 0
        for chunk in _CHUNKS.split(payload.text):
            words = [w.lower() for w in _LETTERS.findall(chunk)]
            found = [w for w in words if w in plain]
            if len(set(found)) >= 3 and 4 * len(found) >= len(words):
                hidden += sum(1 for w in words if w not in seen)
        return hidden
    if payload.chain[0] in _WHOLE_TEXT:
        return 0
    # (a letter run of an unspaced script is a phrase: `text.words` counts it by characters)
    return sum(reader_words(w) for w in _LETTERS.findall(payload.text) if w.lower() not in seen)


def _hidden_place(raw: str, payload: Decoded) -> str | None:
    """An address (e-mail, URL, IBAN, wallet, phone) in the decoded prose that the field as
    written does not show: where the hidden text sends something, in any language. Whole-field
    transforms (reversal, skeletons) read visible text another way and are not counted."""
    if payload.chain[0] in _WHOLE_TEXT and payload.chain[0] not in _PROSE_TRANSFORMS:
        return None
    for place in destinations(payload.text):
        if place.value in raw:
            continue
        if payload.chain[0] in _PROSE_TRANSFORMS and not _plain_address(place):
            continue  # ROT13 or reversal of what is written turns an address into another shape
        return f"an address ({place.kind})"
    return None


def _plain_address(place: Destination) -> bool:
    """A web address or an e-mail address under a delegated top-level domain: what a ROT13 or
    a reversal of visible text does not produce by chance ("uggcf://" is no scheme,
    "oi.emca@tsal.tsrif" has no such domain)."""
    if place.kind == "url":
        return place.value.lower().startswith(("http://", "https://", "ftp://"))
    if place.kind in ("email", "host") and place.host:
        return delegated_tld(place.host.rpartition(".")[2])
    return False


_PROSE_TRANSFORMS = frozenset({"rot13", "reversed"})
_CHUNKS = lazy_compile(r"[.!?;:\n]+")


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

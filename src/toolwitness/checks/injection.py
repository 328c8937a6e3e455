"""TW-INJ: tool poisoning in every text field a client shows the model.

For each field: analyse its sentence structure once, run the family detectors, decode encoded
runs one level and re-run them on the decoded text, and escalate a field where two or more
families co-occur to a critical compound finding. Parameters are compared with the tool's
purpose separately (exfiltration-shaped parameters).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, TypeVar

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
from toolwitness.checks.inj_params import exfil_params, may_ask
from toolwitness.checks.inj_purpose import purpose_words, server_purpose
from toolwitness.checks.interface import CheckContext, server_check
from toolwitness.checks.language import Analysis, analyse, split_identifier, tokens
from toolwitness.checks.lexicon import Lexicon, lexicon
from toolwitness.checks.secrets_scan import (
    Needles,
    find_secrets,
    may_hold_secret,
    redact,
    token_needles,
)
from toolwitness.checks.unicode_decode import reveal_hidden
from toolwitness.checks.unicode_terminal import has_terminal_controls
from toolwitness.findings import Finding, Severity
from toolwitness.model import (
    ServerSurface,
    TextField,
    Tool,
    surface_text_fields,
    tool_text_fields,
)
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
    if may_hold_secret(text, token_needles(), lex):  # `find_secrets`' necessary condition
        opened.append(inj_payloads.credentials)
    return frozenset(opened)


def _word_gates(text: str, mask: int) -> list[Detector]:
    """The gates of the name detectors (authority, harmful intent): word mask and markup only."""
    opened: list[Detector] = []
    if mask & trig.AUTHORITY or "<" in text or "[" in text or "#" in text:
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
    if "%" in text or "\\" in text or "&" in text:
        return True
    return len(text) >= 24 and max(map(len, text.split()), default=0) >= 24


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


def _nothing_hidden(text: str) -> bool:
    """True only when `reveal_hidden(text)` is empty: for ASCII text it reports the terminal
    channel alone, which needs terminal controls (control characters, absent from printable
    ASCII)."""
    return text.isascii() and (text.isprintable() or not has_terminal_controls(text))


_NAME_BITS = trig.AUTHORITY | trig.INTENT
_TEXT_BITS = trig.AUTHORITY | trig.SECRECY | trig.RANKING | trig.OTHER_TOOL | trig.INTENT
_SEQUENCE_BITS = trig.SEQ_MARKER | trig.SEQ_SCOPE


@dataclass(frozen=True)
class _Tables:
    """What the closed-gate tests read, fetched once per lexicon."""

    lex: Lexicon
    triggers: trig.Triggers
    anchors: dict[str, tuple[tuple[str, frozenset[str]], ...]]
    needles: Needles


_TABLES: list[_Tables] = []


def _tables() -> _Tables:
    lex = lexicon()
    if not _TABLES or _TABLES[0].lex is not lex:
        _TABLES[:] = [
            _Tables(lex, trig.triggers(lex), inj_targets.target_anchors(lex), token_needles())
        ]
    return _TABLES[0]


def _text_gates_closed(text: str, tables: _Tables) -> frozenset[str] | None:
    """The text's word set when every gate in `_text_gates` is closed, else None (undecided).
    Each test below is the gate's own test or a superset of it (see the functions called)."""
    if "<" in text or "[" in text or "#" in text or "@" in text or "://" in text:
        return None  # authority markup, shadowing addresses, URLs
    if may_hold_secret(text, tables.needles, tables.lex):
        return None  # credentials
    lower, words = trig.scan_words(text)
    mask = trig.mask_of(words, tables.triggers, "'" in lower)  # tokens are folded like `lower`
    if mask & _TEXT_BITS or mask & _SEQUENCE_BITS == _SEQUENCE_BITS:
        return None
    runs = inj_targets.word_runs(text, lower, words)
    if inj_targets.mentions_in_index(runs, tables.anchors):
        return None
    if trig.shell_may_open_in(text, lower, runs, tables.triggers):
        return None
    if "/" in text and inj_payloads.may_hold_ip_url(text):  # the IP-URL pattern holds a "/"
        return None
    return words


def _closed_words(text: str, identifier: bool) -> frozenset[str] | None:
    """`_quiet_words` of an already-joined identifier or a non-word text whose gates are all
    closed (so the context-free detectors are silent), or None when undecided."""
    tables = _tables()
    if identifier:
        # The joined words of `split_identifier` are [a-z0-9]+ with single spaces: its tokens,
        # word set and fold are the words and the text itself, and no markup character occurs.
        words = frozenset(text.split())
        if trig.mask_of(words, tables.triggers) & _NAME_BITS:
            return None
        quiet: frozenset[str] | None = frozenset()
    else:
        quiet = _text_gates_closed(text, tables)
        if quiet is None:
            return None
    if _may_encode(text) and next(iter(inj_payloads.decode_payloads(text)), None) is not None:
        return None
    return quiet


@_short_cache
def _quiet_words(raw: str, identifier: bool) -> frozenset[str] | None:
    """Words of a field whose every signal source is closed by its text alone, except the
    shadowing gate's sibling-name test (the one gate that reads the tool's context); None when
    the field needs the full per-field pass. Cached: catalogs repeat strings."""
    text = raw if raw.isascii() else nfc(raw)  # ASCII text is already in NFC
    if not _nothing_hidden(text) and any(revealed.text for revealed in reveal_hidden(text)):
        return None
    if identifier:
        text = " ".join(split_identifier(text))
        chosen = NAME_DETECTORS
    else:
        chosen = () if _WORDLIKE.fullmatch(text) else DETECTORS
    if not chosen:
        return frozenset()
    fast = _closed_words(text, identifier)
    return fast if fast is not None else _gated_words(text, chosen)


def _gated_words(text: str, chosen: tuple[Detector, ...]) -> frozenset[str] | None:
    """`_quiet_words` through the gates themselves (and the context-free detectors)."""
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


class _Purpose:
    """A tool's purpose words, computed on first use (most tools never need them)."""

    __slots__ = ("_lex", "_tool", "_words")

    def __init__(self, tool: Tool, lex: Lexicon) -> None:
        self._tool = tool
        self._lex = lex
        self._words: frozenset[str] | None = None

    def __call__(self) -> frozenset[str]:
        if self._words is None:
            self._words = purpose_words(self._tool, self._lex)
        return self._words


_CONTAINERS = (dict, list)
_SCALARS = frozenset({int, float, bool, type(None)})


class _QuietTools:
    """Decides whether a tool's per-field pass would yield nothing, remembering each distinct
    string's verdict for one server (the memos hold the surface's own string objects)."""

    def __init__(self, siblings: frozenset[str], lex: Lexicon) -> None:
        self.siblings = siblings
        self.lex = lex
        self.keys: set[str] = set()  # identifiers whose gates are all closed
        # True: skippable in any tool; False: never; else the sibling names the text holds
        self.texts: dict[str, bool | frozenset[str]] = {}
        self.silent: set[str] = set()  # property descriptions that cannot ask for data

    def _verdict(self, text: str) -> bool | frozenset[str]:
        if _INERT.fullmatch(text):
            return True
        quiet = _quiet_words(text, False)
        if quiet is None:
            return False
        return frozenset(quiet & self.siblings) or True

    def text(self, text: str, own: str) -> bool:
        """The per-field skip test of `tool_poisoning` for a non-identifier text."""
        verdict = self.texts.get(text)
        if verdict is None:
            verdict = self.texts[text] = self._verdict(text)
        if isinstance(verdict, bool):
            return verdict
        return all(w == own for w in verdict)

    def key(self, key: Any) -> bool:
        """The same test for an identifier (its quiet word set is always empty); a key that is
        not a string (only possible for a surface built in Python) is left undecided."""
        if not isinstance(key, str) or _quiet_words(key, True) is None:
            return False
        self.keys.add(key)
        return True

    def asks(self, description: str) -> bool:
        if may_ask(description, self.lex):
            return True
        self.silent.add(description)
        return False

    def tool(self, tool: Tool, own: str) -> bool:
        """True when the per-tool pass would yield nothing: a superset of its fields is quiet.

        `tool_text_fields` yields the name (an identifier), the title, description, annotation
        title, and from the schemas their string values and the keys of property maps (as
        identifiers). Here every key of every schema object is read as an identifier and every
        string value as text, so each field it yields is tested with its own kind. Parameter
        signals need a property description that `may_ask`; every such description is a
        string under a "description" key of the input schema, tested here too."""
        shown = tool.annotations.get("title") if tool.annotations else None
        header = [t for t in (tool.title, tool.description, shown) if isinstance(t, str)]
        if not self.header(tool.name, header, own):
            texts = self.texts
            if tool.name not in self.keys and not self.key(tool.name):
                return False
            for text in header:
                if texts.get(text) is not True and not self.text(text, own):
                    return False
        if not self.schema(tool.input_schema, own, ask=True):
            return False
        return tool.output_schema is None or self.schema(tool.output_schema, own, ask=False)

    def header(self, name: str, texts: list[str], own: str) -> bool:
        """True when the name and the texts are all quiet, read as one text (else undecided).

        The texts and the name's words are joined with newlines. Every closed-gate test is
        monotone under such a join: substrings and the IP-URL match survive (a newline is a
        non-word boundary), the tokens, words and letter/digit runs of the join are the union
        of each part's (no token or run crosses a newline), and each gate mask is monotone in
        the word set (a name's gates are a subset of a text's). An encoded run of a part is a
        whitespace-free run of the join, and its words hold each part's words, so the sibling
        test is conservative. Hidden text is ruled out part by part."""
        if not _nothing_hidden(name) or not all(_nothing_hidden(t) for t in texts):
            return False  # (ASCII only, so every part is its own NFC form)
        joined = "\n".join([" ".join(split_identifier(name)), *texts])
        if _may_encode(joined):
            return False
        words = _text_gates_closed(joined, _tables())
        if words is None:
            return False
        return words.isdisjoint(self.siblings) or all(w == own for w in words & self.siblings)

    def schema(self, root: Any, own: str, *, ask: bool) -> bool:
        """Every key (as a name) and string value of a schema, at any depth. JSON values are
        exact built-in types: the class is compared first, `isinstance` only for others."""
        keys, texts, silent = self.keys, self.texts, self.silent
        stack: list[Any] = [root]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                for key, value in node.items():
                    if key not in keys and not self.key(key):
                        return False
                    kind = value.__class__
                    if kind is str or (kind not in _SCALARS and isinstance(value, str)):
                        if texts.get(value) is not True and not self.text(value, own):
                            return False
                        asks = ask and key == "description" and value not in silent
                        if asks and self.asks(value):
                            return False
                    elif kind in _CONTAINERS or (
                        kind not in _SCALARS and isinstance(value, _CONTAINERS)
                    ):
                        stack.append(value)
            elif isinstance(node, list):
                for value in node:
                    kind = value.__class__
                    if kind is str or (kind not in _SCALARS and isinstance(value, str)):
                        if texts.get(value) is not True and not self.text(value, own):
                            return False
                    elif kind in _CONTAINERS or (
                        kind not in _SCALARS and isinstance(value, _CONTAINERS)
                    ):
                        stack.append(value)
            elif isinstance(node, str) and not self.text(node, own):
                return False
        return True


@server_check("injection.poisoning", ALL_RULES)
def tool_poisoning(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    lex = lexicon()
    names = {t.name.lower(): t.name for t in surface.tools}
    siblings = frozenset(names)  # detectors skip the tool's own name
    inert = _INERT.fullmatch
    quiet_tools = _QuietTools(siblings, lex)
    for i, tool in enumerate(surface.tools):
        own = tool.name.lower()
        if quiet_tools.tool(tool, own):
            continue
        purpose = _Purpose(tool, lex)
        param_signals: dict[str, list[Signal]] = {}
        for found, sig in exfil_params(
            tool.name, tool.input_schema, f"tools[{i}].inputSchema", purpose, lex
        ):
            param_signals.setdefault(found.location, []).append(sig)
        param_words: dict[str, frozenset[str]] = {}
        for field in tool_text_fields(tool, i):
            text = field.text
            identifier = field.kind in _IDENTIFIER_KINDS
            if not identifier and inert(text):
                continue  # a bare word such as "string" carries no sentence and no hidden text
            if not param_signals or field.location not in param_signals:
                # Nothing in this text can fire (checked once per distinct text) unless it
                # names a sibling tool other than this one.
                quiet = _quiet_words(text, identifier)
                if quiet is not None and (
                    quiet.isdisjoint(siblings) or all(w == own for w in quiet & siblings)
                ):
                    continue
            param = _param_of(field.location)
            words = purpose()
            if param:
                if param not in param_words:
                    param_words[param] = words | frozenset(split_identifier(param))
                words = param_words[param]
            fctx = FieldContext(field.kind, field.location, tool.name, words, siblings, param)
            yield from field_findings(field, fctx, ctx, lex, param_signals.get(field.location))
    everything: frozenset[str] | None = None  # the server's purpose words, when needed
    for field in surface_text_fields(surface):
        if everything is None:
            everything = server_purpose(surface)
        named = sorted(
            {t.text for t in tokens(nfc(field.text)) if len(t.text) > 2 and t.text in names}
        )
        promoted = names[named[0]] if len(named) == 1 else None  # the one tool it names, if any
        fctx = FieldContext(field.kind, field.location, promoted, everything, siblings, None)
        yield from field_findings(field, fctx, ctx, lex)

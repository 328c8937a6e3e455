"""TW-INJ: tool poisoning in every text field a client shows the model.

For each field: analyse its sentence structure once, run the family detectors, decode encoded
runs one level and re-run them on the decoded text, and escalate a field where two or more
families co-occur to a critical compound finding (`detect`). Parameters are compared with the
tool's purpose separately (exfiltration-shaped parameters). Tools and texts that provably cannot
fire are skipped first (`quiet`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from toolwitness.checks.crosstool.parties import own_labels
from toolwitness.checks.injection.default_places import default_destinations
from toolwitness.checks.injection.detect import IDENTIFIER_KINDS, INERT, detect, hidden_signals
from toolwitness.checks.injection.frames_carrier import allowed_values, carriers
from toolwitness.checks.injection.model import COMPOUND_RULE, INTENT, RULE_OF, FieldContext, Signal
from toolwitness.checks.injection.params import exfil_params, slot_exfil
from toolwitness.checks.injection.purpose import identity_words, purpose_words, server_purpose
from toolwitness.checks.injection.quiet import QuietTools, quiet_words
from toolwitness.checks.injection.slots import slots, topic_words
from toolwitness.checks.injection.split import (
    NUMBERED_RULE,
    is_prose,
    numbered_parts,
    split_findings,
)
from toolwitness.checks.interface import CheckContext, server_check
from toolwitness.checks.roles.derive import surface_roles
from toolwitness.checks.schema_names import property_names
from toolwitness.checks.text.language import split_identifier, tokens
from toolwitness.checks.text.lexicon import Lexicon, lexicon
from toolwitness.checks.text.secrets_scan import find_secrets, redact
from toolwitness.findings import Finding, Severity
from toolwitness.model import ServerSurface, TextField, Tool, surface_text_fields, tool_text_fields
from toolwitness.textnorm import excerpt, nfc, window

_PARAM = re.compile(r"\.properties(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[\"((?:[^\"\\]|\\.){0,200})\"\])")
ALL_RULES = sorted({*RULE_OF.values(), COMPOUND_RULE, NUMBERED_RULE})


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
    if fctx.kind in ("name", "title", "schema-key") and not fctx.purpose.isdisjoint(
        topic_words()
    ):
        # a name naming an attack ("phishing_sim_launch") of a tool whose stated purpose is a
        # drill, a course or a detector: the attack is what it handles (as in a sentence)
        signals = [s for s in signals if s.family != INTENT]
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


def takes_target(tool: Tool) -> int:
    """2 for a target parameter no honest tool takes (`target_pid`, `target_bssid`), 1 for one
    naming a target system (`target_host`, `targetDomain`), else 0."""
    props = tool.input_schema.get("properties")
    if not isinstance(props, dict) or not any(
        isinstance(n, str) and n[:6].lower() == "target" for n in props
    ):
        return 0
    sl = slots()
    level = 0
    for name in props:
        words = split_identifier(name) if isinstance(name, str) else ()
        if len(words) >= 2 and words[0] == "target" and words[1] in sl.members["victim"]:
            level = max(level, 2 if words[1] in sl.members["victim_strong"] else 1)
    return level


def _param_of(location: str) -> str | None:
    found = None
    for m in _PARAM.finditer(location):
        found = m.group(1) or m.group(2)
    return found


_LABEL_WORD = re.compile(r"[a-z0-9]+")


def _restates(text: str, param: str) -> bool:
    """The text only names its parameter ("Run id" for `run_id`, "The user ID" for `userId`)."""
    if len(text) > 80:
        return False
    words = _LABEL_WORD.findall(text.lower())
    return bool(words) and set(words) <= {*split_identifier(param), "the", "a", "an", "of"}


def _field_text(field: TextField) -> str:
    text = nfc(field.text)
    if field.kind in IDENTIFIER_KINDS:
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


@server_check("injection.poisoning", ALL_RULES)
def tool_poisoning(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    lex = lexicon()
    names = {t.name.lower(): t.name for t in surface.tools}
    owners = own_labels(surface)
    siblings = frozenset(names)  # detectors skip the tool's own name
    inert = INERT.fullmatch
    quiet_tools = QuietTools(siblings, lex)
    for i, tool in enumerate(surface.tools):
        own = tool.name.lower()
        victim = takes_target(tool)  # the fast paths read text alone: such a tool is read fully
        purpose = _Purpose(tool, lex)
        # a default that sends data to a server-chosen place is a value, not prose: the quiet
        # gates read prose, so it is looked for first
        placed = list(
            default_destinations(tool.input_schema, f"tools[{i}].inputSchema", purpose, owners)
        )
        if not victim and not placed and quiet_tools.tool(tool, own):
            continue
        identity = identity_words(tool)
        # A tool whose name or a parameter makes it run code reaches whatever its sandbox holds:
        # saying so is a statement of its power (the role derivation capability uses too).
        runs_code = surface_roles(surface)[i].has("code-exec", sources=("name", "parameter"))
        param_signals: dict[str, list[Signal]] = {}
        for found, sig in exfil_params(
            tool.name, tool.input_schema, f"tools[{i}].inputSchema", purpose, lex
        ):
            param_signals.setdefault(found.location, []).append(sig)
        for found, sig in slot_exfil(tool.input_schema, f"tools[{i}].inputSchema", purpose, lex):
            param_signals.setdefault(found.location, []).append(sig)
        for found, sig in placed:
            param_signals.setdefault(found.location, []).append(sig)
        param_words: dict[str, frozenset[str]] = {}
        params = frozenset(n.lower() for n in property_names(tool.input_schema))
        channels = carriers(tool.input_schema, lex)
        values = allowed_values(tool.input_schema) if channels else frozenset()
        reported: dict[str, set[str]] = {}
        prose: list[TextField] = []
        for field in tool_text_fields(tool, i):
            text = field.text
            identifier = field.kind in IDENTIFIER_KINDS
            if not identifier and is_prose(text):
                prose.append(field)
            if not identifier and inert(text):
                continue  # a bare word such as "string" carries no sentence and no hidden text
            if not victim and (not param_signals or field.location not in param_signals):
                # Nothing in this text can fire (checked once per distinct text) unless it
                # names a sibling tool other than this one.
                quiet = quiet_words(text, identifier)
                if quiet is not None and (
                    quiet.isdisjoint(siblings) or all(w == own for w in quiet & siblings)
                ):
                    continue
            param = _param_of(field.location)
            if param and field.location.endswith(".description") and _restates(text, param):
                continue  # "Run id" for `run_id`: the parameter's label, not a sentence
            words = purpose()
            if param:
                if param not in param_words:
                    param_words[param] = words | frozenset(split_identifier(param))
                words = param_words[param]
            fctx = FieldContext(
                field.kind, field.location, tool.name, words, siblings, param, identity, victim,
                params, runs_code, owners, channels, values,
            )
            for finding in field_findings(field, fctx, ctx, lex, param_signals.get(field.location)):
                reported.setdefault(field.location, set()).add(finding.rule_id)
                yield finding
        if len(prose) >= 2:
            whole = FieldContext("joined", prose[0].location, tool.name, purpose(), siblings,
                                 None, identity, victim, params, runs_code, owners)  # fmt: skip
            joined = list(split_findings(prose, whole, ctx, lex, reported))
            yield from joined
            parts = numbered_parts(prose) if not joined else []
            if parts:
                yield ctx.rules.finding(
                    NUMBERED_RULE,
                    tool=tool.name,
                    location=parts[0][0].location,
                    message=(
                        f"numbers one message in {len(parts)} parts across fields"
                        f" ({', '.join(f.location for f, _ in parts)}): a text split so no"
                        " single field reads as a whole"
                    ),
                    evidence=" | ".join(excerpt(f.text) for f, _ in parts),
                )
    everything: frozenset[str] | None = None  # the server's purpose words, when needed
    for field in surface_text_fields(surface):
        if everything is None:
            everything = server_purpose(surface)
        named = sorted(
            {t.text for t in tokens(nfc(field.text)) if len(t.text) > 2 and t.text in names}
        )
        promoted = names[named[0]] if len(named) == 1 else None  # the one tool it names, if any
        fctx = FieldContext(field.kind, field.location, promoted, everything, siblings, None,
                            owners=owners)  # fmt: skip
        yield from field_findings(field, fctx, ctx, lex)

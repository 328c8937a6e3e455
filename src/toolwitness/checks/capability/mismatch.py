"""The TW-CAP-014/015 findings: both sides of a purpose/capability mismatch as witnesses.

Severity: medium by default. High when the purpose is read-only or inert (`readOnlyHint`, a
read-only statement, a reading or presenting verb) and a parameter runs commands or code, or when
one tool takes both a credential and a way out (URL, webhook, recipient) it never mentions.
"""

from __future__ import annotations

from collections.abc import Iterator

from toolwitness.checks.capability.claims_elsewhere import claims_read_only
from toolwitness.checks.capability.purpose import (
    EGRESS_SHAPES,
    EXEC_SHAPES,
    UNREAD,
    Habits,
    Mismatch,
    Purpose,
    ValueAction,
    habits_of,
    mismatches,
    purpose_of,
    value_actions,
)
from toolwitness.checks.interface import CheckContext, server_check
from toolwitness.checks.roles.derive import ToolRoles, surface_roles
from toolwitness.checks.roles.vocab import vocabulary
from toolwitness.checks.text.english import reads_as_english
from toolwitness.findings import Finding, Severity, Witness
from toolwitness.model import ServerSurface, Tool

_SHOWN = 4


def _purpose_witness(tool: Tool, purpose: Purpose) -> Witness:
    roles = ", ".join(sorted(purpose.roles)) or "no capability role"
    return Witness(
        kind="field",
        symbol=tool.name,
        path=(purpose.location,),
        detail=f"stated purpose ({roles}): {purpose.text}",
    )


def _kind(tool: Tool, purpose: Purpose) -> str:
    if tool.hint("readOnlyHint") is True:
        return "is declared read-only"
    if purpose.inert:
        return "says it only reads, computes or presents"
    return "says nothing that needs it"


def _param_finding(
    tool: Tool, purpose: Purpose, found: list[Mismatch], ctx: CheckContext, says_read_only: bool
) -> Finding:
    read_only = tool.hint("readOnlyHint") is True or purpose.inert or says_read_only
    shapes = {m.shape for m in found}
    full = [m for m in found if m.full]
    if read_only and not shapes.isdisjoint(EXEC_SHAPES):
        severity: Severity | None = Severity.HIGH
    elif "credential" in shapes and not shapes.isdisjoint(EGRESS_SHAPES):
        severity = Severity.HIGH
    elif full and (read_only or not purpose.roles or not shapes.isdisjoint(EXEC_SHAPES)):
        severity = None  # the rule's medium
    else:
        severity = Severity.LOW
    shown = (full or found)[:_SHOWN]
    what = "; ".join(f"'{m.param.name}' {m.does}" for m in shown)
    return ctx.rules.finding(
        "TW-CAP-014",
        tool=tool.name,
        location=shown[0].param.location,
        message=f"the tool {_kind(tool, purpose)}, yet {what}",
        evidence=f"purpose: {purpose.text} | "
        + ", ".join(f"{m.param.name} ({m.shape})" for m in found[:8]),
        witnesses=(
            _purpose_witness(tool, purpose),
            *(
                Witness(
                    kind="field",
                    symbol=tool.name,
                    path=(m.param.location,),
                    detail=f"{m.shape} parameter: {m.does}",
                )
                for m in shown
            ),
        ),
        severity=severity,
    )


def _switch_said(action: ValueAction) -> str:
    if action.role == UNREAD:
        return ("is on by default and what it does is said in a language this check does not "
                "read: the read-only claim rests on a switch nothing here verified")
    return f"is on by default ({action.role})"


def _value_finding(
    tool: Tool, purpose: Purpose, actions: list[ValueAction], ctx: CheckContext, declared: bool
) -> Finding | None:
    defaults = [a for a in actions if a.value.keyword in ("default", "const", "flag")]
    if not (declared or purpose.inert or (defaults and purpose.roles.isdisjoint({"state-write"}))):
        return None
    chosen = defaults or actions
    shown = chosen[:_SHOWN]
    first = shown[0]
    severity = Severity.HIGH if declared and defaults else None
    if all(a.role == UNREAD for a in shown):
        severity = Severity.MEDIUM  # unverified, not contradicted
    return ctx.rules.finding(
        "TW-CAP-015",
        tool=tool.name,
        location=first.value.location,
        message=f"the tool {_kind(tool, purpose)}, yet '{first.value.param}' "
        + (_switch_said(first) if first.value.keyword == "flag" else
           f"offers {first.value.keyword} '{first.value.value[:60]}' ({first.role})"),
        evidence="; ".join(f"{a.value.location}: {a.value.value[:60]}" for a in shown),
        witnesses=(
            _purpose_witness(tool, purpose),
            *(
                Witness(
                    kind="field",
                    symbol=tool.name,
                    path=(a.value.location,),
                    detail=f"{a.value.keyword} value, {a.role}: {a.term}",
                )
                for a in shown
            ),
        ),
        severity=severity,
    )


def _tool_findings(
    tool: Tool, roles: ToolRoles, habits: Habits, ctx: CheckContext
) -> Iterator[Finding]:
    vocab = vocabulary()
    purpose = purpose_of(tool, roles, vocab)
    # a purpose the English analysis cannot read says nothing either way: no "says nothing
    # that needs it" on a description in another language
    readable = reads_as_english(f"{tool.title or ''} {tool.description or ''}")
    found = mismatches(roles, purpose, habits, vocab) if roles.params and readable else []
    # …except a claim, in another language, to only read or change nothing: a parameter that
    # runs a command is then a contradiction whatever else the text says
    says_read_only = claims_read_only(tool.description or tool.title)  # (read once per tool)
    claimed = not readable and says_read_only
    if claimed and roles.params:
        found = [m for m in mismatches(roles, purpose, habits, vocab) if m.shape in EXEC_SHAPES]
    if found:
        yield _param_finding(tool, purpose, found, ctx, says_read_only)
    # read-only as declared by the annotation, or as the name or prose states it ("Read-only;
    # no money moves."): a client and a reviewer take either at its word
    declared = tool.hint("readOnlyHint") is True or roles.read_only or claimed
    actions = list(value_actions(roles, purpose, vocab, declared)) if roles.values else []
    if actions:
        finding = _value_finding(tool, purpose, actions, ctx, declared)
        if finding is not None:
            yield finding


@server_check("capability.purpose", ["TW-CAP-014", "TW-CAP-015"])
def purpose_against_capability(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    every = surface_roles(surface)
    if not any(r.params or r.values for r in every):
        return  # every finding names a shaped parameter or an offered value
    habits = habits_of(surface.tools, every, vocabulary())
    for tool, roles in zip(surface.tools, every, strict=True):
        if roles.params or roles.values:
            yield from _tool_findings(tool, roles, habits, ctx)

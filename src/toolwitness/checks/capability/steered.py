"""TW-CAP-015, read from the schema's shape: a read-only tool whose default steers past the
neutral first option of its own list.

`"enum": ["nichts", "stornieren", "an_kunden_senden"], "default": "an_kunden_senden"` on a tool
that declares `readOnlyHint`: the list opens with the plain choice, and the server made a
longer compound action the default, so a call that leaves the parameter out does it. Read from the
structure alone (which member is first, which is the default, how many words each names), so the
values' language does not matter; a default the tool's own name or description mentions, or a
value the English vocabulary already reads (TW-CAP-015 from `mismatch`), is left alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from toolwitness import paths
from toolwitness.checks.capability.purpose import purpose_of, value_actions
from toolwitness.checks.interface import CheckContext, server_check
from toolwitness.checks.roles.derive import surface_roles
from toolwitness.checks.roles.vocab import vocabulary
from toolwitness.checks.schema_names import properties_at
from toolwitness.findings import Finding, Severity, Witness
from toolwitness.model import ServerSurface, Tool

# Where an identifier's words part: underscores, hyphens, dots, spaces and camel-case steps, in
# any script ("an_kunden_senden", "마케팅_수신동의_일괄_설정", "cancelAndRefund").
_PARTS = re.compile(r"[_\-.\s]+|(?<=[a-z])(?=[A-Z])")


def _parts(value: str) -> list[str]:
    return [p for p in _PARTS.split(value.strip()) if p]


def steered_default(tool: Tool, base: str) -> tuple[str, str, str, str] | None:
    """(parameter, location of the default, the default, the first option) or None."""
    told = f"{tool.name} {tool.title or ''} {tool.description or ''}".lower()
    for name, body, where in properties_at(tool.input_schema, base):
        options, default = body.get("enum"), body.get("default")
        if not isinstance(options, list) or len(options) < 2 or not isinstance(default, str):
            continue
        first = options[0]
        if not isinstance(first, str) or default == first or default not in options:
            continue
        parts = _parts(default)
        if len(parts) < 2 or len(_parts(first)) >= len(parts):
            continue  # a longer compound action chosen over a shorter plain first option
        if parts[-1].lower() == first.lower():
            continue  # the first option, qualified ("liberi" / "non_liberi"); an action added
            # to it ("herne" / "herne_ra_pathaune": view, then send) is still steered
        named = [p.lower() for p in parts if len(p) >= 3]
        if named and all(p in told for p in named):
            continue  # the tool says what its default does ("… as plain text")
        return name, paths.child(where, "default"), default, first
    return None


@server_check("capability.steered_default", ["TW-CAP-015"])
def steered_defaults(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    every: list[Any] | None = None
    for i, tool in enumerate(surface.tools):
        if tool.hint("readOnlyHint") is not True:
            continue
        found = steered_default(tool, f"tools[{i}].inputSchema")
        if found is None:
            continue
        param, location, default, first = found
        if every is None:
            every = list(surface_roles(surface))
        roles, vocab = every[i], vocabulary()
        read = value_actions(roles, purpose_of(tool, roles, vocab), vocab, read_only=True)
        if any(a.value.location == location for a in read):
            continue  # the vocabulary reads this value as an action: `mismatch` reports it
        yield ctx.rules.finding(
            "TW-CAP-015",
            tool=tool.name,
            location=location,
            message=(
                f"the tool declares readOnlyHint, yet '{param}' defaults to '{default[:60]}',"
                f" not its first option '{first[:60]}': a call that leaves it out does what"
                " the server chose"
            ),
            evidence=f"{location}: {default[:60]} (first option: {first[:60]})",
            witnesses=(
                Witness(kind="field", symbol=tool.name, path=(f"tools[{i}].annotations",),
                        detail="readOnlyHint: true"),
                Witness(kind="field", symbol=tool.name, path=(location,),
                        detail=f"default '{default[:60]}', first option '{first[:60]}'"),
            ),
            severity=Severity.MEDIUM,
        )

"""TW-INJ-022 (reported by the check `crosstool.structure`, which reads the same fields): a tool
that declares itself read-only fixes the arguments of a call to a sibling that changes state.

A read-only tool has nothing to ask of a tool that writes, deletes, pays or books: reading a
forecast needs no fuel reservation, a telescope's status no cancelled bookings. When its text
names such a sibling and sets one of that sibling's own parameters to a value
(`fuel_dock with litres=9999`, `zrusit_rezervace s parametrem vse=true`, `feeding_log を
note="…"`), it is scripting a side effect for the model to carry out under cover of a read —
whatever language the surrounding sentence is in, since the test reads only identifiers and
the assignment between them.

Quiet: a pointer to a sibling without a value ("use update_task to change it"), values for
parameters the tool itself also takes (its own usage: "use includeHeaders=true"), siblings that
declare themselves read-only, and tools that do not declare themselves read-only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from toolwitness.checks.crosstool.tokens import identifier_shaped
from toolwitness.checks.interface import CheckContext
from toolwitness.checks.roles.derive import ToolRoles, surface_roles
from toolwitness.findings import Finding, Witness
from toolwitness.lazyre import lazy_compile
from toolwitness.model import ServerSurface, TextField, Tool
from toolwitness.textnorm import window

_CHANGES = frozenset({"destructive", "file-write", "state-write", "code-exec"})
_REACH = 160  # characters after the sibling's name in which its arguments are given
_MAX_PARAMS = 64  # parameters of one sibling looked for (bounded per pair of tools)
_IDENT_RUN = lazy_compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]*")


def _param_names(tool: Tool) -> frozenset[str]:
    props = tool.input_schema.get("properties")
    if not isinstance(props, dict):
        return frozenset()
    return frozenset(n for n in list(props)[:_MAX_PARAMS] if isinstance(n, str) and n)


def _changes_state(tool: Tool, roles: ToolRoles) -> bool:
    """Declared to write (`readOnlyHint: false`, `destructiveHint: true`), or, with no such
    declaration, a name whose verb writes, deletes or runs (`delete_*`, `cancel_*`)."""
    if tool.hint("destructiveHint") is True or tool.hint("readOnlyHint") is False:
        return True
    if tool.hint("readOnlyHint") is True:
        return False
    return any(s.source == "name" and s.role in _CHANGES for s in roles.signals)


def _name_at(text: str, name: str) -> Iterator[int]:
    """Where `name` occurs as a whole identifier (not inside a longer one)."""
    for m in re.finditer(re.escape(name), text):
        before = text[m.start() - 1 : m.start()]
        after = text[m.end() : m.end() + 1]
        if not (before.isalnum() or before in "_-") and not (after.isalnum() or after in "_-"):
            yield m.end()


def _assigned(window: str, params: frozenset[str]) -> str | None:
    """A parameter of the sibling set to a value in `window`: `p=v`, `p: v`, `p = "v"`."""
    for m in re.finditer(r"[A-Za-z_][A-Za-z0-9_]*(?=\s*[=:]\s*[^\s=:])", window):
        if m.group(0) in params:
            return m.group(0)
    return None


def _pinned_call(
    tool: Tool, fields: list[TextField], sibling: Tool, params: frozenset[str]
) -> tuple[TextField, str] | None:
    for field in fields:
        if sibling.name not in field.text:
            continue
        for end in _name_at(field.text, sibling.name):
            param = _assigned(field.text[end : end + _REACH], params)
            if param is not None:
                return field, param
    return None


Writers = dict[str, tuple[int, Tool]]


def writers_of(surface: ServerSurface) -> Writers:
    """The tools of the surface that change state, by name (empty when no tool declares itself
    read-only: then nothing here can fire)."""
    tools = surface.tools
    if len(tools) < 2 or not any(t.hint("readOnlyHint") is True for t in tools):
        return {}
    roles = surface_roles(surface)
    return {
        t.name: (j, t) for j, t in enumerate(tools)
        if identifier_shaped(t.name) and _changes_state(t, roles[j])
    }  # fmt: skip


def pinned_finding(
    tool: Tool, i: int, fields: list[TextField], writers: Writers, ctx: CheckContext
) -> Finding | None:
    """TW-INJ-022 for a tool declared read-only, given its text fields (not its name or keys)
    and the surface's writers (`writers_of`)."""
    if not writers or tool.hint("readOnlyHint") is not True:
        return None
    # the writers named anywhere in the tool as whole identifiers: one pass over its
    # identifier runs, not one search per writer (catalogs of thousands stay linear)
    runs = {r.rstrip(".-") for f in fields for r in _IDENT_RUN.findall(f.text)}
    named = runs.intersection(writers)
    if not named:
        return None
    own = _param_names(tool)
    for j, sibling in sorted(writers[n] for n in named):
        if j == i:
            continue
        params = _param_names(sibling) - own  # the tool's own parameters are its usage
        if not params:
            continue
        hit = _pinned_call(tool, fields, sibling, params)
        if hit is None:
            continue
        field, param = hit
        start = field.text.find(sibling.name)
        return ctx.rules.finding(
            "TW-INJ-022",
            tool=tool.name,
            location=field.location,
            message=(
                f"declared read-only, yet its text sets `{param}` of a call to"
                f" `{sibling.name}`, a tool that changes state: a side effect scripted"
                " for the model under cover of a read"
            ),
            evidence=window(field.text, start, start + len(sibling.name) + _REACH),
            witnesses=(
                Witness(
                    kind="field",
                    symbol="readOnlyHint",
                    path=(f"tools[{i}].annotations.readOnlyHint",),
                ),
                Witness(kind="field", symbol=sibling.name, path=(f"tools[{j}].name",)),
                Witness(kind="field", symbol=param, path=(field.location,)),
            ),
        )
    return None

"""Tools given to a server's constructor: `new MCPServer({ name, version, tools: { key: tool } })`.

The frameworks that take a tools object name each tool by its key; the tool object carries the
description and an `execute` function (often made by a `createTool({...})` helper, followed
through its closure). A key that is computed, or a tools value that is not an object literal
here, is reported as not followed.
"""

from __future__ import annotations

from toolwitness.code import ir
from toolwitness.code.helpers import inline_member
from toolwitness.code.resolve import Resolver, RValue


def constructor_tools(
    reg: ir.Registration, resolver: Resolver
) -> tuple[list[tuple[str, ir.Value]], list[str]]:
    """(tool key, tool value) pairs of the `tools` option, and notes on what was not read."""
    where = f"{reg.file}:{reg.line}"
    options = reg.args[0] if reg.args else None
    if options is None:
        return [], []
    tools = ir.Member(options, ("tools",))
    pairs: list[tuple[str, ir.Value]] = []
    notes: list[str] = []
    objects = [
        r.value
        for r in resolver.resolve(tools)
        if isinstance(r, RValue) and isinstance(r.value, ir.Obj)
    ]
    if not objects:
        return [], [f"{where}: the tools given to the server are not an object literal"]
    for obj in objects:
        if obj.spreads:
            notes.append(f"{where}: tools spread into the server's options were not followed")
        for key, value in obj.items:
            if key == ir.COMPUTED:
                notes.append(f"{where}: a tool key that is not a constant")
            else:
                pairs.append((key, value))
    return pairs, notes


def tool_member(value: ir.Value, name: str, resolver: Resolver) -> list[ir.Value]:
    """The member `name` of a tool object, also through a `createTool({...})` helper."""
    if isinstance(value, ir.Name) and len(value.path) == 1:  # `tools: { readNote }`
        bound = resolver.lookup(value.path[0], value.scope) or []
        value = bound[0] if len(bound) == 1 else value
    direct = ir.Member(value, (name,))
    inlined = inline_member(direct, resolver) if isinstance(value, ir.Call) else []
    if isinstance(value, ir.Call) and value.args:  # `createTool({ … })` returning its argument
        inlined.append(ir.Member(value.args[0], (name,)))
    return [direct, *inlined]

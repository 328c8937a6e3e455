"""Low-level servers: the tools a ListTools handler returns, dispatched by the CallTool handler.

The list may be returned through wrappers (`wrap(async () => ({ tools }))`, tsc's `__awaiter`),
built by helpers, or be a parameter of the function that installs the handler (then the lists
passed at its call sites, joined). A list that cannot be read is a note, never an empty surface.
"""

from __future__ import annotations

from typing import Any

from toolwitness.code import ir
from toolwitness.code.helpers import CallSites
from toolwitness.code.resolve import UNKNOWN, Resolver, RExternal
from toolwitness.code.specs import Extraction, ToolSpec, apply_config, handler_functions
from toolwitness.code.tool_lists import bound_variants, definition_functions, list_elements


def schema_name(value: ir.Value, resolver: Resolver) -> str | None:
    if isinstance(value, ir.Name) and value.path[-1].endswith("RequestSchema"):
        return value.path[-1]
    for r in resolver.resolve(value):
        if isinstance(r, RExternal) and r.path:
            return r.path[-1]
    return None


def low_level(
    lists: list[tuple[ir.Registration, Any]],
    calls: list[ir.Registration],
    resolver: Resolver,
    out: Extraction,
    sites: CallSites,
) -> None:
    """ListTools handlers give the tools; the CallTool handler (shared) dispatches on the name."""
    handlers: list[str] = []
    for reg in calls:
        value = reg.handler if reg.handler is not None else reg.args[1]
        handlers += handler_functions(value, resolver)
    for reg, handler_value in lists:
        entries = _listed_tools(handler_value, resolver, sites)
        if entries is None or not all(_named(e) for e in entries):
            by_element = _element_tools(reg, handler_value, resolver, sites, out)
            if by_element is not None:
                _add_listed(reg, by_element, handlers, out)
                continue
        if entries is None:
            out.notes.append(f"{reg.file}:{reg.line}: the tools list is not a constant")
            continue
        _add_listed(reg, [(e, []) for e in entries], handlers, out)


def _add_listed(
    reg: ir.Registration,
    entries: list[tuple[Any, list[str]]],
    handlers: list[str],
    out: Extraction,
) -> None:
    for entry, own in entries:
        if not _named(entry):
            out.notes.append(f"{reg.file}:{reg.line}: a listed tool has no constant name")
            continue
        spec = ToolSpec(entry["name"], reg.file, reg.line, reg.column, "low-level")
        apply_config(spec, entry)
        schema = entry.get("inputSchema")
        if isinstance(schema, dict) and _plain_json(schema):
            spec.input_schema = schema
        spec.handlers = list(dict.fromkeys([*handlers, *own]))
        spec.dispatch = True
        if not handlers:
            spec.problems.append("no CallTool handler was found")
        out.tools.append(spec)


def _named(entry: Any) -> bool:
    return isinstance(entry, dict) and isinstance(entry.get("name"), str)


def _element_tools(
    reg: ir.Registration, handler_value: Any, resolver: Resolver, sites: CallSites, out: Extraction
) -> list[tuple[Any, list[str]]] | None:
    """The list read element by element (code/tool_lists.py): each named element with the
    functions its definition holds; parts that cannot be read are a note. None if no element
    has a constant name (the caller reports the list as before)."""
    found: list[tuple[Any, list[str]]] = []
    unknown: list[ir.Value] = []
    for func_id in handler_functions(handler_value, resolver)[:8]:
        for returned in resolver.project.functions[func_id].returns:
            for variant in bound_variants(returned, sites):
                for element in list_elements(resolver, variant, unknown, sites):
                    folded = resolver.static(element)
                    if _named(folded):
                        found.append((folded, definition_functions(resolver, element)))
                    else:
                        unknown.append(element)
    if not found:
        return None
    if unknown:
        out.notes.append(
            f"{reg.file}:{reg.line}: part of the tools list could not be read "
            f"({len(unknown)} piece(s), e.g. tools added at run time)"
        )
    return found


def _listed_tools(handler_value: Any, resolver: Resolver, sites: CallSites) -> list[Any] | None:
    """The tools a ListTools handler returns — the handler possibly wrapped by higher-order
    functions, the list possibly a parameter of the function that installs the handler (then
    the lists passed at its call sites, joined)."""
    todo = handler_functions(handler_value, resolver)
    for index in range(64):
        if index >= len(todo):
            break
        for returned in resolver.project.functions[todo[index]].returns:
            if isinstance(returned, ir.Call):  # `return __awaiter(this, …, function* () {…})`
                todo += [f for f in handler_functions(returned, resolver) if f not in todo]
            found = _tools_of(resolver.static(returned))
            if found is None:
                joined: list[Any] = []
                for env in sites.envs(returned):
                    more = _tools_of(resolver.static(returned, env))
                    if more is None:
                        joined = []
                        break
                    joined += more
                found = joined or None
            if found is not None:
                return found
    return None


def _tools_of(value: Any) -> list[Any] | None:
    if isinstance(value, dict) and isinstance(value.get("tools"), list):
        return list(value["tools"])
    if isinstance(value, list):
        return value
    return None


def _plain_json(value: Any) -> bool:
    if value is UNKNOWN:
        return False
    if isinstance(value, dict):
        return all(_plain_json(v) for v in value.values())
    if isinstance(value, list):
        return all(_plain_json(v) for v in value)
    return True

"""Tool registrations found in code -> tool specs (name, description, annotations, handlers).

Shapes: TS SDK `server.tool` (every overload) and `registerTool`; FastMCP-style `addTool`;
low-level `setRequestHandler(ListToolsRequestSchema | CallToolRequestSchema)`; Python
`@x.tool(...)`, `x.add_tool(fn, ...)`, `@x.list_tools()` / `@x.call_tool()`. Names, descriptions
and annotations are evaluated statically (literals, constants, enums, other modules' exports).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from toolwitness.code import ir
from toolwitness.code.helpers import CallSites, inline_member, names_in, reg_values
from toolwitness.code.project import Project
from toolwitness.code.resolve import UNKNOWN, Resolver, RExternal, RFunc, RValue

ANNOTATION_KEYS = ("title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
_SNAKE = {
    "read_only_hint": "readOnlyHint",
    "destructive_hint": "destructiveHint",
    "idempotent_hint": "idempotentHint",
    "open_world_hint": "openWorldHint",
}


@dataclass
class ToolSpec:
    name: str
    file: str
    line: int
    column: int
    shape: str
    description: str | None = None
    title: str | None = None
    annotations: dict[str, Any] | None = None
    input_schema: dict[str, Any] = field(default_factory=lambda: {"type": "object"})
    handlers: list[str] = field(default_factory=list)  # function ids
    problems: list[str] = field(default_factory=list)
    dispatch: bool = False  # a shared low-level handler: arms of other tools are skipped


@dataclass
class Extraction:
    tools: list[ToolSpec] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def extract(project: Project, resolver: Resolver) -> Extraction:
    out = Extraction()
    lists: list[tuple[ir.Registration, Any]] = []
    calls: list[ir.Registration] = []
    sites = CallSites(resolver)
    for key in sorted(project.modules):
        for reg in project.modules[key].registrations:
            for expanded in _expansions(reg, resolver, sites, [_MAX_COPIES]):
                _one(expanded, resolver, out, lists, calls)
    _low_level(lists, calls, resolver, out, sites)
    out.tools.sort(key=lambda t: (t.name, t.file, t.line))
    return out


def _one(
    reg: ir.Registration,
    resolver: Resolver,
    out: Extraction,
    lists: list[tuple[ir.Registration, Any]],
    calls: list[ir.Registration],
) -> None:
    where = f"{reg.file}:{reg.line}"
    static = resolver.static
    if reg.kind in ("tool", "registerTool") and reg.args:
        name = static(reg.args[0])
        if not isinstance(name, str):
            if _handler_like(reg.args[-1], resolver):
                out.notes.append(f"{where}: a tool name that is not a constant")
            return
        spec = ToolSpec(name, reg.file, reg.line, reg.column, reg.kind)
        middle = reg.args[1:-1]
        if reg.kind == "registerTool":
            config = static(middle[0]) if middle else {}
            _apply_config(spec, config if isinstance(config, dict) else {})
        else:
            _tool_overload(spec, [static(a) for a in middle])
        _set_handler(spec, reg.args[-1] if len(reg.args) > 1 else None, resolver)
        out.tools.append(spec)
    elif reg.kind == "addTool" and reg.args:
        config = static(reg.args[0])
        obj = reg.args[0]
        resolved = [r for r in resolver.resolve(obj)]
        if not isinstance(config, dict) or not isinstance(config.get("name"), str):
            if isinstance(config, dict) and "execute" in config:
                out.notes.append(f"{where}: addTool with a name that is not a constant")
            return
        spec = ToolSpec(config["name"], reg.file, reg.line, reg.column, "addTool")
        _apply_config(spec, config)
        handler = resolver.members(list(resolved), ("execute",))
        spec.handlers = [r.func_id for r in handler if isinstance(r, RFunc)]
        if not spec.handlers:
            spec.problems.append("the execute function could not be resolved")
        out.tools.append(spec)
    elif reg.kind == "setRequestHandler" and len(reg.args) >= 2:
        schema = _schema_name(reg.args[0], resolver)
        if schema == "ListToolsRequestSchema":
            lists.append((reg, reg.args[1]))
        elif schema == "CallToolRequestSchema":
            calls.append(reg)
    elif reg.kind in ("py-tool", "add_tool"):
        _python_tool(reg, resolver, out)
    elif reg.kind == "list_tools" and reg.handler is not None:
        lists.append((reg, reg.handler))
    elif reg.kind == "call_tool":
        calls.append(reg)


_MAX_LOOP_ITEMS = 1000
_MAX_COPIES = 20_000  # registrations one source registration may expand to
_MAX_HELPER_DEPTH = 4


def _expansions(
    reg: ir.Registration,
    resolver: Resolver,
    sites: CallSites,
    budget: list[int],
    depth: int = 0,
) -> list[ir.Registration]:
    """Loops over definitions, then helpers called with a definition (each call site), then
    the loops around those call sites, and so on a few levels up."""
    out: list[ir.Registration] = []
    for looped in _expand_loop(reg, resolver):
        bound = sites.expand(looped) if depth < _MAX_HELPER_DEPTH and budget[0] > 0 else None
        if bound is None:
            out.append(looped)
            continue
        budget[0] -= len(bound)
        for copy in bound:
            out += _expansions(copy, resolver, sites, budget, depth + 1)
    return out


def _expand_loop(reg: ir.Registration, resolver: Resolver) -> list[ir.Registration]:
    """`for (const t of TOOLS) server.registerTool(t.name, t.config, t.handler)`: one
    registration per element of a constant array (here or in another module)."""
    names = [n for v in reg_values(reg) for n in names_in(v)]
    heads = sorted({(n.path[0], n.scope) for n in names})
    for head, scope in heads:
        for bound in resolver.lookup(head, scope) or []:
            if not (isinstance(bound, ir.Member) and bound.path == (ir.COMPUTED,)):
                continue
            items = resolver.array_elements(bound.base) or _array_items(bound.base, resolver)
            if not items:
                continue
            return [
                replace(
                    reg,
                    args=tuple(_substitute(a, head, item) for a in reg.args),
                    kwargs=tuple((k, _substitute(v, head, item)) for k, v in reg.kwargs),
                    handler=_substitute(reg.handler, head, item) if reg.handler else None,
                )
                for item in items[:_MAX_LOOP_ITEMS]
            ]
    return [reg]


def _array_items(value: ir.Value, resolver: Resolver) -> list[ir.Value]:
    items: list[ir.Value] = []
    for resolved in resolver.resolve(value):
        if isinstance(resolved, RValue) and isinstance(resolved.value, ir.Arr):
            for item in resolved.value.items:
                if isinstance(item, ir.Spread):
                    items += _array_items(item.value, resolver)
                else:
                    items.append(item)
    return items


def _substitute(value: ir.Value, head: str, item: ir.Value) -> ir.Value:
    """`value` with the loop variable `head` replaced by one element."""
    if isinstance(value, ir.Name) and value.path[0] == head:
        if len(value.path) == 1:
            return item
        if isinstance(item, ir.Name):
            return ir.Name((*item.path, *value.path[1:]), item.scope)
        return ir.Member(item, value.path[1:])
    if isinstance(value, ir.Member):
        return ir.Member(_substitute(value.base, head, item), value.path)
    if isinstance(value, ir.Call):
        return ir.Call(
            _substitute(value.callee, head, item),
            tuple(_substitute(a, head, item) for a in value.args),
            tuple((k, _substitute(v, head, item)) for k, v in value.kwargs),
            value.new,
        )
    if isinstance(value, ir.Obj):
        return ir.Obj(
            tuple((k, _substitute(v, head, item)) for k, v in value.items),
            tuple(_substitute(v, head, item) for v in value.spreads),
        )
    if isinstance(value, ir.Concat):
        return ir.Concat(tuple(_substitute(p, head, item) for p in value.parts))
    return value


def _handler_like(value: ir.Value, resolver: Resolver) -> bool:
    return any(isinstance(r, RFunc) for r in resolver.resolve(value))


def _tool_overload(spec: ToolSpec, middle: list[Any]) -> None:
    """server.tool(name, [description], [paramsSchema], [annotations], handler)."""
    objects: list[dict[str, Any]] = []
    for item in middle:
        if isinstance(item, str):
            spec.description = item
        elif isinstance(item, dict):
            objects.append(item)
    if len(objects) >= 2:
        spec.annotations = _annotations(objects[1])
    elif len(objects) == 1 and objects[0] and all(k in ANNOTATION_KEYS for k in objects[0]):
        spec.annotations = _annotations(objects[0])


def _apply_config(spec: ToolSpec, config: dict[str, Any]) -> None:
    description = config.get("description")
    spec.description = description if isinstance(description, str) else None
    title = config.get("title")
    spec.title = title if isinstance(title, str) else None
    annotations = config.get("annotations")
    if isinstance(annotations, dict):
        spec.annotations = _annotations(annotations)
    elif annotations is UNKNOWN:
        spec.problems.append("annotations are not a constant")


def _annotations(raw: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in raw.items():
        name = _SNAKE.get(key, key)
        if name in ANNOTATION_KEYS and value is not UNKNOWN:
            out[name] = value
    return out


def _set_handler(spec: ToolSpec, value: ir.Value | None, resolver: Resolver) -> None:
    """The handler: a function, or an object of functions (task tools: createTask, getTask...)."""
    handlers: list[str] = handler_functions(value, resolver) if value is not None else []
    for r in resolver.resolve(value) if value is not None else ():
        if isinstance(r, RValue) and isinstance(r.value, ir.Obj):
            members = resolver.members([r], (ir.COMPUTED,))
            handlers += [m.func_id for m in members if isinstance(m, RFunc)]
    if not handlers and value is not None:  # `factory(opts).run`: through the closure
        for inlined in inline_member(value, resolver):
            handlers += handler_functions(inlined, resolver)
    spec.handlers = list(dict.fromkeys(handlers))
    if not spec.handlers:
        spec.problems.append("the handler could not be resolved to a function")


def handler_functions(value: ir.Value, resolver: Resolver, depth: int = 0) -> list[str]:
    """The functions a handler value runs: what it resolves to and, for a handler wrapped by a
    higher-order function (`withTelemetry(async (req) => …)`, `wrap(handler, opts)`), the
    functions passed to the wrapper — the wrapper's own body is reached through its return."""
    found = [r.func_id for r in resolver.resolve(value) if isinstance(r, RFunc)]
    if depth < 8:
        call = value
        if isinstance(value, ir.Name) and len(value.path) == 1:
            bound = resolver.lookup(value.path[0], value.scope) or []
            call = bound[0] if len(bound) == 1 else value
        if isinstance(call, ir.Call):
            for arg in (*call.args, *(v for _, v in call.kwargs)):
                found += handler_functions(arg, resolver, depth + 1)
    return list(dict.fromkeys(found))


def _schema_name(value: ir.Value, resolver: Resolver) -> str | None:
    if isinstance(value, ir.Name) and value.path[-1].endswith("RequestSchema"):
        return value.path[-1]
    for r in resolver.resolve(value):
        if isinstance(r, RExternal) and r.path:
            return r.path[-1]
    return None


def _python_tool(reg: ir.Registration, resolver: Resolver, out: Extraction) -> None:
    static = resolver.static
    kwargs = dict(reg.kwargs)
    args = list(reg.args)
    handler = reg.handler
    if reg.kind == "add_tool":
        handler = args.pop(0) if args else kwargs.get("fn")
    name = static(kwargs["name"]) if "name" in kwargs else None
    if name is None and args and reg.kind == "py-tool":
        name = static(args[0])
    if name is None or name is UNKNOWN:
        name = reg.func_name if "name" not in kwargs else None
        if name is None and handler is not None:
            name = _function_name(handler, resolver)
    if not isinstance(name, str):
        out.notes.append(f"{reg.file}:{reg.line}: a tool name that is not a constant")
        return
    spec = ToolSpec(name, reg.file, reg.line, reg.column, reg.kind)
    description = static(kwargs["description"]) if "description" in kwargs else None
    if not isinstance(description, str):
        description = reg.docstring or _docstring(handler, resolver)
    spec.description = description
    title = static(kwargs.get("title")) if "title" in kwargs else None
    spec.title = title if isinstance(title, str) else None
    if "annotations" in kwargs:
        raw = static(kwargs["annotations"])
        if isinstance(raw, dict):
            spec.annotations = _annotations(raw)
        else:
            spec.problems.append("annotations are not a constant")
    _set_handler(spec, handler, resolver)
    out.tools.append(spec)


def _function_name(value: ir.Value, resolver: Resolver) -> str | None:
    for r in resolver.resolve(value):
        if isinstance(r, RFunc):
            return resolver.project.functions[r.func_id].name.rsplit(".", 1)[-1]
    return None


def _docstring(value: ir.Value | None, resolver: Resolver) -> str | None:
    for r in resolver.resolve(value) if value is not None else ():
        if isinstance(r, RFunc):
            return resolver.project.functions[r.func_id].docstring
    return None


def _low_level(
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
        if entries is None:
            out.notes.append(f"{reg.file}:{reg.line}: the tools list is not a constant")
            continue
        for entry in entries:
            if not isinstance(entry, dict) or not isinstance(entry.get("name"), str):
                out.notes.append(f"{reg.file}:{reg.line}: a listed tool has no constant name")
                continue
            spec = ToolSpec(entry["name"], reg.file, reg.line, reg.column, "low-level")
            _apply_config(spec, entry)
            schema = entry.get("inputSchema")
            if isinstance(schema, dict) and _plain_json(schema):
                spec.input_schema = schema
            spec.handlers = list(handlers)
            spec.dispatch = True
            if not handlers:
                spec.problems.append("no CallTool handler was found")
            out.tools.append(spec)


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

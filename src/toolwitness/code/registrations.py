"""Tool registrations found in code -> tool specs (name, description, annotations, handlers).

Shapes: TS SDK `server.tool` (every overload) and `registerTool`; FastMCP-style `addTool`;
low-level `setRequestHandler(ListToolsRequestSchema | CallToolRequestSchema)`; Python
`@x.tool(...)`, `x.add_tool(fn, ...)`, `@x.list_tools()` / `@x.call_tool()`. Names, descriptions
and annotations are evaluated statically (literals, constants, enums, other modules' exports).
"""

from __future__ import annotations

from typing import Any

from toolwitness.code import ir
from toolwitness.code.coverage import inside_bundled_sdk
from toolwitness.code.helpers import CallSites, inline_member, names_in, reg_values
from toolwitness.code.options import constructor_tools, tool_member
from toolwitness.code.project import Project
from toolwitness.code.resolve import UNKNOWN, Resolver, RFunc, RValue
from toolwitness.code.schemas import low_level, schema_name
from toolwitness.code.specs import (
    ANNOTATION_KEYS,
    Extraction,
    ToolSpec,
    annotations_of,
    apply_config,
    handler_functions,
)
from toolwitness.plainclass import replace


def extract(project: Project, resolver: Resolver) -> Extraction:
    out = Extraction()
    lists: list[tuple[ir.Registration, Any]] = []
    calls: list[ir.Registration] = []
    sites = CallSites(resolver)
    for key in sorted(project.modules):
        for reg in project.modules[key].registrations:
            if inside_bundled_sdk(project.modules[key], reg.line):
                continue  # the MCP SDK's own plumbing, bundled in: it registers no tool itself
            for expanded in _expansions(reg, resolver, sites, [_MAX_COPIES]):
                _one(expanded, resolver, out, lists, calls)
    low_level(lists, calls, resolver, out, sites)
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
            if _local_helper(reg, resolver):
                return  # `this.registerTool(server, def)` of the tree's own helper: followed inside
            if reg.kind == "registerTool" or _handler_like(reg.args[-1], resolver):
                out.notes.append(f"{where}: a tool name that is not a constant")
            return
        spec = ToolSpec(name, reg.file, reg.line, reg.column, reg.kind)
        middle = reg.args[1:-1]
        if reg.kind == "registerTool":
            config = static(middle[0]) if middle else {}
            apply_config(spec, config if isinstance(config, dict) else {})
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
        apply_config(spec, config)
        handler = resolver.members(list(resolved), ("execute",))
        spec.handlers = [r.func_id for r in handler if isinstance(r, RFunc)]
        if not spec.handlers:
            spec.problems.append("the execute function could not be resolved")
        out.tools.append(spec)
    elif reg.kind == "setRequestHandler" and len(reg.args) >= 2:
        schema = schema_name(reg.args[0], resolver)
        if schema == "ListToolsRequestSchema":
            lists.append((reg, reg.args[1]))
        elif schema == "CallToolRequestSchema":
            calls.append(reg)
    elif reg.kind == "server-tools":
        _server_tools(reg, resolver, out)
    elif reg.kind in ("py-tool", "add_tool"):
        _python_tool(reg, resolver, out)
    elif reg.kind == "list_tools" and reg.handler is not None:
        lists.append((reg, reg.handler))
    elif reg.kind == "call_tool":
        calls.append(reg)


def _server_tools(reg: ir.Registration, resolver: Resolver, out: Extraction) -> None:
    pairs, notes = constructor_tools(reg, resolver)
    out.notes += notes
    for key, value in pairs:
        spec = ToolSpec(key, reg.file, reg.line, reg.column, "server-tools")
        for member in tool_member(value, "description", resolver):
            found = resolver.static(member)
            if isinstance(found, str):
                spec.description = found
                break
        handlers: list[str] = []
        for member in tool_member(value, "execute", resolver):
            handlers += handler_functions(member, resolver)
        spec.handlers = list(dict.fromkeys(handlers))
        if not spec.handlers:
            spec.problems.append("the execute function could not be resolved")
        out.tools.append(spec)


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
    reg = _inline_handler(reg, resolver)
    for looped in _expand_loop(reg, resolver):
        bound = sites.expand(looped) if depth < _MAX_HELPER_DEPTH and budget[0] > 0 else None
        if bound is None:
            out.append(looped)
            continue
        budget[0] -= len(bound)
        for copy in bound:
            out += _expansions(copy, resolver, sites, budget, depth + 1)
    return out


def _inline_handler(reg: ir.Registration, resolver: Resolver) -> ir.Registration:
    """`const handler = makeHandler({ logic: def.logic }); server.registerTool(def.name, …,
    handler)`: the handler's one binding takes its place, so binding `def` at each call site
    (or loop element) reaches that definition's own logic."""
    if reg.kind not in ("tool", "registerTool") or len(reg.args) < 2:
        return reg
    last = reg.args[-1]
    if not (isinstance(last, ir.Name) and len(last.path) == 1):
        return reg
    bound = resolver.lookup(last.path[0], last.scope) or []
    if len(bound) != 1 or not isinstance(bound[0], ir.Call):
        return reg
    return replace(reg, args=(*reg.args[:-1], bound[0]))


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


_MAX_SPREAD_DEPTH = 16  # as `arrays._MAX_DEPTH`: `TOOLS.extend(TOOLS)` spreads a list into itself


def _array_items(value: ir.Value, resolver: Resolver, depth: int = 0) -> list[ir.Value]:
    if depth > _MAX_SPREAD_DEPTH:
        resolver.truncated = True  # reported as not fully read, never taken for the whole
        return []
    items: list[ir.Value] = []
    for resolved in resolver.resolve(value):
        if isinstance(resolved, RValue) and isinstance(resolved.value, ir.Arr):
            for item in resolved.value.items:
                if isinstance(item, ir.Spread):
                    items += _array_items(item.value, resolver, depth + 1)
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


def _local_helper(reg: ir.Registration, resolver: Resolver) -> bool:
    """The call names one of the tree's own functions that registers tools itself (a helper
    called `registerTool`): its registration is read, bound at this call site."""
    if reg.callee is None:
        return False
    project = resolver.project
    for found in resolver.resolve(reg.callee):
        fn = project.functions.get(found.func_id) if isinstance(found, RFunc) else None
        if fn is None:
            continue
        module = project.modules[fn.file]
        if any(_within(project, r.scope, fn.id) for r in module.registrations):
            return True
    return False


def _within(project: Project, scope_id: str, func_id: str) -> bool:
    current: str | None = scope_id
    for _ in range(256):
        if current is None:
            return False
        if current == func_id:
            return True
        scope = project.scopes.get(current)
        current = scope.parent if scope is not None else None
    return False


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
        spec.annotations = annotations_of(objects[1])
    elif len(objects) == 1 and objects[0] and all(k in ANNOTATION_KEYS for k in objects[0]):
        spec.annotations = annotations_of(objects[0])


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
            spec.annotations = annotations_of(raw)
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

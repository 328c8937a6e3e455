"""A ListTools handler's list read element by element, when it does not fold to one constant.

`const tools = factory.toolSchemas.map(s => toMcpTool(s)); tools.push(...backend.dynamic());
return { tools }` inside a function that installs the handler for a `factory` its callers
pass: the parameters are bound at the call sites (several levels up), each name's bindings are
joined, arrays are followed through spreads, `map`/`filter`/`concat`, choices and helper
returns, and each element is folded on its own. What cannot be read is kept as `unknown` (the
caller reports it: the list is incomplete), never dropped. Each element also yields the
functions its definition holds (`defineTool({schema, handle})`): the tool's own code, which a
shared CallTool handler reaches only through a lookup by name.
"""

from __future__ import annotations

from collections.abc import Callable

from toolwitness.code import ir
from toolwitness.code.helpers import CallSites, names_in, substitute
from toolwitness.code.resolve import Resolver, RFunc

_MAX_DEPTH = 24
_MAX_VARIANTS = 32  # call-site bindings of one returned value
_MAX_LEVELS = 5  # callers above the function that installs the handler
_SAME = frozenset({"filter", "slice", "sort", "toSorted", "reverse", "toReversed", "concat"})
_MAX_WALK = 4096  # values walked looking for a definition's functions
_MAX_VISITS = 50_000  # values visited reading one list


def bound_variants(value: ir.Value, sites: CallSites, level: int = 0) -> list[ir.Value]:
    """The value with the parameters it reads replaced by the arguments of each call site of
    their function, and again for the callers' own parameters; itself if none are bound."""
    owners: dict[str, int] = {}
    for name in names_in(value):
        found = sites.param_owner(name)
        if found is not None:
            owners[found[0]] = sites._depth(found[0])
    if not owners or level >= _MAX_LEVELS:
        return [value]
    helper = max(owners, key=lambda f: owners[f])
    out: list[ir.Value] = []
    for env in sites.sites(helper)[:_MAX_VARIANTS]:
        out += bound_variants(substitute(value, env), sites, level + 1)
        if len(out) >= _MAX_VARIANTS:
            break
    return out[:_MAX_VARIANTS] or [value]


def list_elements(
    resolver: Resolver,
    value: ir.Value,
    unknown: list[ir.Value],
    sites: CallSites | None = None,
    depth: int = 0,
    budget: list[int] | None = None,
) -> list[ir.Value]:
    """The elements of a tools list value; what cannot be read is appended to `unknown`.
    Bounded by depth and by the values visited (call-site variants multiply)."""
    budget = budget if budget is not None else [_MAX_VISITS]
    budget[0] -= 1
    if depth > _MAX_DEPTH or budget[0] < 0:
        unknown.append(value)
        return []

    def each(values: list[ir.Value] | tuple[ir.Value, ...]) -> list[ir.Value]:
        return [
            e
            for v in values
            for e in list_elements(resolver, v, unknown, sites, depth + 1, budget)
        ]

    if isinstance(value, ir.Obj):
        tools = [v for k, v in value.items if k == "tools"]
        if tools:
            return each(tools)
    elif isinstance(value, ir.Arr):
        out: list[ir.Value] = []
        for item in value.items:
            out += each([item.value]) if isinstance(item, ir.Spread) else [item]
        return out
    elif isinstance(value, ir.Choice | ir.Spread):
        return each(value.options if isinstance(value, ir.Choice) else (value.value,))
    elif isinstance(value, ir.Call):
        found = _method_call(resolver, value, each)
        if found is not None:
            return found
    elif isinstance(value, ir.Member) and isinstance(value.base, ir.Obj | ir.Name):
        inner: list[ir.Value] = (
            [value.base] if isinstance(value.base, ir.Obj) else raw_values(resolver, value.base)
        )
        for key in value.path:
            inner = [v for c in inner for v in _member(c, key)]
        if inner and value not in inner:
            return each(inner)
    elif isinstance(value, ir.Name):
        raw = raw_values(resolver, value)
        if raw:
            return each(raw)
        if sites is not None and depth < _MAX_DEPTH - _MAX_LEVELS:
            variants = _parameter_variants(value, sites)
            if variants:
                return each(variants)
    elements = resolver.array_elements(value)
    if elements is None:
        unknown.append(value)
        return []
    return elements


def _parameter_variants(name: ir.Name, sites: CallSites) -> list[ir.Value]:
    """A parameter's name replaced by the argument at each call site of its function."""
    found = sites.param_owner(name)
    if found is None:
        return []
    return [substitute(name, env) for env in sites.sites(found[0])[:_MAX_VARIANTS]]


def _method_call(
    resolver: Resolver, call: ir.Call, each: Callable[[list[ir.Value]], list[ir.Value]]
) -> list[ir.Value] | None:
    callee = call.callee
    base: ir.Value
    if isinstance(callee, ir.Name) and len(callee.path) >= 2:
        method, base = callee.path[-1], ir.Name(callee.path[:-1], callee.scope)
    elif isinstance(callee, ir.Member) and callee.path:
        method = callee.path[-1]
        base = ir.Member(callee.base, callee.path[:-1]) if len(callee.path) > 1 else callee.base
    else:
        return None
    if method in _SAME:
        items = each([base])
        if method == "concat":
            items += each([a.value if isinstance(a, ir.Spread) else a for a in call.args])
        return items
    if method in ("map", "flatMap") and call.args:
        funcs = [r for r in resolver.resolve(call.args[0]) if isinstance(r, RFunc)]
        fn = resolver.project.functions.get(funcs[0].func_id) if len(funcs) == 1 else None
        if fn is None or len(fn.returns) != 1 or not fn.params:
            return None
        elements = each([base])
        key = (fn.params[0], fn.id)
        return [substitute(fn.returns[0], {key: element}) for element in elements]
    return None


def raw_values(resolver: Resolver, name: ir.Name) -> list[ir.Value]:
    """What a name (with its member path through object literals) is bound to, as written;
    empty when any binding is not a value (a parameter, a computed member)."""
    bound = resolver.lookup(name.path[0], name.scope) or []
    bound = [b for b in bound if b not in (ir.Lit(None), ir.Opaque("undefined"))]
    if not bound or any(isinstance(b, ir.Opaque) for b in bound):
        return []
    out: list[ir.Value] = []
    for value in bound:
        current: list[ir.Value] = [value]
        for key in name.path[1:]:
            current = [v for c in current for v in _member(c, key)]
        out += current
    if not out or any(isinstance(v, ir.Opaque) for v in out):
        return []
    return out


def _member(value: ir.Value, key: str) -> list[ir.Value]:
    if isinstance(value, ir.Obj):
        return [v for k, v in value.items if k == key] or [ir.Member(value, (key,))]
    if isinstance(value, ir.Name):
        return [ir.Name((*value.path, key), value.scope)]
    return [ir.Member(value, (key,))]


def definition_functions(resolver: Resolver, element: ir.Value) -> list[str]:
    """Functions held by the definition an element is built from (`handle`, `execute`…):
    object members and call arguments, through local bindings; not the helpers it calls."""
    out: list[str] = []
    todo: list[tuple[ir.Value, int]] = [(element, 0)]
    seen: set[ir.Value] = set()
    steps = 0
    while todo and steps < _MAX_WALK:
        value, level = todo.pop()
        steps += 1
        if value in seen or level > 6:
            continue
        seen.add(value)
        if isinstance(value, ir.FuncRef):
            out.append(value.func_id)
        elif isinstance(value, ir.Obj):
            todo += [(v, level) for _, v in value.items] + [(s, level) for s in value.spreads]
        elif isinstance(value, ir.Call):
            todo += [(a, level) for a in (*value.args, *(v for _, v in value.kwargs))]
        elif isinstance(value, ir.Member):
            todo.append((value.base, level))
        elif isinstance(value, ir.Spread):
            todo.append((value.value, level))
        elif isinstance(value, ir.Choice):
            todo += [(o, level) for o in value.options]
        elif isinstance(value, ir.Name):
            todo += [(v, level + 1) for v in resolver.lookup(value.path[0], value.scope) or []]
    return list(dict.fromkeys(f for f in out if f in resolver.project.functions))

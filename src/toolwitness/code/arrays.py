"""The elements of an array a value holds, followed through the ways servers build tool lists.

Array literals with spreads; `filter`/`slice`/`sort` (at most the same elements) and `concat`;
either side of a choice; elements added later with `push`/`append`/`extend` (bound to the name by
the front-ends); `Object.values(module or object)`; `map` over an array whose callback returns
one value per element; the array a local function returns. None when not known: the caller
reports what it could not read, never a subset taken for the whole.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolwitness.code import ir

if TYPE_CHECKING:
    from toolwitness.code.resolve import Resolver

_MAX_DEPTH = 16
_SAME = frozenset({"filter", "slice", "sort", "toSorted", "reverse", "toReversed", "concat"})


def array_elements(resolver: Resolver, value: ir.Value, depth: int = 0) -> list[ir.Value] | None:
    from toolwitness.code.resolve import RValue

    if depth > _MAX_DEPTH:
        resolver.truncated = True
        return None
    if isinstance(value, ir.Call):
        found = _call(resolver, value, depth)
        if found is not None:
            return found
    if isinstance(value, ir.Choice):
        out: list[ir.Value] = []
        for option in value.options:
            items = array_elements(resolver, option, depth + 1)
            if items is None:
                return None
            out += items
        return out
    resolved = resolver.resolve(value)
    arrays = [r.value for r in resolved if isinstance(r, RValue) and isinstance(r.value, ir.Arr)]
    if not arrays:
        bound = _bound_call(resolver, value)
        return array_elements(resolver, bound, depth + 1) if bound is not None else None
    elements: list[ir.Value] = []
    for array in arrays:
        for item in array.items:
            if isinstance(item, ir.Spread):
                spread = array_elements(resolver, item.value, depth + 1)
                if spread is None:
                    return None
                elements += spread
            else:
                elements.append(item)
    return elements


def _call(resolver: Resolver, call: ir.Call, depth: int) -> list[ir.Value] | None:
    from toolwitness.code.resolve import RExternal, RFunc

    method = _method(call.callee)
    if method is not None:
        name, base = method
        if name in _SAME:
            items = array_elements(resolver, base, depth + 1)
            if items is None or name != "concat":
                return items
            for arg in call.args:
                inner = arg.value if isinstance(arg, ir.Spread) else arg
                more = array_elements(resolver, inner, depth + 1)
                items = items + (more if more is not None else [inner])
            return items
        if name in ("map", "flatMap") and call.args:
            return _mapped(resolver, base, call.args[0], depth)
        if name == "values" and not call.args:  # `registry.values()` of a Map or object
            return _object_values(resolver, base, depth + 1)
    callees = resolver.resolve(call.callee)
    if any(isinstance(c, RExternal) and c.path == ("Object", "values") for c in callees):
        return _object_values(resolver, call.args[0], depth) if call.args else None
    if any(isinstance(c, RExternal) and c.path == ("Array", "from") for c in callees):
        return array_elements(resolver, call.args[0], depth + 1) if call.args else None
    funcs = [c for c in callees if isinstance(c, RFunc)]
    if funcs and len(funcs) == len(callees):
        out: list[ir.Value] = []
        for func in funcs:
            fn = resolver.project.functions.get(func.func_id)
            if fn is None or not fn.returns:
                return None
            for returned in fn.returns:
                items = array_elements(resolver, returned, depth + 1)
                if items is None:
                    return None
                out += items
        return out
    return None


def _mapped(
    resolver: Resolver, base: ir.Value, callback: ir.Value, depth: int
) -> list[ir.Value] | None:
    """`xs.map(x => x.tool)`: the callback's one return, per element (the element put in
    place of its parameter)."""
    from toolwitness.code.helpers import substitute
    from toolwitness.code.resolve import RFunc

    elements = array_elements(resolver, base, depth + 1)
    funcs = [r for r in resolver.resolve(callback) if isinstance(r, RFunc)]
    if elements is None or len(funcs) != 1:
        return None
    fn = resolver.project.functions.get(funcs[0].func_id)
    if fn is None or len(fn.returns) != 1 or not fn.params:
        return None
    key = (fn.params[0], fn.id)
    return [substitute(fn.returns[0], {key: element}) for element in elements]


def _object_values(resolver: Resolver, arg: ir.Value, depth: int) -> list[ir.Value] | None:
    """`Object.values(ns)` of a module namespace (each export) or of an object literal."""
    from toolwitness.code.resolve import RExternal, RModule, RValue

    if depth > _MAX_DEPTH:
        resolver.truncated = True
        return None
    out: list[ir.Value] = []
    nested: list[ir.Value] = []  # star re-exports and spreads: their values too
    for r in resolver.resolve(arg):
        if isinstance(r, RModule):
            module = resolver.project.modules[r.key]
            for name in sorted(module.exports):
                if name not in ("default", "__esModule"):  # tsc's placeholders are no values
                    out += [v for v in module.exports[name] if not isinstance(v, ir.Opaque)]
            nested += module.star_exports
        elif isinstance(r, RValue) and isinstance(r.value, ir.Obj):
            out += [v for _, v in r.value.items]
            nested += r.value.spreads
        elif isinstance(r, RExternal) and r.path == ("Map",) and r.module is None:
            continue  # `new Map()`: its entries are the `set` calls bound beside it
        else:
            return None
    for inner in nested:
        more = _object_values(resolver, inner, depth + 1)
        if more is None:
            return None
        out += more
    return out


def _method(callee: ir.Value) -> tuple[str, ir.Value] | None:
    if isinstance(callee, ir.Name) and len(callee.path) >= 2:
        return callee.path[-1], ir.Name(callee.path[:-1], callee.scope)
    if isinstance(callee, ir.Member) and callee.path:
        base = ir.Member(callee.base, callee.path[:-1]) if len(callee.path) > 1 else callee.base
        return callee.path[-1], base
    return None


def _bound_call(resolver: Resolver, value: ir.Value) -> ir.Value | None:
    """What a name bound to calls holds (`const tools = base.filter(…)`; a cache variable
    declared empty and assigned once): every call it is bound to, as a choice."""
    if not isinstance(value, ir.Name) or len(value.path) != 1:
        return None
    bound = [
        b
        for b in resolver.lookup(value.path[0], value.scope) or []
        if b not in (ir.Lit(None), ir.Opaque("undefined"))
    ]
    calls = [b for b in bound if isinstance(b, ir.Call | ir.Choice)]
    if not calls or len(calls) != len(bound):
        return None
    return calls[0] if len(calls) == 1 else ir.Choice(tuple(calls))

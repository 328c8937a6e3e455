"""Constant folding over symbolic values: tool names, descriptions, annotations, case labels.

Literals, string concatenation and templates, object and array literals with spreads, names
bound to constants (here or in another module), enum members, `ToolAnnotations(...)` /
`Tool(...)` / `dict(...)` calls, `Object.values(...)`, and one-`return` helper functions called
with constant arguments. Anything else is UNKNOWN; nothing is ever executed.
"""

from __future__ import annotations

from typing import Any

from toolwitness.code import ir
from toolwitness.code.helpers import called_functions
from toolwitness.code.resolve import UNKNOWN, Resolved, Resolver, RExternal, RFunc, RValue


class StaticEvaluator:
    def __init__(self, resolver: Resolver, env: dict[str, ir.Value]) -> None:
        self.resolver = resolver
        self.env = env

    def eval(self, value: ir.Value | None, depth: int) -> Any:
        if value is None or depth > 24:
            return UNKNOWN
        if self.env:
            return self._eval(value, depth)
        # Without an environment a value always folds the same way: memoised per resolver, so
        # nested choices and helpers with several returns cost each value once, not per path.
        cache = self.resolver.static_cache
        if value in cache:
            return cache[value]
        cache[value] = UNKNOWN  # a value that refers back to itself folds to UNKNOWN
        found = cache[value] = self._eval(value, depth)
        return found

    def _eval(self, value: ir.Value, depth: int) -> Any:
        if isinstance(value, ir.Lit):
            return value.value
        if isinstance(value, ir.Concat):
            parts = [self.eval(p, depth + 1) for p in value.parts]
            if all(isinstance(p, str | int | float) for p in parts):
                return "".join(str(p) for p in parts)
            if parts and all(isinstance(p, list) for p in parts):  # Python `TOOLS + EXTRA`
                return [item for p in parts for item in p]
            return UNKNOWN
        if isinstance(value, ir.Obj):
            out: dict[str, Any] = {}
            for spread in value.spreads:
                inner = self.eval(spread, depth + 1)
                if isinstance(inner, dict):
                    out.update(inner)
            for key, item in value.items:
                out[key] = self.eval(item, depth + 1)
            return out
        if isinstance(value, ir.Arr):
            items: list[Any] = []
            for item in value.items:
                if isinstance(item, ir.Spread):
                    inner = self.eval(item.value, depth + 1)
                    items.extend(inner if isinstance(inner, list) else [UNKNOWN])
                else:
                    items.append(self.eval(item, depth + 1))
            return items
        if isinstance(value, ir.Name) and value.path[0] in self.env:
            key = value.path[0]
            bound = self.env[key]
            if len(value.path) == 1:
                return self.eval(bound, depth + 1)
            return self.eval(ir.Member(bound, value.path[1:]), depth + 1)
        if isinstance(value, ir.Call):
            return self._call(value, depth)
        if isinstance(value, ir.Choice):
            return _union([self.eval(option, depth + 1) for option in value.options])
        if isinstance(value, ir.Name):
            found = self._name(value, depth)
            if found is not UNKNOWN:
                return found
        if isinstance(value, ir.Import):
            for raw in self.resolver.import_values(value):
                found = self.eval(raw, depth + 1)
                if found is not UNKNOWN:
                    return found
        if isinstance(value, ir.Member):
            base = self.eval(value.base, depth + 1)
            for key in value.path:
                base = base.get(key, UNKNOWN) if isinstance(base, dict) else UNKNOWN
            if base is not UNKNOWN:
                return base
        for resolved in self.resolver.resolve(value):
            if isinstance(resolved, RValue) and resolved.value != value:
                result = self.eval(resolved.value, depth + 1)
                if result is not UNKNOWN:
                    return result
        return UNKNOWN

    def _name(self, name: ir.Name, depth: int) -> Any:
        """A constant bound to the name itself (before any call is resolved to an instance)."""
        bound = self.resolver.lookup(name.path[0], name.scope)
        values: list[Any] = []
        for raw in (bound or ())[:_MAX_BINDINGS]:
            target = raw if len(name.path) == 1 else ir.Member(raw, name.path[1:])
            found = self.eval(target, depth + 1)
            if found is not UNKNOWN:
                values.append(found)
        if len(values) > 1 and None in values:  # `var t;` (or `t = null`) then `t = {…}`
            values = [v for v in values if v is not None] or [None]
        if len(values) > 1 and all(isinstance(v, list) for v in values):
            return [item for v in values for item in v]  # `const L = []` then `L.push(…)`
        if len(values) > 1 and all(isinstance(v, dict) for v in values):
            merged: dict[str, Any] = {}  # a registry filled entry by entry
            for v in values:
                merged.update(v)
            return merged
        return values[0] if values else UNKNOWN

    def _call(self, call: ir.Call, depth: int) -> Any:
        if self.env:  # `definition(args)` inside a helper: the callee and arguments bound here
            call = ir.Call(
                self._bound(call.callee),
                tuple(self._bound(a) for a in call.args),
                tuple((k, self._bound(v)) for k, v in call.kwargs),
                call.new,
            )
        method = _array_method(call.callee)
        if method is not None:
            found = self._array_call(method[0], method[1], call, depth)
            if found is not UNKNOWN:
                return found
        callees: list[Resolved] = list(self.resolver.resolve(call.callee))
        if not any(isinstance(c, RFunc) for c in callees):
            callees += called_functions(call.callee, self.resolver)
        for callee in callees:
            if isinstance(callee, RExternal) and callee.path[-1:] in (
                ("ToolAnnotations",),
                ("Tool",),
                ("ListToolsResult",),
                ("dict",),
            ):
                return {k: self.eval(v, depth + 1) for k, v in call.kwargs}
            if isinstance(callee, RExternal) and callee.path in _COPIES and call.args:
                inner = self.eval(call.args[0], depth + 1)
                return inner if isinstance(inner, list) else UNKNOWN
            if isinstance(callee, RExternal) and callee.path == ("Object", "values"):
                inner = self.eval(call.args[0], depth + 1) if call.args else UNKNOWN
                return list(inner.values()) if isinstance(inner, dict) else UNKNOWN
            if isinstance(callee, RFunc):
                fn = self.resolver.project.functions.get(callee.func_id)
                if fn is None or not fn.returns or len(fn.returns) > _MAX_RETURNS:
                    continue
                env = self._closure_env(fn, call.callee)
                env.update(zip(fn.params, call.args, strict=False))
                env.update(dict(call.kwargs))
                inner = StaticEvaluator(self.resolver, env)
                return _union([inner.eval(r, depth + 1) for r in fn.returns])
        return UNKNOWN

    def _bound(self, value: ir.Value) -> ir.Value:
        from toolwitness.code.helpers import substitute

        return substitute(value, {(k, ""): v for k, v in self.env.items()})

    def _closure_env(self, fn: ir.Function, callee: ir.Value) -> dict[str, ir.Value]:
        """`factory(def)(args)`: the closure factory returned also sees the factory's
        parameters, bound to the arguments of the inner call."""
        if isinstance(callee, ir.Name) and len(callee.path) == 1:  # `const t = factory(def)`
            bound = self.resolver.lookup(callee.path[0], callee.scope) or []
            callee = bound[0] if len(bound) == 1 else callee
        if not isinstance(callee, ir.Call):
            return {}
        for outer in self.resolver.resolve(callee.callee):
            if isinstance(outer, RFunc) and outer.func_id == fn.parent_scope:
                factory = self.resolver.project.functions[outer.func_id]
                return dict(zip(factory.params, callee.args, strict=False))
        return {}

    def _array_call(self, base: ir.Value, method: str, call: ir.Call, depth: int) -> Any:
        """`xs.filter(f)`, `xs.slice(…)`, `xs.sort(…)`: (at most) the elements of xs — a tools
        list filtered at run time is over-approximated by all of them; `xs.concat(ys)`: both;
        `xs.map(f)`: f's one return value for each element."""
        if method in _SAME_ELEMENTS:
            items = self.eval(base, depth + 1)
            if method == "values" and isinstance(items, dict):  # a Map's or object's values
                return list(items.values())
            return items if isinstance(items, list) else UNKNOWN
        if method == "concat":
            items = self.eval(base, depth + 1)
            if not isinstance(items, list):
                return UNKNOWN
            out = list(items)
            for arg in call.args:
                more = self.eval(arg.value if isinstance(arg, ir.Spread) else arg, depth + 1)
                out.extend(more if isinstance(more, list) else [more])
            return out
        if method in ("map", "flatMap") and call.args:
            elements = self.resolver.array_elements(base)
            if elements is None:
                return UNKNOWN
            mapped: list[Any] = []
            for fn in self.resolver.resolve(call.args[0]):
                function = (
                    self.resolver.project.functions.get(fn.func_id)
                    if isinstance(fn, RFunc)
                    else None
                )
                if function is None or len(function.returns) != 1 or not function.params:
                    return UNKNOWN
                for element in elements:
                    env = {function.params[0]: element}
                    one = StaticEvaluator(self.resolver, env).eval(function.returns[0], depth + 1)
                    if method == "flatMap" and isinstance(one, list):
                        mapped.extend(one)
                    else:
                        mapped.append(one)
                return mapped
        return UNKNOWN


_MAX_RETURNS = 16
_MAX_BINDINGS = 256
_COPIES = (("Array", "from"), ("list",), ("tuple",), ("sorted",))  # a list of the same items
_SAME_ELEMENTS = frozenset(
    {"filter", "slice", "sort", "toSorted", "reverse", "toReversed", "flat", "values"}
)


def _array_method(callee: ir.Value) -> tuple[ir.Value, str] | None:
    """(receiver, method) of `receiver.method(…)` for the array methods folded above."""
    if isinstance(callee, ir.Name) and len(callee.path) >= 2:
        base: ir.Value = ir.Name(callee.path[:-1], callee.scope)
        method = callee.path[-1]
    elif isinstance(callee, ir.Member) and callee.path:
        base = ir.Member(callee.base, callee.path[:-1]) if len(callee.path) > 1 else callee.base
        method = callee.path[-1]
    else:
        return None
    if method in _SAME_ELEMENTS or method in ("concat", "map", "flatMap"):
        return base, method
    return None


def _union(values: list[Any]) -> Any:
    """Several possible values: lists join (a tools list under a condition is all its tools);
    anything else is known only when every option agrees."""
    if not values or any(v is UNKNOWN for v in values):
        return UNKNOWN  # never a subset: the caller reports what it could not read
    if all(isinstance(v, list) for v in values):
        return [item for v in values for item in v]
    first = values[0]
    return first if all(v == first for v in values[1:]) else UNKNOWN

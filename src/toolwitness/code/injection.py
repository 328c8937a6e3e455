"""Dependency-injection containers at resolution time: tokens, registrations, injections.

Every `container.register(Token, {useValue | useClass | useFactory | useToken})`,
`registerSingleton(Token, Class)`, `registerInstance(Token, value)` in the tree (the receiver is
not required to resolve: containers are passed around as parameters, and bundles inline the
library) is indexed by its token. A token is the same token where it is the same class, the
same string, or a `Symbol("X")` / `Symbol.for("X")` / `new InjectionToken("X")` of the same
description. What a parameter injected with the token holds, or `container.resolve(Token)`
returns, is the union of everything registered under it, whatever condition guards each
registration (a sound over-approximation); `injectAll` / `resolveAll` hold it as an array, and
a value registered from a loop (`for (const t of TOOLS) c.register(T, {useValue: t})`) stands
for each element of what the loop walks. `container.resolve(Class)` of a class registered under
no token is a new instance of it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolwitness.code import ir
from toolwitness.code.injection_data import injection_names

if TYPE_CHECKING:
    from toolwitness.code.resolve import Resolved, Resolver

TokenKey = tuple[str, str]
_MAX_REGISTRATIONS = 10_000
_MAX_TOKEN_STEPS = 64


class Injections:
    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self._index: dict[TokenKey, list[ir.Value]] | None = None

    def registered(self, token: ir.Value) -> list[ir.Value] | None:
        """Values registered under the token (as written), or None if it has no registration."""
        index = self._built()
        found: list[ir.Value] = []
        keys = token_keys(self.resolver, token)
        for key in sorted(keys):
            found += index.get(key, [])
        return found if any(k in index for k in keys) else None

    def resolve_injected(self, value: ir.Injected) -> list[Resolved]:
        from toolwitness.code.resolve import RValue

        provided = self.registered(value.token) or []
        if value.many:
            return [RValue(ir.Arr(tuple(_as_elements(self.resolver, v) for v in provided)))]
        return [r for v in provided for r in self.resolver.resolve(_as_one(self.resolver, v))]

    def container_call(self, call: ir.Call) -> list[Resolved] | None:
        """`container.resolve(Token)` / `resolveAll(Token)`; None when not such a call."""
        from toolwitness.code.resolve import RClass, RInstance

        callee = call.callee
        method = callee.path[-1] if isinstance(callee, ir.Name) and len(callee.path) > 1 else None
        kind = injection_names().resolve.get(method or "")
        if kind is None or not call.args:
            return None
        if self.registered(call.args[0]) is not None:
            return self.resolve_injected(ir.Injected(call.args[0], kind == "many"))
        classes = [r for r in self.resolver.resolve(call.args[0]) if isinstance(r, RClass)]
        if classes and kind == "one":  # a class resolved by itself: a new instance
            return [RInstance(c.class_id) for c in classes]
        return None

    def _built(self) -> dict[TokenKey, list[ir.Value]]:
        if self._index is None:
            self._index = {}
            project = self.resolver.project
            tops = [m.top for m in project.modules.values() if m.top is not None]
            count = 0
            for fn in [*project.functions.values(), *tops]:
                for use in fn.uses:
                    if count >= _MAX_REGISTRATIONS:
                        break
                    provided = self._provided(use)
                    if provided is None:
                        continue
                    count += 1
                    for key in token_keys(self.resolver, use.args[0]):
                        self._index.setdefault(key, []).append(provided)
        return self._index

    @staticmethod
    def _provided(use: ir.Use) -> ir.Value | None:
        """What one registration call provides under its first argument's token."""
        target = use.target
        if not use.is_call or not isinstance(target, ir.Name) or len(use.args) < 2:
            return None
        names = injection_names()
        kind = names.register.get(target.path[-1])
        given = use.args[1]
        if kind == "class":
            return ir.Call(given, (), (), True)
        if kind == "token":
            return ir.Injected(given, False)
        if kind == "value":
            return given
        if kind != "provider" or not isinstance(given, ir.Obj):
            return None
        for key, value in given.items:
            how = names.providers.get(key)
            if how == "value":
                return value
            if how == "class":
                return ir.Call(value, (), (), True)
            if how == "factory":
                return ir.Call(value, (), (), False)
            if how == "token":
                return ir.Injected(value, False)
        return None


def _loop_source(resolver: Resolver, value: ir.Value) -> ir.Value | None:
    """`t` bound only as the element of a loop over X (`for (const t of X)`): X."""
    if not isinstance(value, ir.Name) or len(value.path) != 1:
        return None
    bound = resolver.lookup(value.path[0], value.scope) or []
    if len(bound) == 1 and isinstance(bound[0], ir.Member) and bound[0].path == (ir.COMPUTED,):
        return bound[0].base
    return None


def _as_elements(resolver: Resolver, value: ir.Value) -> ir.Value:
    source = _loop_source(resolver, value)
    return ir.Spread(source) if source is not None else value


def _as_one(resolver: Resolver, value: ir.Value) -> ir.Value:
    source = _loop_source(resolver, value)
    return ir.Member(source, (ir.COMPUTED,)) if source is not None else value


def token_keys(resolver: Resolver, token: ir.Value) -> frozenset[TokenKey]:
    """What identifies a token: a class, a string, or the description of a symbol."""
    from toolwitness.code.resolve import RClass, RValue

    keys: set[TokenKey] = set()
    for resolved in resolver.resolve(token):
        if isinstance(resolved, RClass):
            keys.add(("class", resolved.class_id))
        elif isinstance(resolved, RValue) and isinstance(resolved.value, ir.Lit):
            literal = resolved.value.value
            keys |= {("string", literal)} if isinstance(literal, str) else set()
    makers = injection_names().token_makers
    todo: list[tuple[ir.Value, tuple[str, ...]]] = [(token, ())]
    steps = 0
    while todo and steps < _MAX_TOKEN_STEPS:
        value, rest = todo.pop()
        steps += 1
        if isinstance(value, ir.Name):  # `tokens_1.ToolDefinitions`: the binding, then members
            bound = resolver.lookup(value.path[0], value.scope) or []
            todo += [(b, (*value.path[1:], *rest)) for b in bound]
        elif isinstance(value, ir.Import) and (rest or len(value.path) == 1):
            imp = value if not rest else ir.Import(value.module, (*value.path, rest[0]),
                                                   value.from_file, value.level)  # fmt: skip
            later = rest[1:] if rest else ()
            todo += [(v, later) for v in resolver.import_values(imp)]
        elif isinstance(value, ir.Obj) and rest:
            todo += [(v, rest[1:]) for k, v in value.items if k == rest[0]]
        elif isinstance(value, ir.Call) and isinstance(value.callee, ir.Name) and not rest:
            described = value.args[0] if value.args else None
            if value.callee.path[-1] in makers and isinstance(described, ir.Lit):
                keys.add(("symbol", str(described.value)))
    return frozenset(keys)

"""Registrations inside helpers: values that read a parameter are bound at each call site.

`function add(t) { server.registerTool(t.name, {…}, t.run) }` called as `add(TOOL)` or in a loop
over definitions, or a Python decorator factory (`def register(name): def deco(fn):
mcp.tool(fn, name=name)` used as `@register("x")`) register one tool per call site: the
registration is copied once per site with the parameters replaced by the arguments written there.
Call sites are found through an index of call uses by the name they call, then confirmed by
resolution; the work is bounded (sites per helper, copies per registration).
"""

from __future__ import annotations

from collections.abc import Iterator

from toolwitness.code import ir
from toolwitness.code.project import Project
from toolwitness.code.resolve import Resolver, RFunc
from toolwitness.plainclass import replace

MAX_SITES = 256  # call sites of one helper
MAX_NAMES = 4096  # names walked in one registration's values


def names_in(value: ir.Value | None, budget: list[int] | None = None) -> Iterator[ir.Name]:
    """Every name read inside a value (nested calls, members, objects, arrays, choices)."""
    budget = budget if budget is not None else [MAX_NAMES]
    todo: list[ir.Value] = [value] if value is not None else []
    while todo and budget[0] > 0:
        budget[0] -= 1
        current = todo.pop()
        if isinstance(current, ir.Name):
            yield current
        elif isinstance(current, ir.Member):
            todo.append(current.base)
        elif isinstance(current, ir.Call):
            todo += [current.callee, *current.args, *(v for _, v in current.kwargs)]
        elif isinstance(current, ir.Obj):
            todo += [*(v for _, v in current.items), *current.spreads]
        elif isinstance(current, ir.Arr | ir.Concat):
            todo += list(current.items if isinstance(current, ir.Arr) else current.parts)
        elif isinstance(current, ir.Choice):
            todo += list(current.options)
        elif isinstance(current, ir.Spread):
            todo.append(current.value)


def reg_values(reg: ir.Registration) -> list[ir.Value]:
    return [*reg.args, *(v for _, v in reg.kwargs), *([reg.handler] if reg.handler else [])]


def substitute(value: ir.Value, env: dict[tuple[str, str], ir.Value]) -> ir.Value:
    """`value` with each parameter name (name, owning scope) replaced by its argument."""
    if isinstance(value, ir.Name):
        return _replace_name(value, env)
    if isinstance(value, ir.Member):
        return ir.Member(substitute(value.base, env), value.path)
    if isinstance(value, ir.Call):
        return ir.Call(
            substitute(value.callee, env),
            tuple(substitute(a, env) for a in value.args),
            tuple((k, substitute(v, env)) for k, v in value.kwargs),
            value.new,
        )
    if isinstance(value, ir.Obj):
        return ir.Obj(
            tuple((k, substitute(v, env)) for k, v in value.items),
            tuple(substitute(v, env) for v in value.spreads),
        )
    if isinstance(value, ir.Arr):
        return ir.Arr(tuple(substitute(v, env) for v in value.items))
    if isinstance(value, ir.Concat):
        return ir.Concat(tuple(substitute(p, env) for p in value.parts))
    if isinstance(value, ir.Choice):
        return ir.Choice(tuple(substitute(p, env) for p in value.options))
    if isinstance(value, ir.Spread):
        return ir.Spread(substitute(value.value, env))
    return value


def _replace_name(name: ir.Name, env: dict[tuple[str, str], ir.Value]) -> ir.Value:
    for (param, _owner), arg in env.items():
        if name.path[0] != param:
            continue
        rest = name.path[1:]
        if not rest:
            return arg
        if isinstance(arg, ir.Name):
            return ir.Name((*arg.path, *rest), arg.scope)
        return ir.Member(arg, rest)
    return name


class CallSites:
    """Where each local function is called (or applied as a decorator), found on demand."""

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self.project = resolver.project
        self._by_name: dict[str, list[tuple[ir.Function, ir.Use]]] | None = None
        self._applied: list[tuple[ir.Function, ir.Value]] | None = None
        self.work = 0  # uses indexed and candidate sites resolved (counted, not timed)

    def _index(self) -> dict[str, list[tuple[ir.Function, ir.Use]]]:
        if self._by_name is None:
            self._by_name = {}
            self._applied = []
            tops = [m.top for m in self.project.modules.values() if m.top is not None]
            for fn in [*self.project.functions.values(), *tops]:
                for use in fn.uses:
                    self.work += 1
                    key = _called_name(use.target) if use.is_call else None
                    if key is not None:
                        self._by_name.setdefault(key, []).append((fn, use))
                self._applied += [(fn, d) for d in fn.applied_decorators]
        return self._by_name

    def _is(self, value: ir.Value, func_id: str) -> bool:
        self.work += 1
        return RFunc(func_id) in self.resolver.resolve(value)

    def param_owner(self, name: ir.Name) -> tuple[str, int] | None:
        """(function id, index) when the name's head is a parameter of an enclosing function."""
        head = name.path[0]
        current: str | None = name.scope
        while current is not None:
            scope = self.project.scopes.get(current)
            if scope is None:
                return None
            if head in scope.bindings:
                fn = self.project.functions.get(current)
                if fn is None or head not in fn.params:
                    return None
                return current, fn.params.index(head)
            current = scope.parent
        return None

    def envs(self, value: ir.Value) -> list[dict[str, ir.Value]]:
        """Bindings (by name) of the parameters a value reads, one per call site of the
        innermost function owning them (a tools list passed to a setup helper)."""
        owners: dict[str, int] = {}
        for name in names_in(value):
            found = self.param_owner(name)
            if found is not None:
                owners[found[0]] = self._depth(found[0])
        if not owners:
            return []
        helper = max(owners, key=lambda f: owners[f])
        return [{k[0]: v for k, v in env.items()} for env in self.sites(helper)]

    def expand(self, reg: ir.Registration) -> list[ir.Registration] | None:
        """One copy per call site of the innermost helper whose parameters the registration
        reads; None when it reads none (or no site was found: the caller keeps it as is)."""
        owners: dict[str, int] = {}
        for name in (n for v in reg_values(reg) for n in names_in(v)):
            found = self.param_owner(name)
            if found is not None:
                owners[found[0]] = self._depth(found[0])
        if not owners:
            return None
        helper = max(owners, key=lambda f: owners[f])
        copies: list[ir.Registration] = []
        for env in self.sites(helper)[:MAX_SITES]:
            copies.append(
                replace(
                    reg,
                    args=tuple(substitute(a, env) for a in reg.args),
                    kwargs=tuple((k, substitute(v, env)) for k, v in reg.kwargs),
                    handler=substitute(reg.handler, env) if reg.handler else None,
                )
            )
        return copies or None

    def _depth(self, scope_id: str) -> int:
        depth, current = 0, self.project.scopes.get(scope_id)
        while current is not None and current.parent is not None and depth < 256:
            depth += 1
            current = self.project.scopes.get(current.parent)
        return depth

    def sites(self, func_id: str) -> list[dict[tuple[str, str], ir.Value]]:
        """Parameter bindings at every call of `func_id`: direct calls, and — for a function
        another one returns (a decorator factory) — applications of that factory's result."""
        fn = self.project.functions[func_id]
        by_name = self._index()
        simple = fn.name.rsplit(".", 1)[-1]
        out: list[dict[tuple[str, str], ir.Value]] = []
        for _caller, use in by_name.get(simple, [])[: MAX_SITES * 4]:
            if isinstance(use.target, ir.Call) or not self._is(use.target, func_id):
                continue
            out.append(self._bind(fn, use.args, use.kwargs, _self_offset(fn, self.project)))
        factory = self._factory_of(fn)
        if factory is not None:
            out += self._factory_sites(fn, factory)
        else:
            for target, decorator in self._applied or []:
                if isinstance(decorator, ir.Name) and self._is(decorator, func_id):
                    out.append(self._bind(fn, (ir.FuncRef(target.id),), (), 0))
        return out[:MAX_SITES]

    def _factory_of(self, fn: ir.Function) -> ir.Function | None:
        parent = self.project.functions.get(fn.parent_scope)
        if parent is None or not any(
            RFunc(fn.id) in self.resolver.resolve(r) for r in parent.returns
        ):
            return None
        return parent

    def _factory_sites(
        self, fn: ir.Function, factory: ir.Function
    ) -> list[dict[tuple[str, str], ir.Value]]:
        """`@factory(args) def g` and `factory(args)(g)`: fn's parameter is g, the factory's
        are the arguments."""
        out: list[dict[tuple[str, str], ir.Value]] = []
        simple = factory.name.rsplit(".", 1)[-1]
        for _caller, use in self._index().get(simple, [])[: MAX_SITES * 4]:
            inner = use.target
            if isinstance(inner, ir.Call) and self._is(inner.callee, factory.id):
                env = self._bind(factory, inner.args, inner.kwargs, 0)
                env.update(self._bind(fn, use.args, use.kwargs, 0))
                out.append(env)
        for target, decorator in self._applied or []:
            if isinstance(decorator, ir.Call) and self._is(decorator.callee, factory.id):
                env = self._bind(factory, decorator.args, decorator.kwargs, 0)
                env.update(self._bind(fn, (ir.FuncRef(target.id),), (), 0))
                out.append(env)
        return out

    @staticmethod
    def _bind(
        fn: ir.Function,
        args: tuple[ir.Value, ...],
        kwargs: tuple[tuple[str, ir.Value], ...],
        offset: int,
    ) -> dict[tuple[str, str], ir.Value]:
        env: dict[tuple[str, str], ir.Value] = {}
        params = fn.params[offset:]
        for param, arg in zip(params, args, strict=False):
            if isinstance(arg, ir.Spread):
                break
            env[(param, fn.id)] = arg
        for key, arg in kwargs:
            if key in params:
                env[(key, fn.id)] = arg
        return env


def _called_name(target: ir.Value) -> str | None:
    if isinstance(target, ir.Name):
        return target.path[-1]
    if isinstance(target, ir.Member) and target.path:
        return target.path[-1]
    if isinstance(target, ir.Call):
        return _called_name(target.callee)
    return None


def _self_offset(fn: ir.Function, project: Project) -> int:
    """A Python method called through an attribute (`self.add(t)`) binds `self` first."""
    if not fn.params or project.module_of(fn.id).language != "py":
        return 0
    bound = project.scopes[fn.id].bindings.get(fn.params[0], [])
    return 1 if any(_is_class(b) for b in bound) else 0


def _is_class(value: ir.Value) -> bool:
    if isinstance(value, ir.ClassRef):
        return True
    return isinstance(value, ir.Call) and isinstance(value.callee, ir.ClassRef)


def inline_member(value: ir.Value, resolver: Resolver) -> list[ir.Value]:
    """`factory(opts).run` where `factory = defineTool(make)`: the member of what the call
    returns, with the parameters of the function called and of the factory that made it (and
    the function's locals bound once) replaced by the arguments — what resolution without call
    contexts cannot see through a closure."""
    if not (isinstance(value, ir.Member) and isinstance(value.base, ir.Call)):
        return []
    call = value.base
    project = resolver.project
    made_by = call.callee
    if isinstance(made_by, ir.Name) and len(made_by.path) == 1:
        bound = resolver.lookup(made_by.path[0], made_by.scope) or []
        made_by = bound[0] if len(bound) == 1 else made_by
    out: list[ir.Value] = []
    for found in called_functions(call.callee, resolver)[:8]:
        fn = project.functions.get(found.func_id)
        if fn is None:
            continue
        env: dict[tuple[str, str], ir.Value] = {}
        parent = project.functions.get(fn.parent_scope)
        if (
            isinstance(made_by, ir.Call)
            and parent is not None
            and RFunc(parent.id) in resolver.resolve(made_by.callee)
        ):
            env.update(
                {(p, parent.id): a for p, a in zip(parent.params, made_by.args, strict=False)}
            )
        env.update({(p, fn.id): a for p, a in zip(fn.params, call.args, strict=False)})
        for name, values in project.scopes[fn.id].bindings.items():
            once = values[0] if len(values) == 1 else None
            if name not in fn.params and isinstance(once, ir.Call | ir.Member | ir.Name):
                env[(name, fn.id)] = substitute(once, env)
        out += [ir.Member(substitute(r, env), value.path) for r in fn.returns[:8]]
    return out


def called_functions(callee: ir.Value, resolver: Resolver) -> list[RFunc]:
    """The local functions a callee names — also through an identity-like helper: `const t =
    defineTool(make)` where `defineTool(d) { return d }` names `make`."""
    found = [r for r in resolver.resolve(callee) if isinstance(r, RFunc)]
    if found or not (isinstance(callee, ir.Name) and len(callee.path) == 1):
        return found
    bound = resolver.lookup(callee.path[0], callee.scope) or []
    made = bound[0] if len(bound) == 1 else None
    if not isinstance(made, ir.Call):
        return []
    for helper in resolver.resolve(made.callee)[:8]:
        fn = resolver.project.functions.get(helper.func_id) if isinstance(helper, RFunc) else None
        if fn is None:
            continue
        env = {(p, fn.id): a for p, a in zip(fn.params, made.args, strict=False)}
        for returned in fn.returns[:8]:
            found += [
                r for r in resolver.resolve(substitute(returned, env)) if isinstance(r, RFunc)
            ]
    return list(dict.fromkeys(found))

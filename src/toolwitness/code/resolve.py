"""Resolve symbolic values across modules: scopes, imports, exports, members, instances.

Resolution is flow-insensitive and returns every candidate a name may hold (sound
over-approximation). A local import that cannot be found, or a name a local module does not
export, resolves to `Missing` with a reason: the caller turns that into UNANALYZABLE.
"""

from __future__ import annotations

from typing import Any

from toolwitness.code import ir
from toolwitness.code.injection import Injections
from toolwitness.code.project import Project
from toolwitness.code.sinks import SinkCatalog
from toolwitness.plainclass import plainclass


@plainclass(frozen=True)
class RFunc:
    func_id: str


@plainclass(frozen=True)
class RClass:
    class_id: str


@plainclass(frozen=True)
class RInstance:
    class_id: str


@plainclass(frozen=True)
class RModule:
    key: str


@plainclass(frozen=True)
class RExternal:
    """A member path of a module outside the project (or a global when `module` is None)."""

    language: str
    module: str | None
    path: tuple[str, ...]
    instance_at: int | None = None  # path length where a call produced an instance


@plainclass(frozen=True)
class RValue:
    value: ir.Value


@plainclass(frozen=True)
class Missing:
    reason: str


Resolved = RFunc | RClass | RInstance | RModule | RExternal | RValue | Missing
UNKNOWN: Any = object()
_MAX_CANDIDATES = 64


class Resolver:
    def __init__(
        self, project: Project, max_depth: int = 40, catalog: SinkCatalog | None = None
    ) -> None:
        self.project = project
        self.catalog = catalog
        self.max_depth = max_depth
        self._cache: dict[ir.Value, tuple[Resolved, ...]] = {}
        self._active: set[ir.Value] = set()
        self._factories: dict[RExternal, RExternal | None] = {}
        self._members_active: set[tuple[RValue, str]] = set()
        self._member_cache: dict[tuple[RValue, str], list[Resolved]] = {}
        self._member_partial: dict[tuple[RValue, str], list[Resolved]] = {}
        self._member_cuts = 0
        self.static_cache: dict[ir.Value, Any] = {}  # constant folding without an environment
        self.truncated = False
        self.injections = Injections(self)  # dependency-injection containers

    # -- names and values --------------------------------------------------------------------
    def lookup(self, name: str, scope_id: str) -> list[ir.Value] | None:
        current: str | None = scope_id
        while current is not None:
            scope = self.project.scopes.get(current)
            if scope is None:
                return None
            if name in scope.bindings:
                return scope.bindings[name]
            current = scope.parent
        return None

    def resolve(self, value: ir.Value) -> tuple[Resolved, ...]:
        cached = self._cache.get(value)
        if cached is not None:
            return cached
        if value in self._active or len(self._active) > self.max_depth:
            self.truncated = self.truncated or len(self._active) > self.max_depth
            return ()
        self._active.add(value)
        try:
            result = _dedupe(self._resolve(value))
        finally:
            self._active.discard(value)
        self._cache[value] = result
        return result

    def _resolve(self, value: ir.Value) -> list[Resolved]:
        if isinstance(value, ir.Name):
            return self._name(value)
        if isinstance(value, ir.FuncRef):
            return [RFunc(value.func_id)]
        if isinstance(value, ir.ClassRef):
            return [RClass(value.class_id)]
        if isinstance(value, ir.Import):
            return self._import(value)
        if isinstance(value, ir.Call):
            return self._call(value)
        if isinstance(value, ir.Member):
            return self.members(list(self.resolve(value.base)), value.path)
        if isinstance(value, ir.Spread):
            return list(self.resolve(value.value))
        if isinstance(value, ir.Choice):
            return [r for option in value.options for r in self.resolve(option)]
        if isinstance(value, ir.Injected):
            return self.injections.resolve_injected(value)
        return [RValue(value)]

    def _name(self, name: ir.Name) -> list[Resolved]:
        head, rest = name.path[0], name.path[1:]
        bound = self.lookup(head, name.scope)
        language = self.project.module_of(name.scope).language
        if bound is None:
            return [RExternal(language, None, name.path)]
        bases = [r for v in bound for r in self.resolve(v)]
        return self.members(bases, rest)

    def _import(self, imp: ir.Import) -> list[Resolved]:
        module = self.project.module_of(imp.from_file)
        if module.language == "py":
            key = self.project.resolve_py(imp.from_file, imp.module, imp.level)
            if key is None and imp.level == 0 and imp.path:
                # `from pkg import sub` where pkg/sub.py is a module of the project
                sub = self.project.resolve_py(imp.from_file, f"{imp.module}.{imp.path[0]}", 0)
                if sub is not None:
                    return self.members([RModule(sub)], imp.path[1:])
            if key is None:
                if imp.level:
                    return [Missing(f"relative import {'.' * imp.level}{imp.module} not found")]
                return [RExternal("py", imp.module, imp.path)]
            return self.members([RModule(key)], imp.path)
        key = self.project.resolve_js(imp.from_file, imp.module)
        if key is None:
            if imp.module.startswith((".", "/")):
                return [Missing(f"module {imp.module!r} imported by {imp.from_file} not found")]
            spec = imp.module.removeprefix("node:")
            return [RExternal("js", spec, imp.path)]
        path = imp.path
        if path[:1] == ("default",) and "default" not in self.project.modules[key].exports:
            path = path[1:]  # a namespace-style module imported as default (CommonJS interop)
        return self.members([RModule(key)], path)

    def _call(self, call: ir.Call) -> list[Resolved]:
        injected = self.injections.container_call(call)
        if injected is not None:  # `container.resolve(Token)`: what is registered under it
            return injected
        out: list[Resolved] = []
        for callee in self.resolve(call.callee):
            if isinstance(callee, RFunc) and _method(call.callee) == "bind":
                out.append(callee)  # `fn.bind(obj)` is fn, bound
            elif _method(call.callee) == "get" and self._map_entries(call.callee):
                out += self._map_entries(call.callee)  # `registry.get(name)`: any entry
            elif isinstance(callee, RExternal) and call.args and self._passes_through(callee):
                first = call.args[0]
                out += self.resolve(first.value if isinstance(first, ir.Spread) else first)
            else:
                out += self.call_result(callee)
        return out

    def _map_entries(self, callee: ir.Value) -> list[Resolved]:
        """The values of a Map (or object) whose `.get` is called: every entry it may hold."""
        if isinstance(callee, ir.Name) and len(callee.path) >= 2:
            base: ir.Value = ir.Name(callee.path[:-1], callee.scope)
        elif isinstance(callee, ir.Member) and callee.path:
            base = ir.Member(callee.base, callee.path[:-1]) if len(callee.path) > 1 else callee.base
        else:
            return []
        objects = [r for r in self.resolve(base) if isinstance(r, RValue)]
        return [
            e for r in objects if isinstance(r.value, ir.Obj) for e in self.member(r, ir.COMPUTED)
        ]

    def _passes_through(self, callee: RExternal) -> bool:
        if self.catalog is None or callee.instance_at is not None or not callee.path:
            return False
        return self.catalog.passes_through(callee.language, callee.module, ".".join(callee.path))

    # -- members and calls -------------------------------------------------------------------
    def members(self, bases: list[Resolved], path: tuple[str, ...]) -> list[Resolved]:
        current = bases
        for name in path:
            current = list(_dedupe([m for base in current for m in self.member(base, name)]))
            if len(current) > _MAX_CANDIDATES:
                current = current[:_MAX_CANDIDATES]
                self.truncated = True
        return current

    def member(self, base: Resolved, name: str) -> list[Resolved]:
        if isinstance(base, RExternal):
            return [RExternal(base.language, base.module, (*base.path, name), base.instance_at)]
        if isinstance(base, RModule):
            return self.export(base.key, name)
        if isinstance(base, RClass | RInstance):
            return self._class_member(base, name)
        if isinstance(base, RFunc):
            return [base] if name in ("call", "apply", "bind") else []
        if isinstance(base, RValue):
            key = (base, name)  # `x = {...x}` (flow-insensitive) would otherwise never end
            done = self._member_cache.get(key) or self._member_partial.get(key)
            if done is not None:  # nested objects reached by many paths: each member once
                return done
            if key in self._members_active or len(self._members_active) > self.max_depth:
                self.truncated = self.truncated or key not in self._members_active
                self._member_cuts += 1
                return []
            self._members_active.add(key)
            cuts = self._member_cuts
            try:
                found = self._value_member(base.value, name)
            finally:
                self._members_active.discard(key)
            if cuts == self._member_cuts:  # complete (no cycle cut inside): safe to keep
                self._member_cache[key] = found
            else:  # cut by a cycle still being resolved: reused only until that ends
                self._member_partial[key] = found
            if not self._members_active:
                self._member_partial.clear()
            return found
        return [base] if isinstance(base, Missing) else []

    def _class_member(self, base: RClass | RInstance, name: str) -> list[Resolved]:
        seen: set[str] = set()
        todo = [base.class_id]
        while todo:
            cid = todo.pop()
            if cid in seen:
                continue
            seen.add(cid)
            cls = self.project.classes.get(cid)
            if cls is None:
                continue
            if name in cls.methods:
                return [RFunc(cls.methods[name])]
            if name in cls.attrs:
                return [r for v in cls.attrs[name] for r in self.resolve(v)]
            for base_value in cls.bases:
                for parent in self.resolve(base_value):
                    if isinstance(parent, RClass):
                        todo.append(parent.class_id)
                    elif isinstance(parent, RExternal) and isinstance(base, RInstance):
                        path = (*parent.path, name)
                        return [RExternal(parent.language, parent.module, path, len(path) - 1)]
        if isinstance(base, RClass) and name == "prototype":
            return [RInstance(base.class_id)]
        return []

    def _value_member(self, value: ir.Value, name: str) -> list[Resolved]:
        if isinstance(value, ir.Obj):
            items = [v for k, v in value.items if name in (k, ir.COMPUTED) or k == ir.COMPUTED]
            found = [r for v in items for r in self.resolve(v)]
            for spread in value.spreads:
                found += self.members(list(self.resolve(spread)), (name,))
            return found
        if isinstance(value, ir.Arr) and (name == ir.COMPUTED or name.isdigit()):
            items = list(value.items) if not name.isdigit() else list(value.items[int(name) :][:1])
            return [r for v in items for r in self.resolve(v)]
        if isinstance(value, ir.Lit) and isinstance(value.value, str) and name == "value":
            return [RValue(value)]  # a string enum member's `.value`
        return []

    def call_result(self, callee: Resolved) -> list[Resolved]:
        if isinstance(callee, RClass):
            return [RInstance(callee.class_id)]
        if isinstance(callee, RModule):  # `require("./m")()`: the module's default export
            return [r for d in self.export(callee.key, "default") for r in self.call_result(d)]
        if isinstance(callee, RFunc):
            fn = self.project.functions.get(callee.func_id)
            return [r for v in (fn.returns if fn else []) for r in self.resolve(v)]
        if isinstance(callee, RExternal):
            made = self._factory(callee)
            if made is not None:
                return [made]
            # what a call returns is a new value: only its own members can be sinks
            return [RExternal(callee.language, callee.module, callee.path, len(callee.path))]
        return [callee] if isinstance(callee, Missing) else []

    def _factory(self, callee: RExternal) -> RExternal | None:
        """The instance a catalogued factory returns (`axios.create()` -> AxiosInstance)."""
        if callee in self._factories:
            return self._factories[callee]
        made = self._factory_lookup(callee)
        self._factories[callee] = made
        return made

    def _factory_lookup(self, callee: RExternal) -> RExternal | None:
        if self.catalog is None or not callee.path:
            return None
        at = callee.instance_at
        path = callee.path
        whole = at is None or at >= len(path)
        name = ".".join(path) if whole else ".".join(path[:at]) + "#" + ".".join(path[at:])
        made = self.catalog.instance_type(callee.language, callee.module, name)
        if made is None:
            return None
        return RExternal(callee.language, made[0], (made[1],), 1)

    def export(self, key: str, name: str) -> list[Resolved]:
        module = self.project.modules[key]
        if module.language == "py":
            scope = module.scopes[key]
            if name in scope.bindings:
                return [r for v in scope.bindings[name] for r in self.resolve(v)]
            sub = self.project.resolve_py(key, name, 1)
            if sub is not None and sub != key:
                return [RModule(sub)]
            return [Missing(f"{name!r} is not defined in {key}")]
        if name in module.exports:
            return [r for v in module.exports[name] for r in self.resolve(v)]
        found: list[Resolved] = []
        for star in module.star_exports:
            found += [r for r in self.members(list(self.resolve(star)), (name,)) if not _missing(r)]
        if found:
            return found
        if name == ir.COMPUTED:
            return [r for vs in module.exports.values() for v in vs for r in self.resolve(v)]
        return [Missing(f"{name!r} is not exported by {key}")]

    def array_elements(self, value: ir.Value, depth: int = 0) -> list[ir.Value] | None:
        """The element values of an array a value holds, or None if not known (`arrays`)."""
        from toolwitness.code.arrays import array_elements

        return array_elements(self, value, depth)

    def import_values(self, imp: ir.Import) -> list[ir.Value]:
        """The raw values a local module binds to an imported name (for constant folding)."""
        if len(imp.path) != 1:
            return []
        module = self.project.module_of(imp.from_file)
        if module.language == "py":
            key = self.project.resolve_py(imp.from_file, imp.module, imp.level)
            if key is None:
                return []
            return list(self.project.modules[key].scopes[key].bindings.get(imp.path[0], []))
        key = self.project.resolve_js(imp.from_file, imp.module)
        if key is None:
            return []
        return list(self.project.modules[key].exports.get(imp.path[0], []))

    # -- static evaluation (tool names, descriptions, annotations) ---------------------------
    def static(self, value: ir.Value | None, env: dict[str, ir.Value] | None = None) -> Any:
        """The constant a value folds to (str, number, bool, None, dict, list) or UNKNOWN."""
        from toolwitness.code.static import StaticEvaluator

        return StaticEvaluator(self, env or {}).eval(value, 0)


def _method(callee: ir.Value) -> str | None:
    if isinstance(callee, ir.Name) and len(callee.path) >= 2:
        return callee.path[-1]
    if isinstance(callee, ir.Member) and callee.path:
        return callee.path[-1]
    return None


def _missing(r: Resolved) -> bool:
    return isinstance(r, Missing)


def _dedupe(items: list[Resolved]) -> tuple[Resolved, ...]:
    return tuple(dict.fromkeys(items))

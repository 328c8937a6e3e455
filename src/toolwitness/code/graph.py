"""Reachability from a tool's handler to capability sinks, with witnesses and reasons.

Breadth-first over functions (so each witness carries a shortest call path): a function reaches
the functions it calls or references (a function passed as a value is assumed called), the
functions it defines (closures, callbacks), its dispatch branches (except the arms another tool
owns) and the external members it uses, which the sink catalog maps to lattice leaves. Calls on
receivers of unknown type fall back to every project method of that name (class-hierarchy
analysis). Anything that cannot be resolved is a reason, never silently nothing.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import Any

from toolwitness.code import ir
from toolwitness.code.project import CodeLimits, Project
from toolwitness.code.resolve import (
    UNKNOWN,
    Missing,
    RClass,
    Resolved,
    Resolver,
    RExternal,
    RFunc,
    RValue,
)
from toolwitness.code.sinks import Sink, SinkCatalog, refine_leaves
from toolwitness.plainclass import field, plainclass

MAX_WITNESSES_PER_LEAF = 3
_MAX_STORED = 2000  # elements of one literal followed as stored functions
DYNAMIC_LOAD = "dynamic-load"  # ir.Opaque text front-ends use for a computed import


@plainclass(frozen=True)
class SinkHit:
    leaf: str
    file: str
    line: int
    column: int
    symbol: str
    sink: str  # catalog name, "module:qualified"
    path: tuple[str, ...]  # function labels from the handler to the calling function
    key: str | None = None  # ENV: the one variable named by a literal (None: all or computed)


@plainclass
class Reach:
    hits: dict[str, list[SinkHit]] = field(default_factory=dict)
    reasons: list[str] = field(default_factory=list)
    visited: int = 0
    per_leaf: int = MAX_WITNESSES_PER_LEAF

    def add(self, hit: SinkHit) -> None:
        bucket = self.hits.setdefault(hit.leaf, [])
        if len(bucket) < self.per_leaf and all(
            (h.file, h.line, h.column) != (hit.file, hit.line, hit.column) for h in bucket
        ):
            bucket.append(hit)

    @property
    def leaves(self) -> frozenset[str]:
        return frozenset(self.hits)


@plainclass
class _Edges:
    targets: list[str] = field(default_factory=list)
    hits: list[tuple[str, ir.Use, Sink]] = field(default_factory=list)
    reasons: list[str] = field(default_factory=list)


@plainclass(frozen=True)
class DispatchContext:
    """The tool being analysed and every tool name, to skip arms that belong to other tools."""

    tool: str | None
    all_tools: frozenset[str]


class CallGraph:
    def __init__(self, project: Project, catalog: SinkCatalog, limits: CodeLimits) -> None:
        self.project = project
        self.catalog = catalog
        self.limits = limits
        self.resolver = Resolver(project, limits.max_resolution_depth, catalog)
        self._edge_cache: dict[tuple[str, str | None], _Edges] = {}
        self._dispatching: set[str] = set()
        self._sink_cache: dict[RExternal, Sink | None] = {}

    def label(self, func_id: str) -> str:
        fn = self.project.functions[func_id]
        return f"{fn.name} ({fn.file}:{fn.line})"

    def reach(
        self, entries: Iterable[str], ctx: DispatchContext, per_leaf: int = MAX_WITNESSES_PER_LEAF
    ) -> Reach:
        result = Reach(per_leaf=per_leaf)
        parents: dict[str, str | None] = {}
        queue: deque[str] = deque()
        for entry in entries:
            if entry not in parents:
                parents[entry] = None
                queue.append(entry)
        while queue:
            func_id = queue.popleft()
            result.visited += 1
            if result.visited > self.limits.max_visited_functions:
                result.reasons.append(
                    f"call graph larger than {self.limits.max_visited_functions} functions"
                )
                break
            fn = self.project.functions[func_id]
            module = self.project.modules[fn.file]
            if module.errors:
                result.reasons.append(f"{fn.file}: {module.errors[0]}")
            targets: list[str] = list(fn.children)
            targets += [b.func_id for b in fn.branches if self._branch_taken(b, ctx)]
            for decorator in fn.decorators:
                targets += self._functions(self.resolver.resolve(decorator))
            edges = self._edges(fn, ctx)
            targets += edges.targets
            result.reasons += edges.reasons
            for leaf, use, sink in edges.hits:
                result.add(
                    SinkHit(
                        leaf,
                        fn.file,
                        use.line,
                        use.column,
                        use.symbol,
                        _sink_name(sink),
                        self._path(func_id, parents),
                        self._env_key(use, sink) if leaf == "ENV" else None,
                    )
                )
            for target in targets:
                if target not in parents and target in self.project.functions:
                    parents[target] = func_id
                    queue.append(target)
        if self.resolver.truncated:
            result.reasons.append("name resolution hit its depth bound")
        result.reasons = sorted(set(result.reasons))
        return result

    def _path(self, func_id: str, parents: dict[str, str | None]) -> tuple[str, ...]:
        labels: list[str] = []
        current: str | None = func_id
        while current is not None and len(labels) < 64:
            labels.append(self.label(current))
            current = parents.get(current)
        return tuple(reversed(labels))

    def _edges(self, fn: ir.Function, ctx: DispatchContext) -> _Edges:
        """What a function's uses lead to; cached (only computed-member dispatch depends on ctx)."""
        key = (fn.id, ctx.tool if fn.id in self._dispatching else None)
        cached = self._edge_cache.get(key)
        if cached is None:
            cached = _Edges()
            for use in fn.uses:
                self._use(use, fn, cached, ctx)
            if fn.id in self._dispatching:
                key = (fn.id, ctx.tool)
            self._edge_cache[key] = cached
        return cached

    def _use(self, use: ir.Use, fn: ir.Function, edges: _Edges, ctx: DispatchContext) -> None:
        if isinstance(use.target, ir.Opaque) and use.target.text == DYNAMIC_LOAD:
            edges.reasons.append(f"{fn.file}:{use.line}: module loaded by a computed name")
            return
        resolved = self._dispatch_map(use, fn, ctx)
        if resolved is None:
            resolved = self.resolver.resolve(use.target)
        known = False
        if not use.is_call:  # functions kept in a value that is read are assumed called
            edges.targets += self._stored_functions(resolved, ctx)
        for item in resolved:
            if isinstance(item, RFunc):
                edges.targets.append(item.func_id)
                known = True
            elif isinstance(item, RClass) and use.is_call:
                cls = self.project.classes.get(item.class_id)
                ctor = (
                    (cls.methods.get("constructor") or cls.methods.get("__init__")) if cls else None
                )
                edges.targets += [ctor] if ctor else []
                known = True
            elif isinstance(item, RExternal):
                known = True
                sink = self._sink(item)
                if sink is not None:
                    edges.hits += [(leaf, use, sink) for leaf in sorted(self._leaves(sink, use))]
            elif isinstance(item, Missing):
                edges.reasons.append(item.reason)
            elif isinstance(item, RValue) and not isinstance(item.value, ir.Opaque | ir.Lit):
                known = True
        if use.is_call and not known and isinstance(use.target, ir.Name):
            path = use.target.path
            if len(path) >= 2 and path[-1] != ir.COMPUTED:
                edges.targets += self.project.methods_by_name.get(path[-1], [])
            elif path[-1] == ir.COMPUTED and self._local_base(use.target):
                edges.reasons.append(f"{fn.file}:{use.line}: computed call {use.symbol}")

    def _dispatch_map(
        self, use: ir.Use, fn: ir.Function, ctx: DispatchContext
    ) -> tuple[Resolved, ...] | None:
        """`handlers[name](...)` on an object keyed by tool names: only this tool's entry; also
        through a local (`const h = handlers[name]; h(...)`, `const { run } = tools[name]`)."""
        target = use.target
        if not isinstance(target, ir.Name):
            return None
        if target.path[-1] == ir.COMPUTED:
            return self._narrow(target, (), fn, ctx)
        if len(target.path) > 2 or not use.is_call:
            return None
        bound = self.resolver.lookup(target.path[0], target.scope) or []
        if not bound:
            return None
        out: list[Resolved] = []
        for value in map(_map_get, bound):
            base, rest = value, target.path[1:]
            if isinstance(value, ir.Member):
                base, rest = value.base, (*value.path, *rest)
            if not (isinstance(base, ir.Name) and base.path[-1] == ir.COMPUTED):
                return None
            narrowed = self._narrow(base, rest, fn, ctx)
            if narrowed is None:
                return None
            out += narrowed
        return tuple(out)

    def _narrow(
        self, target: ir.Name, rest: tuple[str, ...], fn: ir.Function, ctx: DispatchContext
    ) -> tuple[Resolved, ...] | None:
        base = self.resolver.resolve(ir.Name(target.path[:-1], target.scope))
        objects = [b.value for b in base if isinstance(b, RValue) and isinstance(b.value, ir.Obj)]
        keys = {k for o in objects for k, _ in o.items}
        if not keys & ctx.all_tools:
            return None
        self._dispatching.add(fn.id)
        if ctx.tool is None:
            return None
        values = [v for o in objects for k, v in o.items if k == ctx.tool]
        found = [r for v in values for r in self.resolver.resolve(v)]
        return tuple(self.resolver.members(found, rest) if rest else found)

    def _stored_functions(
        self, resolved: Iterable[Resolved], ctx: DispatchContext, depth: int = 0
    ) -> list[str]:
        """Functions inside array and object literals (`RULES.map(r => r(x))` calls them all);
        an object keyed by tool names is a dispatch map, narrowed where it is indexed."""
        out: list[str] = []
        for item in resolved:
            if not isinstance(item, RValue) or depth > 3:
                continue
            value = item.value
            if isinstance(value, ir.Obj) and {k for k, _ in value.items} & ctx.all_tools:
                continue
            inner = (
                [v for _, v in value.items] + list(value.spreads)
                if isinstance(value, ir.Obj)
                else list(value.items)
                if isinstance(value, ir.Arr)
                else []
            )
            for element in inner[:_MAX_STORED]:
                found = self.resolver.resolve(element)
                out += [r.func_id for r in found if isinstance(r, RFunc)]
                out += self._stored_functions(found, ctx, depth + 1)
        return out

    def _local_base(self, name: ir.Name) -> bool:
        """A computed call on project code (not on an external library object)."""
        base = self.resolver.resolve(ir.Name(name.path[:-1], name.scope))
        return not base or any(not isinstance(b, RExternal | RValue) for b in base)

    def _functions(self, resolved: Iterable[Resolved]) -> list[str]:
        return [r.func_id for r in resolved if isinstance(r, RFunc)]

    def _branch_taken(self, branch: ir.Branch, ctx: DispatchContext) -> bool:
        if ctx.tool is None or not branch.labels:
            return True
        names = {self._static_str(label) for label in branch.labels}
        owned = names & ctx.all_tools
        return not owned or ctx.tool in names

    def _static_str(self, value: ir.Value) -> str | None:
        result = self.resolver.static(value)
        return result if isinstance(result, str) else None

    # -- sinks -------------------------------------------------------------------------------
    def _sink(self, ext: RExternal) -> Sink | None:
        if ext in self._sink_cache:
            return self._sink_cache[ext]
        found = self._lookup_sink(ext)
        self._sink_cache[ext] = found
        return found

    def _lookup_sink(self, ext: RExternal) -> Sink | None:
        names = _candidates(ext)
        if ext.language == "js" and ext.path[:1] == ("default",) and len(ext.path) > 1:
            names = (
                _candidates(
                    RExternal(ext.language, ext.module, ext.path[1:], _shift(ext.instance_at))
                )
                + names
            )
        for qualified in names:
            sink = self.catalog.lookup(ext.language, ext.module, qualified)
            if sink is not None:
                return sink
        return None

    def _env_key(self, use: ir.Use, sink: Sink) -> str | None:
        """The variable a read of the environment names: `process.env.GITHUB_TOKEN`,
        `os.environ["KEY"]`, `os.getenv("KEY")`; None when it reads all of it or a computed name."""
        if use.is_call:
            if sink.name.split(".")[-1] not in ("getenv", "get") or not use.args:
                return None
            key = self.resolver.static(use.args[0])
            return key if isinstance(key, str) else None
        if not isinstance(use.target, ir.Name):
            return None
        path = use.target.path
        roots = (("process", "env"), ("os", "environ"), ("environ",))
        for root in roots:
            if path[: len(root)] == root and len(path) == len(root) + 1:
                return None if path[-1] == ir.COMPUTED else path[-1]
        return None

    def _leaves(self, sink: Sink, use: ir.Use) -> frozenset[str]:
        if sink.arg_rule is None or not use.is_call:
            return sink.leaves
        argument, literal = self._argument(sink.arg_rule, use)
        return refine_leaves(sink.leaves, sink.arg_rule, argument, literal=literal)

    def _argument(self, rule: str, use: ir.Use) -> tuple[str | bool | None, bool]:
        kwargs = dict(use.kwargs)
        if rule == "open-mode":
            mode = kwargs.get("mode") or kwargs.get("flags") or kwargs.get("flag")
            if mode is None and len(use.args) > 1:
                mode = use.args[1]
            if isinstance(mode, ir.Obj):
                mode = dict(mode.items).get("flag")
            return _literal(self.resolver.static(mode) if mode is not None else None, mode)
        if rule == "sql-text":
            text = use.args[0] if use.args else kwargs.get("sql") or kwargs.get("query")
            return _literal(self.resolver.static(text) if text is not None else None, text)
        shell = kwargs.get("shell")
        if shell is None:
            for arg in use.args:
                if isinstance(arg, ir.Obj) and "shell" in dict(arg.items):
                    shell = dict(arg.items)["shell"]
        return _literal(self.resolver.static(shell) if shell is not None else None, shell)


def _literal(value: Any, node: ir.Value | None) -> tuple[str | bool | None, bool]:
    if node is None:
        return None, True  # argument absent: the default applies
    if value is UNKNOWN or not isinstance(value, str | bool | type(None)):
        return None, False
    return value, True


def _candidates(ext: RExternal) -> list[str]:
    """Catalog names for an external member path, most specific first (`a.b.c`, `a.b`...)."""
    path = [p for p in ext.path]
    if not path:
        return ["default"] if ext.module is not None else []
    at = ext.instance_at
    if at is not None and at >= len(path):
        return []  # the value a call returned is data; only its members can be sinks
    floor = (at + 1) if at is not None else 1
    out: list[str] = []
    for end in range(len(path), floor - 1, -1):
        head = path[:end]
        if at is not None and at < end:
            out.append(".".join(head[:at]) + "#" + ".".join(head[at:]))
        else:
            out.append(".".join(head))
    return out


def _map_get(value: ir.Value) -> ir.Value:
    """`registry.get(name)` reads an entry like `registry[name]` (a Map keyed by tool names)."""
    callee = value.callee if isinstance(value, ir.Call) else None
    if isinstance(callee, ir.Name) and len(callee.path) >= 2 and callee.path[-1] == "get":
        return ir.Name((*callee.path[:-1], ir.COMPUTED), callee.scope)
    return value


def _shift(at: int | None) -> int | None:
    return None if at is None else max(at - 1, 0)


def _sink_name(sink: Sink) -> str:
    return f"{sink.module}:{sink.name}" if sink.module else sink.name

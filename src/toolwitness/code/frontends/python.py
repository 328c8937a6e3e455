"""Python front-end: stdlib `ast` -> `ir.Module`. Target code is parsed, never imported."""

from __future__ import annotations

import ast
import warnings

from toolwitness.code import ir
from toolwitness.code.frontends.python_values import (
    ValueBuilder,
    chain,
    dynamic,
    pattern_values,
    short,
    subscript_indexes,
)

DYNAMIC_LOAD = "dynamic-load"
TOOL_DECORATORS = {"tool": "py-tool", "list_tools": "list_tools", "call_tool": "call_tool"}
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def parse_module(key: str, source: bytes, max_nodes: int = 4_000_000) -> ir.Module:
    """One file as IR; what could not be analysed is a module error, never an exception.

    Every error `ast.parse` raises is mapped: SyntaxError (and its IndentationError and TabError),
    ValueError (NUL bytes, bad encodings), and the MemoryError / RecursionError CPython's parser
    raises on deep nesting (`not not … p`, 20,000 nested lambdas, a 100,000-branch elif).
    """
    module = ir.Module(key=key, language="py")
    module.scopes[key] = ir.Scope(key, None)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(source, filename=key)
    except (SyntaxError, ValueError, OverflowError) as exc:
        module.errors.append(f"not valid Python: {type(exc).__name__}")
        return module
    except (MemoryError, RecursionError) as exc:
        module.errors.append(
            f"not analysed: the parser gave up ({type(exc).__name__}: nesting too deep)"
        )
        return module
    nodes = 0
    for _ in ast.walk(tree):
        nodes += 1
        if nodes > max_nodes:
            module.errors.append(f"over {max_nodes} syntax nodes: not analysed")
            module.nodes = nodes
            return module
    module.nodes = nodes
    builder = _Builder(module, source.split(b"\n"))
    top = module.top = ir.Function(key, "<module>", key, 1, 1, key)
    for statement in tree.body:  # one statement too deep must not hide the rest
        try:
            builder.statement(statement, top, None)
        except RecursionError:
            module.errors.append(f"line {statement.lineno}: nesting too deep to analyse")
    return module


class _Builder(ValueBuilder):
    def __init__(self, module: ir.Module, lines: list[bytes]) -> None:
        super().__init__(module.key, lines)
        self.module = module
        self.classes: list[ir.ClassDef] = []
        self.declared_outer: dict[str, set[str]] = {}

    def scope(self, scope_id: str) -> ir.Scope:
        return self.module.scopes[scope_id]

    # -- statements --------------------------------------------------------------------------
    def body(self, statements: list[ast.stmt], fn: ir.Function, cls: ir.ClassDef | None) -> None:
        for statement in statements:
            self.statement(statement, fn, cls)

    def statement(self, node: ast.stmt, fn: ir.Function, cls: ir.ClassDef | None) -> None:
        if isinstance(node, _FUNCS):
            self.function(node, fn, cls)
        elif isinstance(node, ast.ClassDef):
            self.klass(node, fn)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            self.imports(node, fn)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            value = node.value
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            bound = self.value(value, fn.id) if value is not None else None
            if bound is None and isinstance(node, ast.AnnAssign):  # `self.db: sqlite3.Connection`
                typed = self._annotated(node.annotation, fn.id)
                bound = None if isinstance(typed, ir.Opaque) else typed
            for target in targets:
                self.assign(target, bound, fn, cls)
            if value is not None:
                self.expr(value, fn)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            self.declared_outer.setdefault(fn.id, set()).update(node.names)
        elif isinstance(node, ast.Return):
            if node.value is not None:
                fn.returns.append(self.value(node.value, fn.id))
                self.expr(node.value, fn)
        elif isinstance(node, ast.If):
            self.if_statement(node, fn, cls)
        elif isinstance(node, ast.Match):
            self.match(node, fn, cls)
        elif isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                self.expr(item.context_expr, fn)
                if item.optional_vars is not None:
                    self.assign(item.optional_vars, self.value(item.context_expr, fn.id), fn, cls)
            self.body(node.body, fn, cls)
        elif isinstance(node, ast.For | ast.AsyncFor):
            self.expr(node.iter, fn)
            element = ir.Member(self.value(node.iter, fn.id), (ir.COMPUTED,))
            self.assign(node.target, element, fn, cls)
            self.body(node.body, fn, cls)
            self.body(node.orelse, fn, cls)
        else:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, ast.stmt):
                    self.statement(child, fn, cls)
                elif isinstance(child, ast.expr):
                    self.expr(child, fn)
                elif isinstance(child, ast.ExceptHandler):
                    if child.type is not None:
                        self.expr(child.type, fn)
                    if child.name:
                        self.scope(fn.id).bind(child.name, ir.Opaque("exception"))
                    self.body(child.body, fn, cls)

    def assign(
        self, target: ast.expr, value: ir.Value | None, fn: ir.Function, cls: ir.ClassDef | None
    ) -> None:
        if isinstance(target, ast.Name):
            bound = value if value is not None else ir.Opaque("annotation")
            if cls is not None and fn.id == cls.scope and self.classes and self.classes[-1] is cls:
                cls.attrs.setdefault(target.id, []).append(bound)
                return
            self.scope(self._owner(target.id, fn)).bind(target.id, bound)
        elif isinstance(target, ast.Attribute):
            path = chain(target)
            if path and len(path) == 2 and self.classes and path[0] in ("self", "cls"):
                self.classes[-1].attrs.setdefault(path[1], []).append(value or ir.Opaque("attr"))
            self.expr(target.value, fn)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
            # `HANDLERS["read_note"] = fn`: a registry filled entry by entry
            key = target.slice
            name = (
                key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None
            )
            entry = ir.Obj(((name or ir.COMPUTED, value or ir.Opaque("entry")),))
            self._grow_dict(target.value.id, entry, fn)
            self.expr(target, fn)
        elif isinstance(target, ast.Tuple | ast.List):
            for element in target.elts:
                inner = element.value if isinstance(element, ast.Starred) else element
                self.assign(inner, ir.Opaque("unpacked"), fn, cls)
        else:
            self.expr(target, fn)

    def _grow(
        self, target: tuple[str, ...], method: str, args: tuple[ir.Value, ...], fn: ir.Function
    ) -> None:
        """`TOOLS.append(t)` / `extend(ts)` / `self.tools.append(t)`: more elements of a list."""
        element = ir.Spread(args[0]) if method == "extend" else args[-1]
        added = ir.Arr((element,))
        if len(target) == 2 and target[0] in ("self", "cls") and self.classes:
            self.classes[-1].attrs.setdefault(target[1], []).append(added)
            return
        current: str | None = fn.id
        while current is not None and len(target) == 1:
            scope = self.scope(current)
            if target[0] in scope.bindings:
                scope.bind(target[0], added)
                return
            current = scope.parent

    def _grow_dict(self, name: str, entry: ir.Obj, fn: ir.Function) -> None:
        current: str | None = fn.id
        while current is not None:
            scope = self.scope(current)
            if name in scope.bindings:
                scope.bind(name, entry)
                return
            current = scope.parent

    def _owner(self, name: str, fn: ir.Function) -> str:
        if name in self.declared_outer.get(fn.id, set()):
            current: str | None = self.scope(fn.id).parent
            while current is not None:
                if name in self.scope(current).bindings or current == self.key:
                    return current
                current = self.scope(current).parent
            return self.key
        return fn.id

    def imports(self, node: ast.Import | ast.ImportFrom, fn: ir.Function) -> None:
        scope = self.scope(fn.id)
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    scope.bind(alias.asname, ir.Import(alias.name, (), self.key))
                else:
                    head = alias.name.split(".")[0]
                    scope.bind(head, ir.Import(head, (), self.key))
            return
        module = node.module or ""
        for alias in node.names:
            if alias.name == "*":
                self.module.star_exports.append(ir.Import(module, (), self.key, node.level))
                continue
            local = alias.asname or alias.name
            scope.bind(local, ir.Import(module, (alias.name,), self.key, node.level))

    # -- functions and classes ---------------------------------------------------------------
    def function(
        self,
        node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda,
        parent: ir.Function,
        cls: ir.ClassDef | None,
    ) -> ir.Function:
        fid = self.node_id(node)
        is_lambda = isinstance(node, ast.Lambda)
        name = "<lambda>" if isinstance(node, ast.Lambda) else node.name
        if cls is not None and not is_lambda:
            name = f"{cls.name}.{name}"
        fn = ir.Function(
            fid, name, self.key, node.lineno, self.column(node), cls.scope if cls else parent.id
        )
        self.module.functions[fid] = fn
        self.module.scopes[fid] = ir.Scope(fid, fn.parent_scope)
        parent.children.append(fid)
        scope = self.scope(fid)
        arguments = node.args
        params = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        params += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
        fn.params = tuple(a.arg for a in params)
        for default in [*arguments.defaults, *(d for d in arguments.kw_defaults if d)]:
            self.expr(default, parent)
        decorators = [] if isinstance(node, ast.Lambda) else node.decorator_list
        static = any(chain(d) == ("staticmethod",) for d in decorators)
        for index, param in enumerate(params):
            if index == 0 and cls is not None and not static and not is_lambda:
                instance: ir.Value = ir.Call(ir.ClassRef(cls.id), (), (), True)
                if any(chain(d) == ("classmethod",) for d in decorators):
                    instance = ir.ClassRef(cls.id)
                scope.bind(param.arg, instance)
            else:
                scope.bind(param.arg, self._annotated(param.annotation, fid))
        if isinstance(node, ast.Lambda):
            fn.returns.append(self.value(node.body, fid))
            self.expr(node.body, fn)
            return fn
        fn.docstring = ast.get_docstring(node)
        if cls is not None:
            cls.methods[node.name] = fid
        else:
            self.scope(parent.id).bind(node.name, ir.FuncRef(fid))
        for decorator in decorators:
            self.decorator(decorator, fn, parent)
        self.body(node.body, fn, None)
        return fn

    def _annotated(self, annotation: ast.expr | None, scope: str) -> ir.Value:
        """A parameter typed `x: git.Repo` holds an instance of that class."""
        if annotation is None:
            return ir.Opaque("parameter")
        if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
            left = annotation.left
            pick = annotation.right if isinstance(left, ast.Constant) else left
            return self._annotated(pick, scope)
        path = chain(annotation)
        if path is None or ir.COMPUTED in path:
            return ir.Opaque("parameter")
        return ir.Call(ir.Name(path, scope), (), (), True)

    def decorator(self, node: ast.expr, fn: ir.Function, parent: ir.Function) -> None:
        call = node if isinstance(node, ast.Call) else None
        path = chain(call.func if call is not None else node)
        kind = TOOL_DECORATORS.get(path[-1]) if path and len(path) >= 2 else None
        self.expr(node, parent)
        if kind is None:
            fn.decorators.append(self.value(call.func if call else node, parent.id))
            fn.applied_decorators.append(self.value(node, parent.id))
            return
        args = tuple(self.arg(a, parent.id) for a in call.args) if call else ()
        kwargs = (
            tuple((k.arg, self.value(k.value, parent.id)) for k in call.keywords if k.arg)
            if call
            else ()
        )
        self.module.registrations.append(
            ir.Registration(
                kind,
                args,
                kwargs,
                parent.id,
                self.key,
                node.lineno,
                self.column(node),
                handler=ir.FuncRef(fn.id),
                docstring=fn.docstring,
                func_name=fn.name,
            )
        )

    def klass(self, node: ast.ClassDef, fn: ir.Function) -> None:
        cid = self.node_id(node)
        cls = ir.ClassDef(cid, node.name, self.key, node.lineno, fn.id)
        self.module.classes[cid] = cls
        self.scope(fn.id).bind(node.name, ir.ClassRef(cid))
        cls.bases = [self.value(b, fn.id) for b in node.bases]
        for decorator in node.decorator_list:
            self.expr(decorator, fn)
        self.classes.append(cls)
        for statement in node.body:
            if isinstance(statement, _FUNCS):
                self.function(statement, fn, cls)
            else:
                self.statement(statement, fn, cls)
        self.classes.pop()

    # -- dispatch ----------------------------------------------------------------------------
    def branch(self, node: ast.AST, labels: tuple[ir.Value, ...], fn: ir.Function) -> ir.Function:
        bid = self.node_id(node)
        sub = ir.Function(bid, f"{fn.name}#branch", self.key, getattr(node, "lineno", 0), 1, fn.id)
        self.module.functions[bid] = sub
        self.module.scopes[bid] = ir.Scope(bid, fn.id)
        fn.branches.append(ir.Branch(labels, bid))
        return sub

    def if_statement(self, node: ast.If, fn: ir.Function, cls: ir.ClassDef | None) -> None:
        self.expr(node.test, fn)
        test = node.test
        labels: tuple[ir.Value, ...] = ()
        if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
            labels = (self.value(test.left, fn.id), self.value(test.comparators[0], fn.id))
        target = self.branch(node.body[0], labels, fn) if labels and node.body else fn
        self.body(node.body, target, cls)
        self.body(node.orelse, fn, cls)

    def match(self, node: ast.Match, fn: ir.Function, cls: ir.ClassDef | None) -> None:
        self.expr(node.subject, fn)
        for case in node.cases:
            labels = tuple(self.value(v, fn.id) for v in pattern_values(case.pattern))
            if case.guard is not None:
                self.expr(case.guard, fn)
            target = self.branch(case.body[0], labels, fn) if case.body else fn
            self.body(case.body, target, cls)

    # -- expressions -------------------------------------------------------------------------
    def expr(self, node: ast.expr, fn: ir.Function) -> None:
        stack: list[ast.AST] = [node]
        while stack:
            current = stack.pop()
            if isinstance(current, ast.Lambda):
                self.function(current, fn, None)
                continue
            if isinstance(current, ast.Call):
                self.call(current, fn)
                stack.extend(current.args)
                stack.extend(k.value for k in current.keywords)
                path = chain(current.func)
                if path is None:
                    stack.append(current.func)
                else:
                    stack.extend(subscript_indexes(current.func))
                continue
            path = chain(current) if isinstance(current, ast.expr) else None
            if path is not None and isinstance(current, ast.Name | ast.Attribute | ast.Subscript):
                fn.uses.append(
                    ir.Use(
                        ir.Name(path, fn.id),
                        current.lineno,
                        self.column(current),
                        ".".join(path),
                        False,
                    )
                )
                stack.extend(subscript_indexes(current))
                continue
            if isinstance(current, ast.comprehension):
                self.assign(current.target, ir.Opaque("item"), fn, None)
                stack.append(current.iter)
                stack.extend(current.ifs)
                continue
            stack.extend(reversed(list(ast.iter_child_nodes(current))))

    def call(self, node: ast.Call, fn: ir.Function) -> None:
        value = self.value(node, fn.id)
        if not isinstance(value, ir.Call):
            return
        path = chain(node.func)
        symbol = ".".join(path) if path else short(ast.unparse(node.func))
        fn.uses.append(
            ir.Use(
                value.callee,
                node.lineno,
                self.column(node),
                symbol,
                True,
                value.args,
                value.kwargs,
            )
        )
        if dynamic(node, path):
            fn.uses.append(
                ir.Use(ir.Opaque(DYNAMIC_LOAD), node.lineno, self.column(node), symbol, True)
            )
        inner = node.func
        if isinstance(inner, ast.Call) and node.args:  # `mcp.tool(name="x")(handler)`
            inner_path = chain(inner.func)
            if inner_path and len(inner_path) >= 2 and inner_path[-1] == "tool":
                self.module.registrations.append(
                    ir.Registration(
                        "py-tool",
                        tuple(self.arg(a, fn.id) for a in inner.args),
                        tuple((k.arg, self.value(k.value, fn.id)) for k in inner.keywords if k.arg),
                        fn.id,
                        self.key,
                        node.lineno,
                        self.column(node),
                        handler=self.value(node.args[0], fn.id),
                    )
                )
        for key, option in value.kwargs:  # `Server(name, on_list_tools=…, on_call_tool=…)`
            if key in _SERVER_OPTIONS:
                self.module.registrations.append(
                    ir.Registration(
                        _SERVER_OPTIONS[key], (), (), fn.id, self.key, node.lineno,
                        self.column(node), handler=option,
                    )
                )  # fmt: skip
        if path and len(path) in (2, 3) and path[-1] in _GROW and value.args:
            self._grow(path[:-1], path[-1], value.args, fn)
        direct = bool(path and len(path) >= 2 and path[-1] == "tool" and _handler_first(node))
        if direct or (path and len(path) >= 2 and path[-1] == "add_tool"):  # `mcp.tool(fn, …)`
            self.module.registrations.append(
                ir.Registration(
                    "add_tool",
                    value.args,
                    value.kwargs,
                    fn.id,
                    self.key,
                    node.lineno,
                    self.column(node),
                )
            )


_GROW = frozenset({"append", "extend", "insert"})
_SERVER_OPTIONS = {"on_list_tools": "list_tools", "on_call_tool": "call_tool"}


def _handler_first(node: ast.Call) -> bool:
    """`mcp.tool(fn, name=…)` registers fn now; `mcp.tool("name")` returns a decorator."""
    first = node.args[0] if node.args else None
    return first is not None and not (
        isinstance(first, ast.Constant) and isinstance(first.value, str)
    )

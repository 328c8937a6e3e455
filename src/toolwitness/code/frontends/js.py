"""TypeScript / JavaScript front-end: one tree-sitter walk per file -> `ir.Module`.

Nothing is evaluated or imported. Scoping is per function (block scopes are folded into their
function), which over-approximates bindings: a name may resolve to more candidates, never fewer.
"""

from __future__ import annotations

from functools import lru_cache

import tree_sitter_javascript as ts_javascript
import tree_sitter_typescript as ts_typescript
from tree_sitter import Language, Node, Parser

from toolwitness.code import ir
from toolwitness.code.frontends import js_dispatch, js_injection, js_modules, js_patterns
from toolwitness.code.frontends.js_values import (
    CLASS_NODES,
    FUNCTION_NODES,
    anonymous_name,
    chain,
    dynamic_loader,
    heritage_exprs,
    node_id,
    param_names,
    position,
    property_name,
    set_source,
    short,
    text,
    type_path,
    unwrap,
    value_of,
)

DYNAMIC_LOAD = "dynamic-load"
ITERATION_METHODS = frozenset(
    {"forEach", "map", "flatMap", "filter", "some", "every", "find", "findLast", "reduce"}
)
SERVER_CLASSES = frozenset({"MCPServer"})  # frameworks that take `{ tools: { key: tool } }`
REGISTRATION_METHODS = frozenset(
    {"tool", "registerTool", "registerToolTask", "addTool", "setRequestHandler"}
)
_SKIP = frozenset(
    {
        "comment",
        "type_annotation",
        "type_alias_declaration",
        "interface_declaration",
        "type_arguments",
        "type_parameters",
        "property_identifier",
        "statement_identifier",
        "regex",
        "enum_declaration",
        "ambient_declaration",
    }
)


@lru_cache(maxsize=4)
def _parser(dialect: str) -> Parser:
    if dialect == "tsx":
        language = Language(ts_typescript.language_tsx())
    elif dialect == "ts":
        language = Language(ts_typescript.language_typescript())
    else:
        language = Language(ts_javascript.language())
    return Parser(language)


def dialect_for(path: str) -> str:
    if path.endswith(".tsx"):
        return "tsx"
    if path.endswith((".ts", ".mts", ".cts")):
        return "ts"
    return "js"


def parse_module(key: str, source: bytes, max_nodes: int = 4_000_000) -> ir.Module:
    """One file as IR; what could not be analysed is a module error, never an exception."""
    builder = _Builder(key)
    refused = _not_source_text(source)
    if refused is not None:
        builder.module.errors.append(refused)
        return builder.module
    tree = _parser(dialect_for(key)).parse(source)
    root = tree.root_node if tree is not None else None
    if root is None:
        builder.module.errors.append("the parser returned no tree: not analysed")
        return builder.module
    nodes = root.descendant_count
    builder.module.nodes = nodes
    if nodes > max_nodes:  # the walk below is linear in nodes: bound it before it starts
        builder.module.errors.append(
            f"{nodes} syntax nodes, over the bound of {max_nodes}: not analysed"
        )
        return builder.module
    set_source(source)
    if root.has_error:
        builder.module.errors.append("tree-sitter reported syntax errors")
    for statement in root.named_children:  # one statement too deep must not hide the rest
        if statement.type == "comment":
            js_modules.bundle_origin(builder.module, statement)
            continue
        try:
            builder.walk(statement, builder.top)
        except RecursionError:
            line = position(statement)[0]
            builder.module.errors.append(f"line {line}: nesting too deep to analyse")
    js_injection.apply_pending(builder)
    for name, getter in builder.pending_getters:  # an exported getter exports what it returns
        for returned in (
            builder.module.functions[getter].returns if getter in builder.module.functions else ()
        ):
            builder.module.export(name, returned)
    return builder.module


def _not_source_text(source: bytes) -> str | None:
    """Bytes that are not UTF-8 text are no JavaScript a runtime would load; tree-sitter's error
    recovery on them costs far more than linear time, so they are never parsed."""
    if b"\0" in source:
        return "NUL bytes: not source text, not analysed"
    try:
        source.decode("utf-8")
    except UnicodeDecodeError as exc:
        return f"not UTF-8 at byte {exc.start}: not source text, not analysed"
    return None


class _Builder:
    def __init__(self, key: str) -> None:
        self.key = key
        self.module = ir.Module(key=key, language="js")
        self.module.scopes[key] = ir.Scope(key, None)
        self.top = self.module.top = ir.Function(key, "<module>", key, 1, 1, key)
        self.classes: list[ir.ClassDef] = []
        # (element, method) while the callback of an iteration method is being built
        self.element_of: tuple[ir.Value, str] | None = None
        self.pending_getters: list[tuple[str, str]] = []  # defineProperty getters, by function
        self.pending_injections: list[js_injection.PendingInjection] = []  # compiled @inject

    # -- traversal ---------------------------------------------------------------------------
    def walk_children(self, node: Node, fn: ir.Function) -> None:
        for child in node.named_children:
            self.walk(child, fn)

    def walk(self, node: Node, fn: ir.Function) -> None:
        kind = node.type
        if kind in _SKIP:
            return
        if kind in FUNCTION_NODES:
            self.function(node, fn)
        elif kind in CLASS_NODES:
            self.klass(node, fn)
        elif kind == "variable_declarator":
            self.declarator(node, fn)
        elif kind in ("assignment_expression", "augmented_assignment_expression"):
            self.assignment(node, fn)
        elif kind in ("call_expression", "new_expression"):
            self.call(node, fn)
        elif (
            kind in ("member_expression", "subscript_expression", "identifier", "this")
            or kind == "shorthand_property_identifier"
        ):
            self.access(node, fn)
        elif kind == "pair":
            value = node.child_by_field_name("value")
            key = node.child_by_field_name("key")
            if key is not None and key.type == "computed_property_name":
                self.walk_children(key, fn)
            if value is not None:
                self.walk(value, fn)
        elif kind == "import_statement":
            js_modules.import_statement(self, node)
        elif kind == "export_statement":
            js_modules.export_statement(self, node, fn)
        elif kind == "switch_statement":
            js_dispatch.switch(self, node, fn)
        elif kind == "if_statement":
            js_dispatch.if_statement(self, node, fn)
        elif kind == "for_in_statement":
            js_patterns.for_in(self, node, fn)
        elif kind == "return_statement":
            if node.named_child_count:
                fn.returns.append(value_of(node.named_children[0], fn.id, self.key))
            self.walk_children(node, fn)
        elif kind in ("required_parameter", "optional_parameter"):
            default = node.child_by_field_name("value")
            if default is not None:
                self.walk(default, fn)
        else:
            self.walk_children(node, fn)

    def scope(self, scope_id: str) -> ir.Scope:
        return self.module.scopes[scope_id]

    def new_function(self, node: Node, name: str, parent: ir.Function) -> ir.Function:
        fid = node_id(self.key, node)
        line, col = position(node)
        fn = ir.Function(fid, name, self.key, line, col, parent.id)
        self.module.functions[fid] = fn
        self.module.scopes[fid] = ir.Scope(fid, parent.id)
        parent.children.append(fid)
        return fn

    # -- functions and classes ---------------------------------------------------------------
    def function(self, node: Node, parent: ir.Function, name: str | None = None) -> ir.Function:
        name_node = node.child_by_field_name("name")
        own = property_name(name_node) if name_node is not None else None
        fn = self.new_function(node, name or own or anonymous_name(node), parent)
        if own and node.type in ("function_declaration", "generator_function_declaration"):
            self.scope(parent.id).bind(own, ir.FuncRef(fn.id))
        elif own and node.type in ("function_expression", "function"):
            self.scope(fn.id).bind(own, ir.FuncRef(fn.id))
        params = node.child_by_field_name("parameters") or node.child_by_field_name("parameter")
        if params is not None:
            names = param_names(params)
            fn.params = tuple(names)
            typed = js_modules.typed_params(self, params, fn.id)
            for pname in names:
                self.scope(fn.id).bind(pname, typed.get(pname, ir.Opaque("parameter")))
            js_injection.decorated_parameters(self, params, fn)
            if self.element_of is not None and names:  # `xs.forEach(x => …)`: x is an element
                index = 1 if self.element_of[1] == "reduce" else 0
                if index < len(names):
                    self.scope(fn.id).bindings[names[index]] = [self.element_of[0]]
            self.element_of = None
            for param in params.named_children if params.type != "identifier" else []:
                default = param.child_by_field_name("right") or param.child_by_field_name("value")
                with_default = ("assignment_pattern", "required_parameter", "optional_parameter")
                if param.type in with_default and default is not None:
                    self.walk(default, fn)
        body = node.child_by_field_name("body")
        if body is not None:
            if node.type == "arrow_function" and body.type != "statement_block":
                fn.returns.append(value_of(body, fn.id, self.key))
            self.walk(body, fn)
        return fn

    def klass(self, node: Node, fn: ir.Function, name: str | None = None) -> ir.ClassDef:
        cid = node_id(self.key, node)
        name_node = node.child_by_field_name("name")
        cname = name or (text(name_node) if name_node is not None else "<class>")
        cls = ir.ClassDef(cid, cname, self.key, position(node)[0], fn.id)
        self.module.classes[cid] = cls
        if name_node is not None:
            self.scope(fn.id).bind(text(name_node), ir.ClassRef(cid))
        for child in node.named_children:
            if child.type == "class_heritage":
                for expr in heritage_exprs(child):
                    cls.bases.append(value_of(expr, fn.id, self.key))
        body = node.child_by_field_name("body")
        self.classes.append(cls)
        for member in body.named_children if body is not None else []:
            self.class_member(member, cls, fn)
        self.classes.pop()
        return cls

    def class_member(self, member: Node, cls: ir.ClassDef, fn: ir.Function) -> None:
        instance = ir.Call(ir.ClassRef(cls.id), (), (), True)
        if member.type == "method_definition":
            mname = property_name(member.child_by_field_name("name")) or "<method>"
            method = self.function(member, fn, f"{cls.name}.{mname}")
            self.scope(method.id).bind("this", instance)
            cls.methods[mname] = method.id
        elif member.type in ("field_definition", "public_field_definition"):
            key = member.child_by_field_name("property") or member.child_by_field_name("name")
            fname = property_name(key) or "<field>"
            value = member.child_by_field_name("value")
            if value is None:
                path = type_path(member.child_by_field_name("type"))
                if path is not None:  # `private db: Database.Database;`
                    cls.attrs.setdefault(fname, []).append(ir.Call(ir.Name(path, fn.id), new=True))
                return
            inner = unwrap(value)
            if inner.type in FUNCTION_NODES:
                method = self.function(inner, fn, f"{cls.name}.{fname}")
                self.scope(method.id).bind("this", instance)
                cls.methods[fname] = method.id
            else:
                cls.attrs.setdefault(fname, []).append(value_of(value, fn.id, self.key))
                self.walk(value, fn)

    # -- bindings ----------------------------------------------------------------------------
    def declarator(self, node: Node, fn: ir.Function) -> None:
        target = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        if target is None:
            return
        if value_node is not None:
            inner = unwrap(value_node)
            if target.type == "identifier" and inner.type in FUNCTION_NODES:
                self.scope(fn.id).bind(text(target), ir.FuncRef(node_id(self.key, inner)))
                self.function(inner, fn, text(target))
                return
            if target.type == "identifier" and inner.type in CLASS_NODES:
                self.scope(fn.id).bind(text(target), ir.ClassRef(node_id(self.key, inner)))
                self.klass(inner, fn, text(target))
                return
        value = value_of(value_node, fn.id, self.key) if value_node is not None else None
        js_patterns.bind_pattern(self, target, value, fn)
        if value_node is not None:
            self.walk(value_node, fn)

    def assignment(self, node: Node, fn: ir.Function) -> None:
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is None or right is None:
            self.walk_children(node, fn)
            return
        path = chain(left)
        value = value_of(right, fn.id, self.key)
        if node.type == "assignment_expression" and path is not None:
            self.assign_path(path, value, fn)
        elif path is None:
            self.walk(left, fn)
        inner = unwrap(right)
        if path is not None and len(path) == 1 and inner.type in FUNCTION_NODES:
            self.function(inner, fn, path[0])
        else:
            self.walk(right, fn)

    def assign_path(self, path: tuple[str, ...], value: ir.Value, fn: ir.Function) -> None:
        if path[:2] == ("module", "exports"):
            js_modules.commonjs_export(self.module, path[2:], value)
        elif path[0] == "exports" and len(path) == 2:
            self.module.export(path[1], value)
        elif path[0] == "this" and len(path) == 2 and self.classes:
            self.classes[-1].attrs.setdefault(path[1], []).append(value)
        elif len(path) == 1:
            self.scope(self._owner(path[0], fn.id)).bind(path[0], value)

    def _owner(self, name: str, scope_id: str | None) -> str:
        """The scope that binds `name` (flow-insensitive assignment target); module if none."""
        while scope_id is not None:
            scope = self.module.scopes[scope_id]
            if name in scope.bindings:
                return scope_id
            scope_id = scope.parent
        return self.key

    # -- uses --------------------------------------------------------------------------------
    def call(self, node: Node, fn: ir.Function) -> None:
        is_new = node.type == "new_expression"
        callee = node.child_by_field_name("constructor" if is_new else "function")
        args_node = node.child_by_field_name("arguments")
        value = value_of(node, fn.id, self.key)
        if callee is not None and dynamic_loader(callee, value):
            line, col = position(node)
            fn.uses.append(ir.Use(ir.Opaque(DYNAMIC_LOAD), line, col, text(callee), True))
        elif callee is not None and not isinstance(value, ir.Import):
            target = value.callee if isinstance(value, ir.Call) else value
            args = value.args if isinstance(value, ir.Call) else ()
            path = chain(callee)
            symbol = ".".join(path) if path else short(text(callee))
            line, col = position(node)
            fn.uses.append(ir.Use(target, line, col, symbol, True, args))
            if path and len(path) in (2, 3) and path[-1] in ("push", "unshift") and args:
                self.assign_path(path[:-1], ir.Arr(args), fn)  # elements added later
            if path and len(path) in (2, 3) and path[-1] == "set" and len(args) == 2:
                self.assign_path(path[:-1], ir.Obj(((_map_key(args[0]), args[1]),)), fn)
            if is_new and path and path[-1] in SERVER_CLASSES and args:  # tools as an option
                self.module.registrations.append(
                    ir.Registration("server-tools", args, (), fn.id, self.key, line, col)
                )
            if path and len(path) >= 2 and path[-1] in REGISTRATION_METHODS:
                kind = "registerTool" if path[-1] == "registerToolTask" else path[-1]
                self.module.registrations.append(
                    ir.Registration(kind, args, (), fn.id, self.key, line, col, callee=target)
                )
            if path is None:
                self.walk(callee, fn)
            else:
                self.walk_subscripts(callee, fn)
        if args_node is not None:
            path = chain(callee) if callee is not None else None
            js_modules.compiled_forms(self, path, value)
            js_injection.compiled_injections(self, value)
            method = path[-1] if path and len(path) >= 2 else None
            for arg in args_node.named_children:
                if method in ITERATION_METHODS and unwrap(arg).type in FUNCTION_NODES:
                    receiver = ir.Name(path[:-1], fn.id) if path else ir.Opaque("receiver")
                    self.element_of = (ir.Member(receiver, (ir.COMPUTED,)), method or "")
                self.walk(arg, fn)
                self.element_of = None

    def access(self, node: Node, fn: ir.Function) -> None:
        path = chain(node)
        if path is None:
            self.walk_children(node, fn)
            return
        if path != ("this",):
            line, col = position(node)
            fn.uses.append(ir.Use(ir.Name(path, fn.id), line, col, ".".join(path), False))
        self.walk_subscripts(node, fn)

    def walk_subscripts(self, node: Node, fn: ir.Function) -> None:
        """Index expressions inside a name chain (`a[b()]`) are code too."""
        node = unwrap(node)
        while node.type in ("member_expression", "subscript_expression"):
            index = node.child_by_field_name("index")
            if index is not None and index.type != "string":
                self.walk(index, fn)
            obj = node.child_by_field_name("object")
            if obj is None:
                return
            node = unwrap(obj)


def _map_key(key: ir.Value) -> str:
    """`registry.set("name", handler)`: entries of a Map, kept like the members of an object."""
    return key.value if isinstance(key, ir.Lit) and isinstance(key.value, str) else ir.COMPUTED

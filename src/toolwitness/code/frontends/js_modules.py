"""JavaScript/TypeScript module forms: ES imports and exports, CommonJS `module.exports`."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from tree_sitter import Node

from toolwitness.code import ir
from toolwitness.code.frontends.js_values import (
    param_names,
    position,
    property_name,
    string_value,
    text,
    type_path,
    value_of,
)

if TYPE_CHECKING:
    from toolwitness.code.frontends.js import _Builder


def import_statement(builder: _Builder, node: Node) -> None:
    source = node.child_by_field_name("source")
    for clause in node.named_children:  # TypeScript `import x = require("y")`
        inner = clause.child_by_field_name("source")
        if clause.type == "import_require_clause" and inner is not None and source is None:
            source = inner
    if source is None:
        return
    spec = string_value(source)
    scope = builder.scope(builder.key)
    for clause in node.named_children:
        if clause.type == "import_require_clause" and clause.named_child_count:
            scope.bind(text(clause.named_children[0]), ir.Import(spec, (), builder.key))
        if clause.type != "import_clause":
            continue
        for part in clause.named_children:
            if part.type == "identifier":
                scope.bind(text(part), ir.Import(spec, ("default",), builder.key))
            elif part.type == "namespace_import":
                for ident in part.named_children:
                    scope.bind(text(ident), ir.Import(spec, (), builder.key))
            elif part.type == "named_imports":
                for spec_node in part.named_children:
                    if spec_node.type != "import_specifier":
                        continue
                    name = property_name(spec_node.child_by_field_name("name")) or ""
                    alias = spec_node.child_by_field_name("alias")
                    local = text(alias) if alias is not None else name
                    scope.bind(local, ir.Import(spec, (name,), builder.key))


def export_statement(builder: _Builder, node: Node, fn: ir.Function) -> None:
    source = node.child_by_field_name("source")
    spec = string_value(source) if source is not None else None
    declaration = node.child_by_field_name("declaration")
    default = any(c.type == "default" for c in node.children)
    if declaration is not None:
        builder.walk(declaration, fn)
        for name in declared_names(declaration):
            exported = "default" if default else name
            builder.module.export(exported, ir.Name((name,), builder.key))
        return
    clause = next((c for c in node.named_children if c.type == "export_clause"), None)
    if clause is not None:
        for spec_node in clause.named_children:
            name = property_name(spec_node.child_by_field_name("name")) or ""
            alias_node = spec_node.child_by_field_name("alias")
            alias = property_name(alias_node) if alias_node is not None else None
            value: ir.Value = (
                ir.Import(spec, (name,), builder.key)
                if spec is not None
                else ir.Name((name,), builder.key)
            )
            builder.module.export(alias or name, value)
        return
    if spec is not None:
        namespace = next((c for c in node.named_children if c.type == "namespace_export"), None)
        if namespace is not None and namespace.named_child_count:
            namespace_name = property_name(namespace.named_children[-1]) or ""
            builder.module.export(namespace_name, ir.Import(spec, (), builder.key))
        else:
            builder.module.star_exports.append(ir.Import(spec, (), builder.key))
        return
    value_node = node.child_by_field_name("value")
    if value_node is None and not default and node.named_child_count == 1:
        value_node = node.named_children[0]  # TypeScript `export = x`
        default = value_node.type not in ("export_clause", "namespace_export")
    if default and value_node is not None:
        builder.module.export("default", value_of(value_node, fn.id, builder.key))
        builder.walk(value_node, fn)


def commonjs_export(module: ir.Module, rest: tuple[str, ...], value: ir.Value) -> None:
    if not rest:
        module.export("default", value)
        if isinstance(value, ir.Obj):
            for key, item in value.items:
                module.export(key, item)
        return
    if len(rest) == 1:
        module.export(rest[0], value)


def declared_names(node: Node) -> list[str]:
    if node.type in ("lexical_declaration", "variable_declaration"):
        names = []
        for decl in node.named_children:
            if decl.type == "variable_declarator":
                target = decl.child_by_field_name("name")
                if target is not None:
                    names.extend(param_names(target))
        return names
    name = node.child_by_field_name("name")
    return [text(name)] if name is not None else []


_STAR_EXPORTERS = frozenset({("__exportStar",), ("__export",), ("tslib", "__exportStar")})


def compiled_forms(builder: _Builder, path: tuple[str, ...] | None, value: ir.Value) -> None:
    """CommonJS as compilers write it: `Object.defineProperty(exports, "x", {get() {…}})`
    and `__exportStar(require("./m"), exports)` / `__export(require("./m"))`."""
    if not isinstance(value, ir.Call) or not value.args:
        return
    args = value.args
    if path == ("Object", "defineProperty") and len(args) >= 3:
        target, key, descriptor = args[0], args[1], args[2]
        exported = isinstance(target, ir.Name) and target.path in (
            ("exports",),
            ("module", "exports"),
        )
        if exported and isinstance(key, ir.Lit) and isinstance(key.value, str):
            items = dict(descriptor.items) if isinstance(descriptor, ir.Obj) else {}
            getter = items.get("get")
            if isinstance(getter, ir.FuncRef):
                builder.pending_getters.append((key.value, getter.func_id))
            elif "value" in items:
                builder.module.export(key.value, items["value"])
    elif path in _STAR_EXPORTERS and isinstance(args[0], ir.Import):
        builder.module.star_exports.append(args[0])


def typed_params(builder: _Builder, params: Node, scope: str) -> dict[str, ir.Value]:
    """`(db: Database.Database)`: the parameter holds an instance of the class it names;
    `constructor(private db: Client)` also makes it a field of the class."""
    out: dict[str, ir.Value] = {}
    if params.type == "identifier":
        return out
    for param in params.named_children:
        if param.type not in ("required_parameter", "optional_parameter"):
            continue
        pattern = param.child_by_field_name("pattern")
        path = type_path(param.child_by_field_name("type"))
        if pattern is None or pattern.type != "identifier" or path is None:
            continue
        instance = ir.Call(ir.Name(path, scope), (), (), True)
        out[text(pattern)] = instance
        modifier = any(c.type == "accessibility_modifier" for c in param.named_children)
        if modifier and builder.classes:
            builder.classes[-1].attrs.setdefault(text(pattern), []).append(instance)
    return out


_ORIGIN = re.compile(r"^// ((?:node_modules|src|lib|packages)/[^\s]{1,400}\.[cm]?[jt]sx?)$")


def bundle_origin(module: ir.Module, comment: Node) -> None:
    """esbuild and bun open each bundled module with `// its/path.js` at the top level."""
    found = _ORIGIN.match(text(comment))
    if found is not None:
        module.origins.append((position(comment)[0], found.group(1)))

"""Static values of JavaScript/TypeScript expressions (tree-sitter nodes -> `ir.Value`)."""

from __future__ import annotations

import bisect
import re

from tree_sitter import Node

from toolwitness.code import ir

FUNCTION_NODES = frozenset(
    {
        "function_declaration",
        "generator_function_declaration",
        "function_expression",
        "function",
        "generator_function",
        "arrow_function",
        "method_definition",
    }
)
CLASS_NODES = frozenset({"class_declaration", "class", "abstract_class_declaration"})
WRAPPERS = frozenset(
    {
        "sequence_expression",  # `(0, fn)(…)`: tsc's call without `this`; the value is the last
        "parenthesized_expression",
        "as_expression",
        "satisfies_expression",
        "non_null_expression",
        "type_assertion",
        "await_expression",
    }
)
# Helpers compilers emit around `require(...)`: each returns (a view of) the module it is given.
INTEROP_HELPERS = frozenset(
    {
        "__importDefault",
        "__importStar",
        "_interopRequireDefault",
        "_interopRequireWildcard",
        "__toESM",
        "__toCommonJS",
        "__importWildcard",
    }
)
_ESCAPE = re.compile(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)", re.S)
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


class _Source:
    """The file being walked: slicing its bytes and bisecting its line starts is far cheaper
    than tree-sitter's `Node.text` and `Node.start_point`."""

    data: bytes = b""
    line_starts: tuple[int, ...] = (0,)
    values: dict[tuple[int, str], ir.Value] = {}  # noqa: RUF012  (reset per file)
    ascii_lines: dict[int, bool] = {}  # noqa: RUF012  (reset per file)
    depth = 0


def set_source(data: bytes) -> None:
    _Source.data = data
    _Source.values = {}
    _Source.depth = 0
    _Source.line_starts = (0, *(m.end() for m in re.finditer(b"\n", data)))
    _Source.ascii_lines = {}


def position(node: Node) -> tuple[int, int]:
    """(line, column), both 1-based; the column counts code points (not tree-sitter's bytes).

    Whether a line is ASCII is decided once per line, so a bundle's 200 KB line costs one scan,
    not one per node (which made positions quadratic in the line's length)."""
    offset = node.start_byte
    line = bisect.bisect_right(_Source.line_starts, offset) - 1
    start = _Source.line_starts[line]
    ascii_line = _Source.ascii_lines.get(line)
    if ascii_line is None:
        end = _Source.line_starts[line + 1] if line + 1 < len(_Source.line_starts) else None
        ascii_line = _Source.ascii_lines[line] = _Source.data[start:end].isascii()
    if ascii_line:
        return line + 1, offset - start + 1
    prefix = _Source.data[start:offset]
    return line + 1, len(prefix.decode("utf-8", "replace")) + 1


MAX_VALUE_DEPTH = 48


def text(node: Node) -> str:
    return _Source.data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def node_id(module: str, node: Node) -> str:
    line, column = position(node)
    return f"{module}:{line}:{column}"


def unescape(raw: str) -> str:
    def repl(match: re.Match[str]) -> str:
        body = match.group(1)
        if body.startswith("u{"):
            return chr(min(int(body[2:-1], 16), 0x10FFFF))
        if body[0] in "ux" and len(body) > 1:
            return chr(int(body[1:], 16))
        return _SIMPLE.get(body, body if body != "\n" else "")

    return _ESCAPE.sub(repl, raw)


def string_value(node: Node) -> str:
    raw = text(node)
    return unescape(raw[1:-1]) if len(raw) >= 2 else ""


def unwrap(node: Node) -> Node:
    while node.type in WRAPPERS and node.named_child_count:
        inner = node.named_children[0]
        if node.type in ("await_expression", "sequence_expression"):
            inner = node.named_children[-1]
        node = inner
    return node


def property_name(node: Node | None) -> str | None:
    if node is None:
        return None
    if node.type in ("property_identifier", "identifier", "private_property_identifier"):
        return text(node)
    if node.type == "string":
        return string_value(node)
    if node.type == "number":
        return text(node)
    return None


def chain(node: Node) -> tuple[str, ...] | None:
    """`a.b["c"].d` -> ("a", "b", "c", "d"); a computed member becomes `ir.COMPUTED`."""
    node = unwrap(node)
    if node.type in ("identifier", "shorthand_property_identifier"):
        return (text(node),)
    if node.type == "this":
        return ("this",)
    if node.type == "super":
        return ("super",)
    if node.type == "member_expression":
        obj = node.child_by_field_name("object")
        prop = property_name(node.child_by_field_name("property"))
        base = chain(obj) if obj is not None else None
        return None if base is None or prop is None else (*base, prop)
    if node.type == "subscript_expression":
        obj = node.child_by_field_name("object")
        index = node.child_by_field_name("index")
        base = chain(obj) if obj is not None else None
        if base is None:
            return None
        key = string_value(index) if index is not None and index.type == "string" else None
        return (*base, key if key is not None else ir.COMPUTED)
    return None


def value_of(node: Node | None, scope: str, module: str) -> ir.Value:
    """A static, symbolic value for an expression; never evaluates anything (memoised per
    node: the walk asks again for every nested call, which would otherwise be quadratic)."""
    if node is None:
        return ir.Opaque("missing")
    node = unwrap(node)
    key = (node.id, scope)
    cached = _Source.values.get(key)
    if cached is None:
        if _Source.depth >= MAX_VALUE_DEPTH:
            return ir.Opaque("nested too deep")  # keeps every Value shallow enough to hash
        _Source.depth += 1
        try:
            cached = _value_of(node, scope, module)
        finally:
            _Source.depth -= 1
        _Source.values[key] = cached
    return cached


def _value_of(node: Node, scope: str, module: str) -> ir.Value:
    kind = node.type
    path = chain(node)
    if path is not None:
        return ir.Name(path, scope)
    if kind == "string":
        return ir.Lit(string_value(node))
    if kind == "template_string":
        return _template(node, scope, module)
    if kind == "number":
        try:
            return ir.Lit(float(text(node)) if "." in text(node) else int(text(node), 0))
        except ValueError:
            return ir.Opaque("number")
    if kind in ("true", "false"):
        return ir.Lit(kind == "true")
    if kind in ("null", "undefined"):
        return ir.Lit(None)
    if kind in FUNCTION_NODES:
        return ir.FuncRef(node_id(module, node))
    if kind in CLASS_NODES:
        return ir.ClassRef(node_id(module, node))
    if kind == "object":
        return _object(node, scope, module)
    if kind == "array":
        items = (c for c in node.named_children if c.type != "comment")
        return ir.Arr(tuple(_item(child, scope, module) for child in items))
    if kind == "binary_expression" and _operator(node) == "+":
        left = value_of(node.child_by_field_name("left"), scope, module)
        right = value_of(node.child_by_field_name("right"), scope, module)
        parts: list[ir.Value] = []
        for part in (left, right):
            parts.extend(part.parts if isinstance(part, ir.Concat) else (part,))
        return ir.Concat(tuple(parts))
    if kind in ("call_expression", "new_expression"):
        return _call(node, scope, module)
    if kind == "ternary_expression":
        options = (node.child_by_field_name("consequence"), node.child_by_field_name("alternative"))
        return ir.Choice(tuple(value_of(o, scope, module) for o in options))
    if kind == "binary_expression" and _operator(node) in ("||", "??", "&&"):
        left = value_of(node.child_by_field_name("left"), scope, module)
        right = value_of(node.child_by_field_name("right"), scope, module)
        # `a && b` is b when it is chosen at all (a falsy a is no tool list or handler)
        return right if _operator(node) == "&&" else ir.Choice((left, right))
    if kind == "member_expression":
        obj = value_of(node.child_by_field_name("object"), scope, module)
        prop = property_name(node.child_by_field_name("property"))
        return ir.Member(obj, (prop or ir.COMPUTED,))
    return ir.Opaque(kind)


def _operator(node: Node) -> str:
    op = node.child_by_field_name("operator")
    return text(op) if op is not None else ""


def _item(node: Node, scope: str, module: str) -> ir.Value:
    if node.type == "spread_element" and node.named_child_count:
        return ir.Spread(value_of(node.named_children[0], scope, module))
    return value_of(node, scope, module)


def _template(node: Node, scope: str, module: str) -> ir.Value:
    parts: list[ir.Value] = []
    for child in node.named_children:
        if child.type in ("string_fragment", "escape_sequence"):
            parts.append(ir.Lit(unescape(text(child))))
        elif child.type == "template_substitution" and child.named_child_count:
            parts.append(value_of(child.named_children[0], scope, module))
    if not parts:
        return ir.Lit("")
    if all(isinstance(p, ir.Lit) for p in parts):
        return ir.Lit("".join(str(p.value) for p in parts if isinstance(p, ir.Lit)))
    return ir.Concat(tuple(parts))


def _object(node: Node, scope: str, module: str) -> ir.Obj:
    items: list[tuple[str, ir.Value]] = []
    spreads: list[ir.Value] = []
    for child in node.named_children:
        if child.type == "pair":
            key_node = child.child_by_field_name("key")
            key = property_name(key_node) or ir.COMPUTED
            items.append((key, value_of(child.child_by_field_name("value"), scope, module)))
        elif child.type == "shorthand_property_identifier":
            items.append((text(child), ir.Name((text(child),), scope)))
        elif child.type == "method_definition":
            key = property_name(child.child_by_field_name("name")) or ir.COMPUTED
            items.append((key, ir.FuncRef(node_id(module, child))))
        elif child.type == "spread_element" and child.named_child_count:
            spreads.append(value_of(child.named_children[0], scope, module))
    return ir.Obj(tuple(items), tuple(spreads))


def _call(node: Node, scope: str, module: str) -> ir.Value:
    new = node.type == "new_expression"
    callee = node.child_by_field_name("constructor" if new else "function")
    args_node = node.child_by_field_name("arguments")
    args = tuple(
        _item(a, scope, module)
        for a in (args_node.named_children if args_node is not None else [])
        if a.type != "comment"
    )
    if callee is not None and not new:
        spec = import_specifier(callee, args)
        if spec is not None:
            return ir.Import(spec, (), module)
        if callee.type == "identifier" and text(callee) in INTEROP_HELPERS and args:
            return args[0]  # tsc/babel/esbuild module interop: the module it is given
    return ir.Call(value_of(callee, scope, module), args, (), new)


def import_specifier(callee: Node, args: tuple[ir.Value, ...]) -> str | None:
    """`require("x")` / `import("x")` with a literal specifier -> "x"."""
    is_loader = (callee.type == "identifier" and text(callee) == "require") or callee.type in (
        "import",
    )
    if is_loader and args and isinstance(args[0], ir.Lit) and isinstance(args[0].value, str):
        return args[0].value
    return None


def dynamic_loader(callee: Node, value: ir.Value) -> bool:
    """`require(expr)` / `import(expr)` whose specifier is not a literal."""
    loader = (callee.type == "identifier" and text(callee) == "require") or callee.type == "import"
    return loader and not isinstance(value, ir.Import)


def anonymous_name(node: Node) -> str:
    return f"<{node.type.replace('_', ' ')}@{position(node)[0]}>"


def short(source: str) -> str:
    flat = " ".join(source.split())
    return flat if len(flat) <= 60 else flat[:57] + "..."


def param_names(node: Node) -> list[str]:
    if node.type == "identifier":
        return [text(node)]
    names: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in ("identifier", "shorthand_property_identifier_pattern"):
            parent = current.parent
            is_key = parent is not None and parent.type == "pair_pattern"
            if is_key and parent is not None and parent.child_by_field_name("key") == current:
                continue
            names.append(text(current))
            continue
        if current.type == "assignment_pattern":
            left = current.child_by_field_name("left")
            if left is not None:
                stack.append(left)
            continue
        if current.type in FUNCTION_NODES or current.type in ("type_annotation", "decorator"):
            continue  # `@inject(Token) x`: the decorator's names are no parameters
        stack.extend(reversed(current.named_children))
    return names


def type_path(annotation: Node | None) -> tuple[str, ...] | None:
    """The class a TypeScript annotation names (`: Database.Database`, `: Client | null`,
    `: Promise<Pool>` is not one); None for primitives, literals and shapes."""
    if annotation is None:
        return None
    node = annotation.named_children[0] if annotation.type == "type_annotation" else annotation
    if node is None:
        return None
    if node.type == "type_identifier":
        return (text(node),)
    if node.type == "nested_type_identifier":
        return tuple(text(node).replace(" ", "").split("."))
    if node.type == "union_type":  # `Client | null`: the one class in it
        paths = [p for p in (type_path(c) for c in node.named_children) if p is not None]
        return paths[0] if len(paths) == 1 else None
    if node.type == "parenthesized_type" and node.named_child_count:
        return type_path(node.named_children[0])
    return None


def heritage_exprs(node: Node) -> list[Node]:
    out: list[Node] = []
    for child in node.named_children:
        if child.type == "extends_clause":
            value = child.child_by_field_name("value")
            out.extend([value] if value is not None else child.named_children[:1])
        elif child.type not in ("implements_clause",):
            out.append(child)
    return out

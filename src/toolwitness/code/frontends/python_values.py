"""Static values of Python expressions (`ast` nodes -> `ir.Value`) and node helpers."""

from __future__ import annotations

import ast

from toolwitness.code import ir

MAX_VALUE_DEPTH = 48


def chain(node: ast.expr) -> tuple[str, ...] | None:
    if isinstance(node, ast.Name):
        return (node.id,)
    if isinstance(node, ast.Attribute):
        base = chain(node.value)
        return None if base is None else (*base, node.attr)
    if isinstance(node, ast.Subscript):
        base = chain(node.value)
        key = node.slice
        name = key.value if isinstance(key, ast.Constant) and isinstance(key.value, str) else None
        return None if base is None else (*base, name if name is not None else ir.COMPUTED)
    return None


class ValueBuilder:
    """Positions and symbolic values for one file; the statement walker builds on it."""

    def __init__(self, key: str, lines: list[bytes]) -> None:
        self.key = key
        self.lines = lines
        self.depth = 0

    def column(self, node: ast.expr | ast.stmt | ast.Lambda) -> int:
        """1-based column in code points (`ast` counts UTF-8 bytes)."""
        line = self.lines[node.lineno - 1] if 0 < node.lineno <= len(self.lines) else b""
        prefix = line[: node.col_offset]
        return (len(prefix) if prefix.isascii() else len(prefix.decode("utf-8", "replace"))) + 1

    def node_id(self, node: ast.AST) -> str:
        return f"{self.key}:{getattr(node, 'lineno', 0)}:{getattr(node, 'col_offset', 0) + 1}"

    def value(self, node: ast.expr | None, scope: str) -> ir.Value:
        if node is None:
            return ir.Lit(None)
        if self.depth >= MAX_VALUE_DEPTH:
            return ir.Opaque("nested too deep")  # keeps every Value shallow enough to hash
        self.depth += 1
        try:
            return self._value(node, scope)
        finally:
            self.depth -= 1

    def _value(self, node: ast.expr, scope: str) -> ir.Value:
        path = chain(node)
        if path is not None:
            return ir.Name(path, scope)
        if isinstance(node, ast.Constant):
            v = node.value
            return (
                ir.Lit(v)
                if isinstance(v, str | int | float | bool | type(None))
                else ir.Opaque("bytes")
            )
        if isinstance(node, ast.Attribute):
            return ir.Member(self.value(node.value, scope), (node.attr,))
        if isinstance(node, ast.Call):
            loaded = literal_import(node)
            if loaded is not None:
                return ir.Import(loaded, (), self.key)
            args = tuple(self.arg(a, scope) for a in node.args)
            kwargs = tuple((k.arg, self.value(k.value, scope)) for k in node.keywords if k.arg)
            return ir.Call(self.value(node.func, scope), args, kwargs)
        if isinstance(node, ast.JoinedStr):
            parts = tuple(
                self.value(p.value if isinstance(p, ast.FormattedValue) else p, scope)
                for p in node.values
            )
            return ir.Concat(parts)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return ir.Concat((self.value(node.left, scope), self.value(node.right, scope)))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            return self.value(node.left, scope)  # `Path / name` is still a Path
        if isinstance(node, ast.Dict):
            items: list[tuple[str, ir.Value]] = []
            spreads: list[ir.Value] = []
            for key_node, item in zip(node.keys, node.values, strict=True):
                if key_node is None:
                    spreads.append(self.value(item, scope))
                    continue
                constant = key_node.value if isinstance(key_node, ast.Constant) else None
                key = constant if isinstance(constant, str) else ir.COMPUTED
                items.append((key, self.value(item, scope)))
            return ir.Obj(tuple(items), tuple(spreads))
        if isinstance(node, ast.List | ast.Tuple | ast.Set):
            return ir.Arr(tuple(self.arg(e, scope) for e in node.elts))
        if isinstance(node, ast.Lambda):
            return ir.FuncRef(self.node_id(node))
        if (
            isinstance(node, ast.ListComp | ast.GeneratorExp | ast.SetComp)
            and len(node.generators) == 1
        ):
            gen = node.generators[0]
            if isinstance(node.elt, ast.Name) and chain(gen.target) == (node.elt.id,):
                # `[t for t in TOOLS if ok(t)]`: (at most) the elements of TOOLS
                return ir.Arr((ir.Spread(self.value(gen.iter, scope)),))
        if isinstance(node, ast.IfExp):
            return ir.Choice((self.value(node.body, scope), self.value(node.orelse, scope)))
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            return ir.Choice(tuple(self.value(v, scope) for v in node.values))
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
            return self.value(node.values[-1], scope)
        if isinstance(node, ast.Await):
            return self.value(node.value, scope)
        return ir.Opaque(type(node).__name__)

    def arg(self, node: ast.expr, scope: str) -> ir.Value:
        if isinstance(node, ast.Starred):
            return ir.Spread(self.value(node.value, scope))
        return self.value(node, scope)

    # -- statements --------------------------------------------------------------------------


def literal_import(node: ast.Call) -> str | None:
    """`__import__("os")` / `importlib.import_module("os")`: the module named by a literal."""
    if chain(node.func) not in (("__import__",), ("importlib", "import_module")):
        return None
    first = node.args[0] if node.args else None
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return first.value
    return None


def dynamic(node: ast.Call, path: tuple[str, ...] | None) -> bool:
    """`import_module(expr)`, `__import__(expr)`, `getattr(x, expr)`: a name chosen at run time."""
    if path not in (
        ("importlib", "import_module"),
        ("import_module",),
        ("__import__",),
        ("getattr",),
    ):
        return False
    index = 1 if path == ("getattr",) else 0
    if len(node.args) <= index:
        return False
    return not isinstance(node.args[index], ast.Constant)


def short(source: str) -> str:
    flat = " ".join(source.split())
    return flat if len(flat) <= 60 else flat[:57] + "..."


def subscript_indexes(node: ast.expr) -> list[ast.expr]:
    out: list[ast.expr] = []
    while isinstance(node, ast.Attribute | ast.Subscript):
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Constant):
            out.append(node.slice)
        node = node.value
    return out


def pattern_values(pattern: ast.pattern) -> list[ast.expr]:
    if isinstance(pattern, ast.MatchValue):
        return [pattern.value]
    if isinstance(pattern, ast.MatchOr):
        return [v for p in pattern.patterns for v in pattern_values(p)]
    if isinstance(pattern, ast.MatchAs) and pattern.pattern is not None:
        return pattern_values(pattern.pattern)
    return []

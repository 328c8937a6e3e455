"""A Python tool's inputSchema from its handler's signature (type hints read, never evaluated).

The registrations IR keeps parameter names only, so the handler's file is parsed again with
`ast` (it already passed the code bounds) and its annotations are mapped: `str int float bool
None`, `list[X]`/`List[X]`/`Sequence[X]`, `dict`/`Mapping`, `Optional[X]`, `X | None`,
`Literal[...]`, `Annotated[X, Field(description="…")]`. A parameter with a default is not
required. Anything else — a pydantic model, a class of the project, a string annotation — is
`{}` (any value) and is named in the returned gap list, never guessed.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from toolwitness.code import ir

_SCALARS = {
    "str": {"type": "string"},
    "int": {"type": "integer"},
    "float": {"type": "number"},
    "bool": {"type": "boolean"},
    "None": {"type": "null"},
    "bytes": {"type": "string"},
    "Any": {},
}
_ARRAYS = {"list", "List", "Sequence", "tuple", "Tuple", "set", "Set", "Iterable"}
_OBJECTS = {"dict", "Dict", "Mapping"}
_CONTEXT = {"self", "cls", "ctx", "context"}
_CONTEXT_TYPES = {"Context", "RequestContext"}
_MAX_DEPTH = 16


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Constant) and node.value is None:
        return "None"
    return None


class _Hints:
    def __init__(self) -> None:
        self.gaps: set[str] = set()

    def schema(self, node: ast.expr, depth: int = 0) -> tuple[dict[str, Any], bool]:
        """(JSON Schema, may be None?)."""
        if depth > _MAX_DEPTH:
            self.gaps.add("a type hint nested too deep")
            return {}, False
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
            left, left_none = self.schema(node.left, depth + 1)
            right, right_none = self.schema(node.right, depth + 1)
            arms = [a for a in (left, right) if a != {"type": "null"}]
            nullable = left_none or right_none or len(arms) < 2
            return (arms[0] if len(arms) == 1 else {"anyOf": arms}), nullable
        if isinstance(node, ast.Subscript):
            return self.generic(node, depth)
        name = _name(node)
        if name in _SCALARS:
            return dict(_SCALARS[name]), name == "None"
        if name in _ARRAYS:
            return {"type": "array"}, False
        if name in _OBJECTS:
            return {"type": "object"}, False
        self.gaps.add(f"type {name or ast.unparse(node)[:40]!r}")
        return {}, False

    def generic(self, node: ast.Subscript, depth: int) -> tuple[dict[str, Any], bool]:
        head = _name(node.value)
        args = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
        if head == "Optional" and args:
            return self.schema(args[0], depth + 1)[0], True
        if head == "Union":
            arms = [self.schema(a, depth + 1) for a in args]
            kept = [s for s, _ in arms if s != {"type": "null"}]
            nullable = any(n for _, n in arms) or len(kept) < len(arms)
            return (kept[0] if len(kept) == 1 else {"anyOf": kept}), nullable
        if head in _ARRAYS and args:
            return {"type": "array", "items": self.schema(args[0], depth + 1)[0]}, False
        if head in _OBJECTS:
            return {"type": "object"}, False
        if head == "Literal":
            values = [a.value for a in args if isinstance(a, ast.Constant)]
            return {"enum": values}, False
        if head == "Annotated" and args:
            inner, nullable = self.schema(args[0], depth + 1)
            for meta in args[1:]:
                description = _field_description(meta)
                if description is not None:
                    inner = {**inner, "description": description}
            return inner, nullable
        self.gaps.add(f"type {ast.unparse(node)[:40]!r}")
        return {}, False


def _field_description(node: ast.expr) -> str | None:
    if isinstance(node, ast.Call) and _name(node.func) == "Field":
        for keyword in node.keywords:
            if keyword.arg == "description" and isinstance(keyword.value, ast.Constant):
                value = keyword.value.value
                return value if isinstance(value, str) else None
    return None


def _function_node(root: Path, fn: ir.Function) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    try:
        tree = ast.parse((root / fn.file).read_bytes())
    except (OSError, SyntaxError, ValueError, RecursionError):
        return None
    short = fn.name.rsplit(".", 1)[-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.lineno == fn.line:
            return node if node.name == short else None
    return None


def python_input_schema(root: Path, fn: ir.Function) -> tuple[dict[str, Any] | None, list[str]]:
    """The handler's parameters as a JSON Schema object, and what could not be typed."""
    node = _function_node(root, fn)
    if node is None:
        return None, ["the handler's definition could not be read again"]
    hints = _Hints()
    arguments = node.args
    positional = [*arguments.posonlyargs, *arguments.args]
    defaults = len(arguments.defaults)
    optional = {a.arg for a in positional[len(positional) - defaults :]} if defaults else set()
    optional |= {
        a.arg for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True) if d
    }
    properties: dict[str, Any] = {}
    required: list[str] = []
    for arg in [*positional, *arguments.kwonlyargs]:
        if arg.arg in _CONTEXT or (arg.annotation and _name(arg.annotation) in _CONTEXT_TYPES):
            continue
        schema, nullable = hints.schema(arg.annotation) if arg.annotation else ({}, False)
        if arg.annotation is None:
            hints.gaps.add("a parameter without a type hint")
        properties[arg.arg] = schema
        if arg.arg not in optional and not nullable:
            required.append(arg.arg)
    out: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        out["required"] = required
    return out, sorted(hints.gaps)

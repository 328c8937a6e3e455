"""A tool's inputSchema recovered statically from its registration.

- JS/TS: zod shapes (`{ path: z.string().describe("…") }`, `Schema.shape`, `z.object({…})`),
  followed through constants and other modules' exports. Builders this module does not know
  become `{}` (any value) and are named in the reason, never guessed.
- Python: the handler's signature and type hints (`code.py_schema`); if its definition cannot
  be read again, each parameter name (minus `self`/`ctx`-style ones) becomes a property of
  unknown type — still text the metadata checks read (exfil-shaped parameters).
"""

from __future__ import annotations

from typing import Any

from toolwitness.code import ir
from toolwitness.code.project import Project
from toolwitness.code.py_schema import python_input_schema
from toolwitness.code.resolve import Resolver
from toolwitness.code.specs import ToolSpec

_MAX_DEPTH = 24
_SCALARS = {
    "string": {"type": "string"},
    "number": {"type": "number"},
    "int": {"type": "integer"},
    "bigint": {"type": "integer"},
    "boolean": {"type": "boolean"},
    "null": {"type": "null"},
    "date": {"type": "string"},
    "any": {},
    "unknown": {},
    "record": {"type": "object"},
}
_OPTIONAL = {"optional", "nullish", "default"}
_PY_CONTEXT_PARAMS = {"self", "cls", "ctx", "context"}


class _Gap(Exception):
    pass


class _Zod:
    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self.unknown: set[str] = set()

    def raw(self, value: ir.Value, depth: int) -> ir.Value:
        """Follow a name or an import to the value bound to it (one candidate, or give up)."""
        for _ in range(_MAX_DEPTH):
            if isinstance(value, ir.Name) and len(value.path) == 1:
                bound = self.resolver.lookup(value.path[0], value.scope) or []
                if len(bound) != 1:
                    raise _Gap("a schema name bound more than once or not at all")
                value = bound[0]
            elif isinstance(value, ir.Import) and len(value.path) == 1:
                bound = self.resolver.import_values(value)
                if len(bound) != 1:
                    raise _Gap("an imported schema that is not a local constant")
                value = bound[0]
            else:
                return value
        raise _Gap("schema constants nest too deep")

    def shape(self, value: ir.Value, depth: int) -> dict[str, Any]:
        """An object shape (`{k: z.…}`), a `z.object(…)` or `X.shape` → a JSON Schema object."""
        if depth > _MAX_DEPTH:
            raise _Gap("schema nests too deep")
        value = self.raw(value, depth)
        if isinstance(value, ir.Name) and len(value.path) == 2 and value.path[1] == "shape":
            return self.shape(ir.Name(value.path[:1], value.scope), depth + 1)
        if isinstance(value, ir.Member) and value.path == ("shape",):
            return self.shape(value.base, depth + 1)
        if isinstance(value, ir.Obj):
            if value.spreads:
                raise _Gap("a schema shape with a spread")
            properties: dict[str, Any] = {}
            required: list[str] = []
            for key, item in value.items:
                schema, optional = self.field(item, depth + 1)
                properties[key] = schema
                if not optional:
                    required.append(key)
            out: dict[str, Any] = {"type": "object", "properties": properties}
            if required:
                out["required"] = required
            return out
        schema, _ = self.field(value, depth + 1)
        if schema.get("type") != "object":
            raise _Gap("the input schema is not an object shape")
        return schema

    def field(self, value: ir.Value, depth: int) -> tuple[dict[str, Any], bool]:
        """A zod expression → (JSON Schema, optional?)."""
        if depth > _MAX_DEPTH:
            raise _Gap("schema nests too deep")
        value = self.raw(value, depth)
        if not isinstance(value, ir.Call):
            raise _Gap("a schema field that is not a zod call")
        callee = value.callee
        if isinstance(callee, ir.Member) and len(callee.path) == 1:
            return self.method(callee.base, callee.path[0], value.args, depth)
        if isinstance(callee, ir.Name) and len(callee.path) == 2:
            return self.builder(callee.path[1], value.args, depth), False
        if isinstance(callee, ir.Name) and len(callee.path) > 2:
            # z.string().min(1) parsed as a name path ("z", "string", …) is not a call chain
            raise _Gap("an unrecognised zod call shape")
        raise _Gap("a schema field that is not a zod call")

    def method(
        self, base: ir.Value, name: str, args: tuple[ir.Value, ...], depth: int
    ) -> tuple[dict[str, Any], bool]:
        inner, optional = self.field(base, depth + 1)
        if name == "describe" and args:
            text = self.resolver.static(args[0])
            if isinstance(text, str):
                inner = {**inner, "description": text}
        elif name in _OPTIONAL:
            optional = True
        elif name == "array":
            inner = {"type": "array", "items": inner}
        elif name == "nullable":
            inner = {"anyOf": [inner, {"type": "null"}]}
        return inner, optional

    def builder(self, name: str, args: tuple[ir.Value, ...], depth: int) -> dict[str, Any]:
        if name in _SCALARS:
            return dict(_SCALARS[name])
        if name == "array" and args:
            return {"type": "array", "items": self.field(args[0], depth + 1)[0]}
        if name == "object" and args:
            return self.shape(args[0], depth + 1)
        if name in ("enum", "literal", "union") and args:
            items = self.resolver.static(args[0])
            if name == "literal" and isinstance(items, str | int | float | bool):
                return {"const": items}
            if (
                name == "enum"
                and isinstance(items, list)
                and all(isinstance(i, str) for i in items)
            ):
                return {"type": "string", "enum": items}
            if name == "union":
                arms = self.raw(args[0], depth)
                if isinstance(arms, ir.Arr):
                    return {"anyOf": [self.field(a, depth + 1)[0] for a in arms.items]}
        self.unknown.add(name)
        return {}


def _strings(items: Any) -> bool:
    return isinstance(items, list) and all(isinstance(i, str) for i in items)


def _registration(spec: ToolSpec, project: Project) -> ir.Registration | None:
    module = project.modules.get(spec.file)
    found = [
        reg
        for reg in (module.registrations if module else [])
        if (reg.line, reg.column) == (spec.line, spec.column) and reg.kind == spec.shape
    ]
    return found[0] if len(found) == 1 else None


def _js_schema_value(reg: ir.Registration, resolver: Resolver, zod: _Zod) -> ir.Value | None:
    middle = reg.args[1:-1]
    if reg.kind == "registerTool" and middle:
        config = zod.raw(middle[0], 0)
        if isinstance(config, ir.Obj):
            return dict(config.items).get("inputSchema")
        raise _Gap("the tool config is not an object literal")
    # server.tool(name, [description], [paramsSchema], [annotations], handler)
    shapes = [a for a in middle if not isinstance(resolver.static(a), str)]
    return shapes[0] if shapes else None


def _python_schema(spec: ToolSpec, project: Project) -> dict[str, Any]:
    params: list[str] = []
    for func_id in spec.handlers[:1]:
        params = [p for p in project.functions[func_id].params if p not in _PY_CONTEXT_PARAMS]
    return {"type": "object", "properties": {p: {} for p in params}}


def schema_for_spec(
    spec: ToolSpec, project: Project, resolver: Resolver
) -> tuple[dict[str, Any] | None, str | None]:
    """(schema, what is missing from it), or (None, why not), or (None, None) for no input."""
    if spec.shape in ("py-tool", "add_tool"):
        if not spec.handlers:
            return None, "the handler could not be resolved"
        schema, gaps = python_input_schema(project.root, project.functions[spec.handlers[0]])
        if schema is None:  # the names alone, still text the metadata checks read
            return _python_schema(spec, project), "; ".join(gaps)
        return schema, ("type hints not converted: " + ", ".join(gaps)) if gaps else None
    if spec.shape not in ("tool", "registerTool"):
        return None, f"a {spec.shape} registration lists no schema literal"
    reg = _registration(spec, project)
    if reg is None:
        return None, "the registration is generated (a loop or a repeated call)"
    zod = _Zod(resolver)
    try:
        value = _js_schema_value(reg, resolver, zod)
        if value is None:
            return None, None
        schema = zod.shape(value, 0)
    except _Gap as gap:
        return None, str(gap)
    if zod.unknown:  # such a field is `{}` (any value), never a guessed type
        return schema, "zod types not converted: " + ", ".join(sorted(zod.unknown))
    return schema, None

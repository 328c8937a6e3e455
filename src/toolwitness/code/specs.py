"""What a registration says about one tool (name, description, annotations, handlers), and the
functions a handler value runs — shared by every registration shape."""

from __future__ import annotations

from typing import Any

from toolwitness.code import ir
from toolwitness.code.resolve import UNKNOWN, Resolver, RFunc
from toolwitness.plainclass import field, plainclass

ANNOTATION_KEYS = ("title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
_SNAKE = {
    "read_only_hint": "readOnlyHint",
    "destructive_hint": "destructiveHint",
    "idempotent_hint": "idempotentHint",
    "open_world_hint": "openWorldHint",
}


@plainclass
class ToolSpec:
    name: str
    file: str
    line: int
    column: int
    shape: str
    description: str | None = None
    title: str | None = None
    annotations: dict[str, Any] | None = None
    input_schema: dict[str, Any] = field(default_factory=lambda: {"type": "object"})
    handlers: list[str] = field(default_factory=list)  # function ids
    problems: list[str] = field(default_factory=list)
    dispatch: bool = False  # a shared low-level handler: arms of other tools are skipped


@plainclass
class Extraction:
    tools: list[ToolSpec] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def apply_config(spec: ToolSpec, config: dict[str, Any]) -> None:
    description = config.get("description")
    spec.description = description if isinstance(description, str) else None
    title = config.get("title")
    spec.title = title if isinstance(title, str) else None
    annotations = config.get("annotations")
    if isinstance(annotations, dict):
        spec.annotations = annotations_of(annotations)
    elif annotations is UNKNOWN:
        spec.problems.append("annotations are not a constant")


def annotations_of(raw: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in raw.items():
        name = _SNAKE.get(key, key)
        if name in ANNOTATION_KEYS and value is not UNKNOWN:
            out[name] = value
    return out


def handler_functions(value: ir.Value, resolver: Resolver, depth: int = 0) -> list[str]:
    """The functions a handler value runs: what it resolves to and, for a handler wrapped by a
    higher-order function (`withTelemetry(async (req) => …)`, `wrap(handler, opts)`), the
    functions passed to the wrapper — the wrapper's own body is reached through its return."""
    found = [r.func_id for r in resolver.resolve(value) if isinstance(r, RFunc)]
    if depth < 8:
        call = value
        if isinstance(value, ir.Name) and len(value.path) == 1:
            bound = resolver.lookup(value.path[0], value.scope) or []
            call = bound[0] if len(bound) == 1 else value
        elif isinstance(value, ir.Name):  # `def.logic` of an object literal bound to `def`
            from toolwitness.code.tool_lists import raw_values

            raw = raw_values(resolver, value)
            call = raw[0] if len(raw) == 1 else value
        if isinstance(call, ir.Call):
            args = [*call.args, *(v for _, v in call.kwargs)]
            for arg in args:  # `wrap({ logic: def.logic })`: the functions an option holds too
                members = [v for _, v in arg.items] if isinstance(arg, ir.Obj) else [arg]
                for member in members:
                    found += handler_functions(member, resolver, depth + 1)
    return list(dict.fromkeys(found))

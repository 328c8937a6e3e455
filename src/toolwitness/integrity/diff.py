"""A human-readable, field-by-field diff of two surfaces of one server.

Descriptions and instructions get a unified text diff, schemas a structural JSON diff (one line
per path that differs), annotations a before → after line per key with the tier move named.
Every piece of server text is escaped (`escape_display`) and length-bounded before it is shown,
so a hidden-character-only change is visible and nothing can drive the terminal.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator
from typing import Any

from toolwitness import paths
from toolwitness.integrity.canonical import SurfaceDigests, digest_surface
from toolwitness.integrity.drift import WIDENING, classify_hint
from toolwitness.model import POLICY_HINTS, ServerSurface, Tool
from toolwitness.textnorm import escape_display, excerpt

MAX_JSON_LINES = 200  # per field; the cut is stated, never silent
MAX_TEXT_LINES = 400
_VALUE_CHARS = 160


def _value(value: Any) -> str:
    if value is _ABSENT:
        return "absent"
    return excerpt(json.dumps(value, ensure_ascii=False, sort_keys=True), _VALUE_CHARS)


class _Absent:
    pass


_ABSENT: Any = _Absent()


def json_changes(before: Any, after: Any, where: str = "") -> Iterator[str]:
    """One line per JSON path whose value differs: `+` added, `-` removed, `~` changed."""
    stack: list[tuple[Any, Any, str]] = [(before, after, where)]
    while stack:
        old, new, loc = stack.pop()
        shown = loc or "$"
        if isinstance(old, dict) and isinstance(new, dict):
            for key in sorted({*old, *new}, reverse=True):
                stack.append((old.get(key, _ABSENT), new.get(key, _ABSENT), paths.child(loc, key)))
        elif isinstance(old, list) and isinstance(new, list):
            for index in reversed(range(max(len(old), len(new)))):
                stack.append(
                    (
                        old[index] if index < len(old) else _ABSENT,
                        new[index] if index < len(new) else _ABSENT,
                        paths.item(loc, index),
                    )
                )
        elif old is _ABSENT:
            yield f"+ {escape_display(shown)}: {_value(new)}"
        elif new is _ABSENT:
            yield f"- {escape_display(shown)}: {_value(old)}"
        elif old != new or type(old) is not type(new):
            yield f"~ {escape_display(shown)}: {_value(old)} → {_value(new)}"


def text_changes(before: str | None, after: str | None, label: str) -> list[str]:
    """A unified diff of two texts, every line escaped; absent text diffs as empty."""
    old = (
        [escape_display(line) for line in (before or "").split("\n")] if before is not None else []
    )
    new = [escape_display(line) for line in (after or "").split("\n")] if after is not None else []
    lines = list(
        difflib.unified_diff(old, new, f"{label} (before)", f"{label} (after)", lineterm="", n=2)
    )
    return _bounded(lines, MAX_TEXT_LINES)


def _bounded(lines: list[str], limit: int) -> list[str]:
    if len(lines) <= limit:
        return lines
    return [*lines[:limit], f"… {len(lines) - limit} more lines not shown"]


def annotation_changes(before: dict[str, Any] | None, after: dict[str, Any] | None) -> list[str]:
    old, new = before or {}, after or {}
    lines = []
    for key in sorted({*old, *new}):
        was, now = old.get(key, _ABSENT), new.get(key, _ABSENT)
        if was == now and type(was) is type(now):
            continue
        line = f"{escape_display(key)}: {_value(was)} → {_value(now)}"
        if key in POLICY_HINTS:
            kind = classify_hint(key, _hint(was), _hint(now))
            if kind is not None and kind != "neutral":
                line += f"   [{kind.upper()}]"
        lines.append(line)
    return lines


def _hint(value: Any) -> bool | None:
    return value if isinstance(value, bool) else None


def tool_changes(old: Tool, new: Tool) -> list[str]:
    out: list[str] = []
    for field in ("title", "description"):
        before, after = getattr(old, field), getattr(new, field)
        if before != after:
            out.append(f"  {field}:")
            out.extend("    " + line for line in text_changes(before, after, field))
    for field, before, after in (
        ("inputSchema", old.input_schema, new.input_schema),
        ("outputSchema", old.output_schema, new.output_schema),
    ):
        if before != after:
            out.append(f"  {field}:")
            changes = list(json_changes(_or_absent(before), _or_absent(after)))
            out.extend("    " + line for line in _bounded(changes, MAX_JSON_LINES))
    if old.annotations != new.annotations:
        out.append("  annotations:")
        out.extend("    " + line for line in annotation_changes(old.annotations, new.annotations))
    return out


def _or_absent(value: Any) -> Any:
    return _ABSENT if value is None else value


def diff_surfaces(old: ServerSurface, new: ServerSurface) -> tuple[list[str], bool]:
    """The diff as lines, and whether the surfaces differ at all (digest-level)."""
    old_d, new_d = digest_surface(old), digest_surface(new)
    lines = [
        f"--- {escape_display(old.source or old.id)}  {len(old.tools)} tools  {old_d.surface}",
        f"+++ {escape_display(new.source or new.id)}  {len(new.tools)} tools  {new_d.surface}",
    ]
    differs = old_d.surface != new_d.surface or old.instructions != new.instructions
    if old.instructions != new.instructions:
        lines.append("server instructions:")
        lines.extend(
            "  " + line for line in text_changes(old.instructions, new.instructions, "instructions")
        )
    before = {t.name: t for t in old.tools}
    after = {t.name: t for t in new.tools}
    for name in sorted({*before, *after}):
        shown = escape_display(name)
        if name not in after:
            lines.append(f"tool {shown}: removed")
        elif name not in before:
            note = ""
            if after[name].hint("readOnlyHint") is True:
                note = "   [claims readOnlyHint true: blocked on a pinned server]"
            lines.append(f"tool {shown}: added{note}")
            lines.extend(_added_summary(after[name]))
        else:
            old_t, new_t = before[name], after[name]
            old_fields, new_fields = _fields(old_d, name), _fields(new_d, name)
            fields = [f for f in _SHOWN_FIELDS if old_fields[f] != new_fields[f]]
            if not fields:
                continue
            widening = any(
                classify_hint(h, old_t.hint(h), new_t.hint(h)) == WIDENING for h in POLICY_HINTS
            )
            flag = "   [WIDENING: blocked on a pinned server]" if widening else ""
            lines.append(f"tool {shown}: modified ({', '.join(fields)}){flag}")
            lines.extend(tool_changes(old_t, new_t))
    if not differs:
        lines.append("no differences")
    return lines, differs


_SHOWN_FIELDS = ("title", "description", "inputSchema", "outputSchema", "annotations")


def _fields(digests: SurfaceDigests, name: str) -> dict[str, str]:
    tool = digests.of(name)
    assert tool is not None  # `name` was taken from this surface
    return tool.fields


def _added_summary(tool: Tool) -> list[str]:
    hints = ", ".join(
        f"{h}: {str(v).lower()}" for h in POLICY_HINTS if (v := tool.hint(h)) is not None
    )
    props = tool.input_schema.get("properties")
    count = len(props) if isinstance(props, dict) else 0
    return [f"  {count} input properties; hints: {hints or 'none'}"]

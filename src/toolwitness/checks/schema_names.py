"""Every property of a JSON Schema, nested ones included (`schema_properties`), and their names
(`property_names`): the tool's own arguments, which its texts name ("use gifRef instead")
without naming another tool. Shared by the injection frames (`ctx.params`, the parameter texts
and defaults), the cross-tool routes (TW-INJ-020's known names) and the schema-shape reading of
TW-CAP-015."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolwitness import paths

_MAX_NAMES = 256
_MAX_PROPERTIES = 2000
_MAX_PROPERTY_DEPTH = 16
_MAX_DEPTH = 8
_MAX_BRANCHES = 64  # members of one anyOf/oneOf/allOf, entries of one $defs
# (a tuple: a fixed order, since the walk stops at _MAX_NAMES)
_SUBSCHEMAS = ("items", "additionalProperties", "anyOf", "oneOf", "allOf", "$defs",
               "definitions")  # fmt: skip
_NESTING = frozenset(_SUBSCHEMAS)


def property_names(schema: object) -> frozenset[str]:
    """The names as written, bounded in depth, breadth and count. A property that nests
    nothing (`{"type": "string", "description": …}`, most of them) is not walked into."""
    out: set[str] = set()
    stack: list[tuple[object, int]] = [(schema, 0)]
    while stack and len(out) < _MAX_NAMES:
        node, depth = stack.pop()
        if not isinstance(node, dict) or depth > _MAX_DEPTH:
            continue
        props = node.get("properties")
        if isinstance(props, dict):
            for key, sub in props.items():
                out.add(str(key))
                if isinstance(sub, dict) and ("properties" in sub or not sub.keys().isdisjoint(
                        _NESTING)):  # fmt: skip
                    stack.append((sub, depth + 1))
        if node.keys().isdisjoint(_NESTING):
            continue
        for keyword in _SUBSCHEMAS:
            sub = node.get(keyword)
            if isinstance(sub, dict):
                kids = list(sub.values()) if keyword in ("$defs", "definitions") else [sub]
            elif isinstance(sub, list):
                kids = sub
            else:
                continue
            stack.extend((child, depth + 1) for child in kids[:_MAX_BRANCHES])
    return frozenset(sorted(out)[:_MAX_NAMES])


def schema_properties(schema: Any) -> Iterator[tuple[str, dict[str, Any], tuple[str, ...]]]:
    """Every named property whose body is an object, nested objects and arrays included:
    (name, body, path of keys to the body). Bounded in count and depth; the walk carries each
    node's path as a tuple of keys, so a location is built only for what a caller keeps."""
    stack: list[tuple[Any, tuple[str, ...], int]] = [(schema, (), 0)]
    count = 0
    while stack and count < _MAX_PROPERTIES:
        node, parts, depth = stack.pop()
        if not isinstance(node, dict) or depth > _MAX_PROPERTY_DEPTH:
            continue
        props = node.get("properties")
        if isinstance(props, dict):
            for name, body in props.items():
                count += 1
                if isinstance(body, dict):
                    at = (*parts, "properties", name)
                    yield name, body, at
                    stack.append((body, at, depth + 1))
        items = node.get("items")
        if isinstance(items, dict):
            stack.append((items, (*parts, "items"), depth + 1))


def properties_at(schema: Any, base: str) -> Iterator[tuple[str, dict[str, Any], str]]:
    """`schema_properties` with each body's JSON path under `base`
    (`tools[3].inputSchema.properties.mode`)."""
    for name, body, parts in schema_properties(schema):
        where = base
        for key in parts:
            where = paths.child(where, key)
        yield name, body, where

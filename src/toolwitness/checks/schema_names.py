"""Every property name of a JSON Schema, nested ones included: the tool's own arguments, which
its texts name ("use gifRef instead") without naming another tool. Shared by the injection
frames (`ctx.params`) and the cross-tool routes (TW-INJ-020's known names)."""

from __future__ import annotations

_MAX_NAMES = 256
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

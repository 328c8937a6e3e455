"""JSON-path strings for locations in findings and errors (`tools[3].inputSchema.properties.x`)."""

from __future__ import annotations

from collections.abc import Iterable


def child(location: str, key: str) -> str:
    """The location of `key` inside the object at `location` ("" is the root)."""
    if key.isidentifier() and key.isascii():
        return f"{location}.{key}" if location else key
    quoted = key.replace("\\", "\\\\").replace('"', '\\"')
    return f'{location}["{quoted}"]'


def item(location: str, index: int) -> str:
    return f"{location}[{index}]"


def join(parts: Iterable[str | int]) -> str:
    location = ""
    for part in parts:
        location = item(location, part) if isinstance(part, int) else child(location, part)
    return location or "$"

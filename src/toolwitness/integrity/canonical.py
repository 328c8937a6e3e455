"""Canonical digests: RFC 8785 (JCS) canonical JSON, then SHA-256.

Per tool, one digest per field that steers the model or decides the tool's tier; the tool digest is
the digest of the canonical object {field: field digest}; the server digest is the digest of the
sorted [name, tool digest] pairs. None depends on key order, whitespace or the input shape.
An absent field and an explicit null digest the same: neither reaches the model.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import rfc8785

from toolwitness.model import ServerSurface, Tool

HASHED_FIELDS = ("name", "title", "description", "inputSchema", "outputSchema", "annotations")


def canonical_bytes(value: Any) -> bytes:
    return rfc8785.dumps(value)


def digest(value: Any) -> str:
    return "sha256:" + hashlib.sha256(canonical_bytes(value)).hexdigest()


@dataclass(frozen=True)
class ToolDigest:
    name: str
    digest: str
    fields: dict[str, str]


def tool_field_values(tool: Tool) -> dict[str, Any]:
    return {
        "name": tool.name,
        "title": tool.title,
        "description": tool.description,
        "inputSchema": tool.input_schema,
        "outputSchema": tool.output_schema,
        "annotations": tool.annotations,
    }


def tool_digest(tool: Tool) -> ToolDigest:
    fields = {name: digest(value) for name, value in tool_field_values(tool).items()}
    return ToolDigest(name=tool.name, digest=digest(fields), fields=fields)


def surface_digest(tool_digests: list[ToolDigest]) -> str:
    return digest(sorted([t.name, t.digest] for t in tool_digests))


@dataclass(frozen=True)
class SurfaceDigests:
    surface: str
    tools: tuple[ToolDigest, ...]

    def of(self, name: str) -> ToolDigest | None:
        for t in self.tools:
            if t.name == name:
                return t
        return None


def digest_surface(surface: ServerSurface) -> SurfaceDigests:
    tools = tuple(tool_digest(t) for t in surface.tools)
    return SurfaceDigests(surface=surface_digest(list(tools)), tools=tools)

"""Every accepted input shape loads to the same surface and the same digests."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolwitness.acquire.catalog import (
    load_catalog_file,
    load_catalog_targets,
    surface_from_document,
    surface_to_snapshot,
)
from toolwitness.errors import InputError
from toolwitness.integrity.canonical import digest_surface

TOOLS: list[dict[str, Any]] = [
    {
        "name": "read_file",
        "title": "Read file",
        "description": "Read a file.",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
        "annotations": {"readOnlyHint": True},
    },
    {
        "name": "write_file",
        "description": "Write a file.",
        "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
        "outputSchema": {"type": "object"},
        "annotations": {"destructiveHint": True, "readOnlyHint": False},
    },
]


def _snake(tool: dict[str, Any]) -> dict[str, Any]:
    out = dict(tool)
    out["input_schema"] = out.pop("inputSchema")
    if "outputSchema" in out:
        out["output_schema"] = out.pop("outputSchema")
    ann = dict(out["annotations"])
    if "readOnlyHint" in ann:
        ann["read_only_hint"] = ann.pop("readOnlyHint")
    if "destructiveHint" in ann:
        ann["destructive_hint"] = ann.pop("destructiveHint")
    out["annotations"] = ann
    return out


SHAPES: dict[str, Any] = {
    "array": TOOLS,
    "container": {"tools": TOOLS},
    "jsonrpc": {"jsonrpc": "2.0", "id": 1, "result": {"tools": TOOLS}},
    "paged": [
        {"jsonrpc": "2.0", "id": 1, "result": {"tools": TOOLS[:1], "nextCursor": "c1"}},
        {"jsonrpc": "2.0", "id": 2, "result": {"tools": TOOLS[1:]}},
    ],
    "paged-results": [{"tools": TOOLS[:1], "nextCursor": "x"}, {"tools": TOOLS[1:]}],
    "snake": {"tools": [_snake(t) for t in TOOLS]},
    "snapshot": {
        "schema": "toolwitness.surface/1",
        "id": "s",
        "tools": TOOLS,
        "coverage": ["manifest"],
    },
}


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_every_shape_loads_to_same_tools_and_digests(shape: str) -> None:
    reference = surface_from_document({"tools": TOOLS}, server_id="s", source="ref")
    surface = surface_from_document(SHAPES[shape], server_id="s", source=shape)
    assert surface.tools == reference.tools
    assert digest_surface(surface) == digest_surface(reference)


def test_single_tool_object() -> None:
    surface = surface_from_document(TOOLS[0], server_id="s", source="one")
    assert [t.name for t in surface.tools] == ["read_file"]
    assert surface.tools[0].hint("readOnlyHint") is True


def test_snapshot_round_trip_keeps_everything() -> None:
    doc = {
        "schema": "toolwitness.surface/1",
        "id": "srv",
        "serverInfo": {"name": "srv", "version": "1.0"},
        "protocolVersion": "2025-06-18",
        "capabilities": {"tools": {"listChanged": True}},
        "instructions": "Use carefully.",
        "coverage": ["live"],
        "tools": TOOLS,
        "prompts": [{"name": "p", "arguments": [{"name": "a", "required": True}]}],
        "resources": [{"uri": "file:///x", "name": "x", "mimeType": "text/plain"}],
        "resourceTemplates": [{"uriTemplate": "file:///{p}", "name": "t"}],
        "transport": {"kind": "stdio", "command": "node", "args": ["s.js"]},
        "package": {"ecosystem": "npm", "name": "x", "version": "1.0.0"},
    }
    surface = surface_from_document(doc, server_id="ignored", source="snap")
    assert surface.id == "srv"
    again = surface_from_document(surface_to_snapshot(surface), server_id="x", source="snap2")
    assert again.model_dump(exclude={"source"}) == surface.model_dump(exclude={"source"})


def test_unfinished_page_chain_is_noted() -> None:
    doc = {"jsonrpc": "2.0", "id": 1, "result": {"tools": TOOLS, "nextCursor": "more"}}
    surface = surface_from_document(doc, server_id="s", source="x")
    assert any("nextCursor" in n for n in surface.notes)


BAD: list[tuple[str, Any, str]] = [
    ("conflict", {"tools": [{**TOOLS[0], "input_schema": {"type": "string"}}]}, "different values"),
    ("dup-name", {"tools": [TOOLS[0], TOOLS[0]]}, "duplicate tool name"),
    ("name-not-string", {"tools": [{"name": 5, "inputSchema": {}}]}, "non-empty string"),
    ("hint-not-bool", {"tools": [{**TOOLS[0], "annotations": {"readOnlyHint": "yes"}}]}, "boolean"),
    (
        "rpc-error",
        {"jsonrpc": "2.0", "id": 1, "error": {"code": 1, "message": "x"}},
        "JSON-RPC error",
    ),
    ("scalar", 42, "not a tools catalog"),
    ("unknown-object", {"hello": 1}, "not a tools catalog"),
    ("desc-not-string", {"tools": [{**TOOLS[0], "description": ["x"]}]}, "must be a string"),
]


@pytest.mark.parametrize(("label", "doc", "message"), BAD, ids=[b[0] for b in BAD])
def test_bad_catalogs_are_rejected_with_path(label: str, doc: Any, message: str) -> None:
    with pytest.raises(InputError) as info:
        surface_from_document(doc, server_id="s", source="bad.json")
    assert message in str(info.value)
    assert "bad.json" in str(info.value)


def test_error_names_json_path() -> None:
    doc = {"tools": [TOOLS[0], {"name": "x", "inputSchema": {}, "description": 5}]}
    with pytest.raises(InputError) as info:
        surface_from_document(doc, server_id="s", source="f.json")
    assert "tools[1].description" in str(info.value)


@pytest.mark.parametrize(
    ("tool", "kind"),
    [
        ({"name": "x", "description": "No schema."}, "absent"),
        ({"name": "x", "inputSchema": []}, "not-object"),
        ({"name": "x", "inputSchema": "nope"}, "not-object"),
        ({"name": "x", "inputSchema": None}, "not-object"),
    ],
)
def test_tools_without_an_object_schema_load_and_keep_the_wire(tool: Any, kind: str) -> None:
    """Real servers ship such tools (#13 §6): they load, are analysed as taking no parameters,
    and the wire value survives a snapshot round trip and the digest."""
    from toolwitness.integrity.canonical import tool_digest

    surface = surface_from_document({"tools": [tool]}, server_id="s", source="x.json")
    loaded = surface.tools[0]
    assert loaded.input_schema == {}
    assert loaded.input_schema_fault is not None and loaded.input_schema_fault.kind == kind
    assert loaded.wire() == tool
    again = surface_from_document(surface_to_snapshot(surface), server_id="s", source="y")
    assert again.tools[0] == loaded
    expected = "null" if kind == "absent" else json.dumps(tool["inputSchema"])
    from toolwitness.integrity.canonical import digest

    assert tool_digest(loaded).fields["inputSchema"] == digest(json.loads(expected))


def test_too_many_tools(tmp_path: Path) -> None:
    from toolwitness.acquire.limits import InputLimits

    doc = {"tools": [{"name": f"t{i}", "inputSchema": {}} for i in range(11)]}
    path = tmp_path / "many.json"
    path.write_text(json.dumps(doc))
    with pytest.raises(InputError, match="over the limit of 10"):
        load_catalog_file(path, limits=InputLimits(max_tools=10))


def test_directory_is_one_server_per_file(tmp_path: Path) -> None:
    (tmp_path / "a.json").write_text(json.dumps(TOOLS))
    (tmp_path / "b.json").write_text(json.dumps({"tools": TOOLS[:1]}))
    (tmp_path / "notes.txt").write_text("ignored")
    surfaces = load_catalog_targets([tmp_path])
    assert [s.id for s in surfaces] == ["a", "b"]


def test_same_stem_in_two_places_gets_distinct_ids(tmp_path: Path) -> None:
    for sub in ("x", "y"):
        (tmp_path / sub).mkdir()
        (tmp_path / sub / "tools.json").write_text(json.dumps(TOOLS))
    surfaces = load_catalog_targets([tmp_path / "x", tmp_path / "y"])
    assert len({s.id for s in surfaces}) == 2


def test_empty_directory_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"no \.json"):
        load_catalog_targets([tmp_path])
    with pytest.raises(InputError, match="no such file"):
        load_catalog_targets([tmp_path / "missing.json"])

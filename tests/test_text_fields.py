"""The text fields a check walks: every string in a tool, with its JSON path, in a fixed order."""

from __future__ import annotations

from toolwitness.model import Tool, tool_text_fields


def test_every_string_with_its_path_in_order() -> None:
    tool = Tool(
        name="t",
        title="T",
        description="D",
        inputSchema={
            "type": "object",
            "properties": {
                "a b": {"type": "string", "enum": ["x", "y"]},
                "c": {"type": "array", "items": [{"title": "I"}], "default": "z"},
            },
            "$defs": {"k": {"description": "K"}},
        },
        outputSchema={"title": "O"},
        annotations={"title": "A"},
    )
    got = [(f.location, f.text, f.kind) for f in tool_text_fields(tool, 2)]
    base = "tools[2].inputSchema"
    assert got == [
        ("tools[2].name", "t", "name"),
        ("tools[2].title", "T", "title"),
        ("tools[2].description", "D", "description"),
        ("tools[2].annotations.title", "A", "title"),
        (f'{base}["$defs"].k', "k", "schema-key"),
        (f'{base}["$defs"].k.description', "K", "schema-text"),
        (f'{base}.properties["a b"]', "a b", "schema-key"),
        (f"{base}.properties.c", "c", "schema-key"),
        (f"{base}.properties.c.default", "z", "schema-text"),
        (f"{base}.properties.c.items[0].title", "I", "schema-text"),
        (f"{base}.properties.c.type", "array", "schema-text"),
        (f'{base}.properties["a b"].enum[1]', "y", "schema-text"),
        (f'{base}.properties["a b"].enum[0]', "x", "schema-text"),
        (f'{base}.properties["a b"].type', "string", "schema-text"),
        (f"{base}.type", "object", "schema-text"),
        ("tools[2].outputSchema.title", "O", "schema-text"),
    ]


def test_every_field_a_model_can_see_is_read() -> None:
    """#13 §1: custom annotation keys, `_meta` at any depth, icons, `execution` and vendor
    top-level fields, keys outside the JSON Schema vocabulary, `$comment`, `examples`, a
    non-object inputSchema: each string with its exact JSON path."""
    from toolwitness.model import SchemaFault

    tool = Tool(
        name="t",
        inputSchema={
            "type": "object",
            "$comment": "C",
            "x-note": "V",
            "properties": {"p": {"examples": ["E"], "anyOf": [{"const": "K"}]}},
        },
        annotations={"readOnlyHint": True, "vendor note": "N"},
        _meta={"com.example/a": {"deep": ["M"]}},
        icons=[{"src": "data:image/svg+xml,I", "mimeType": "image/svg+xml"}],
        extra={"execution": {"taskSupport": "optional", "hint": "X"}},
    )
    got = {(f.location, f.text, f.kind) for f in tool_text_fields(tool, 0)}
    base = "tools[0]"
    for row in [
        (f'{base}.annotations["vendor note"]', "vendor note", "key-text"),
        (f'{base}.annotations["vendor note"]', "N", "annotation"),
        (f'{base}._meta["com.example/a"]', "com.example/a", "key"),
        (f'{base}._meta["com.example/a"].deep[0]', "M", "meta"),
        (f"{base}.icons[0].src", "data:image/svg+xml,I", "icon"),
        (f"{base}.icons[0].mimeType", "image/svg+xml", "icon"),
        (f"{base}.execution", "execution", "key"),
        (f"{base}.execution.taskSupport", "optional", "extra"),
        (f"{base}.execution.hint", "hint", "key"),
        (f"{base}.execution.hint", "X", "extra"),
        (f'{base}.inputSchema["$comment"]', "C", "schema-text"),
        (f'{base}.inputSchema["x-note"]', "x-note", "key"),
        (f'{base}.inputSchema["x-note"]', "V", "schema-text"),
        (f"{base}.inputSchema.properties.p.examples[0]", "E", "schema-text"),
        (f"{base}.inputSchema.properties.p.anyOf[0].const", "K", "schema-text"),
    ]:
        assert row in got, row
    assert not any(f.text in ("readOnlyHint", "$comment", "examples", "anyOf") for f in
                   tool_text_fields(tool, 0))  # fmt: skip
    odd = Tool(
        name="u",
        inputSchema={},
        input_schema_fault=SchemaFault(kind="not-object", value=["S"]),
    )
    assert ("tools[1].inputSchema[0]", "S", "schema-text") in {
        (f.location, f.text, f.kind) for f in tool_text_fields(odd, 1)
    }


def test_surface_fields_read_prompts_resources_and_their_extras() -> None:
    from toolwitness.acquire.catalog import surface_from_document
    from toolwitness.model import surface_text_fields

    doc = {
        "tools": [],
        "instructions": "I",
        "prompts": [
            {"name": "p", "arguments": [{"name": "a", "title": "AT", "_meta": {"k": "AM"}}]}
        ],
        "resources": [{"uri": "file:///r", "name": "r", "_meta": {"note": "RM"}}],
        "resourceTemplates": [{"uriTemplate": "db://{id}", "name": "t", "icons": [{"src": "TI"}]}],
    }
    surface = surface_from_document(doc, server_id="s", source="x")
    got = {(f.location, f.text) for f in surface_text_fields(surface)}
    for row in [
        ("instructions", "I"),
        ("prompts[0].arguments[0].title", "AT"),
        ("prompts[0].arguments[0]._meta.k", "AM"),
        ("resources[0].uri", "file:///r"),
        ("resources[0]._meta.note", "RM"),
        ("resourceTemplates[0].uriTemplate", "db://{id}"),
        ("resourceTemplates[0].icons[0].src", "TI"),
    ]:
        assert row in got, row

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

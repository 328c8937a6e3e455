"""`checks.schema_names.property_names`: every property name, nested ones included, bounded."""

from __future__ import annotations

from toolwitness.checks.schema_names import property_names


def test_nested_names_are_found() -> None:
    schema = {"type": "object", "properties": {
        "nodes": {"type": "array", "items": {"type": "object", "properties": {
            "imageRef": {"type": "string"}, "gifRef": {"type": "string"}}}},
        "mode": {"anyOf": [{"type": "object", "properties": {"fast": {"type": "boolean"}}}]},
        "city": {"type": "string", "description": "A city"}},
        "$defs": {"Point": {"type": "object", "properties": {"lat": {"type": "number"}}}}}  # fmt: skip
    assert property_names(schema) == {"nodes", "imageRef", "gifRef", "mode", "fast", "city", "lat"}


def test_bounded_in_count_and_depth() -> None:
    wide = {"properties": {f"p{i}": {"type": "string"} for i in range(1000)}}
    assert len(property_names(wide)) == 256
    deep: dict[str, object] = {"type": "string"}
    for i in range(40):
        deep = {"properties": {f"level{i}": deep}}
    assert len(property_names(deep)) <= 10


def test_not_a_schema_gives_nothing() -> None:
    assert property_names(None) == frozenset()
    assert property_names(["properties"]) == frozenset()
    assert property_names({"properties": "x"}) == frozenset()

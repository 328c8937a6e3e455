"""Properties named like keywords under `items` are properties, not keywords.

`items` before draft 2020-12 takes a schema or an array of schemas; the walk read a dict value
both as one schema and as an object of schemas, so `items.properties.description: {...}` was
checked as the keyword `description` ("{'type': 'string'} is not of type 'string'") on valid
schemas of real servers. Each case is held equal to jsonschema's own `check_schema`."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from jsonschema.validators import validator_for

from toolwitness.checks.capability.schema_validity import validate_schema

_KEYWORD_NAMES = ("description", "title", "type", "default", "enum", "items", "required")


def _props() -> dict[str, Any]:
    return {name: {"type": "string", "description": f"the {name}"} for name in _KEYWORD_NAMES}


CASES = [
    {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
     "properties": {"options": {"type": "array", "items": {"type": "object",
                                                            "properties": _props()}}}},
    {"type": "object", "properties": {"rows": {"type": "array",
                                               "items": [{"type": "object",
                                                          "properties": _props()}]}}},
    {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
     "properties": {"rows": {"type": "array", "items": {"properties": _props()}}}},
    # and a truly broken one under items stays broken
    {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
     "properties": {"rows": {"type": "array", "items": {"type": "object",
                                                        "properties": {"x": {"type": 5}}}}}},
]  # fmt: skip


@pytest.mark.parametrize("schema", CASES)
def test_verdict_equals_jsonschema(schema: dict[str, Any]) -> None:
    cls = validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        cls.check_schema(schema)
        valid = True
    except jsonschema.SchemaError:
        valid = False
    assert (not validate_schema(schema, "tools[0].inputSchema").problems) == valid

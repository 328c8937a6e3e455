"""Tool schemas against the official metaschemas: equal to `check_schema`, linear, never a crash."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolwitness.checks.capability import schema_validity
from toolwitness.checks.capability.metaschema import dialects, official_validator
from toolwitness.checks.capability.schema_validity import validate_schema

_DIALECTS = sorted(dialects())
_KEYWORDS = sorted({k for d in dialects().values() for k in d.keywords} - {"$schema"})

_scalars = st.one_of(
    st.integers(-5, 5),
    st.floats(-3, 3, allow_nan=False),
    st.booleans(),
    st.none(),
    st.sampled_from(["string", "object", "invalid-type", "integer", "", "^a+$", "(", "#x", "a b"]),
)


def _schemas(depth: int = 3) -> st.SearchStrategy[Any]:
    leaf = st.one_of(_scalars, st.lists(_scalars, max_size=3))
    return st.recursive(
        st.one_of(st.booleans(), st.dictionaries(st.sampled_from(_KEYWORDS), leaf, max_size=4)),
        lambda inner: st.one_of(
            st.dictionaries(st.sampled_from(_KEYWORDS), st.one_of(leaf, inner), max_size=4),
            st.lists(inner, max_size=3),
            st.dictionaries(st.sampled_from(["a", "b", "type"]), inner, max_size=3),
        ),
        max_leaves=12,
    )


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_DIALECTS), _schemas())
def test_equal_to_check_schema(uri: str, body: Any) -> None:
    schema = {"$schema": uri, **body} if isinstance(body, dict) else body
    official = official_validator(uri)
    assert official is not None
    expected = official.is_valid(schema)
    if not isinstance(schema, dict):  # a bare boolean or list: validated under the default
        return
    report = validate_schema(schema, "s")
    assert (not report.problems) == expected, (schema, report.problems)


@pytest.mark.parametrize(
    ("schema", "where"),
    [
        ({"type": "invalid-type"}, "s.type"),
        ({"type": "object", "maxProperties": -1}, "s.maxProperties"),
        ({"type": "array", "maxItems": -4}, "s.maxItems"),
        ({"type": "object", "properties": {"a": {"type": "strin"}}}, "s.properties.a.type"),
        ({"properties": {"a": {"items": {"minLength": "3"}}}}, "s.properties.a.items.minLength"),
        ({"required": ["a", "a"]}, "s.required"),
        ({"properties": {"a": 5}}, "s.properties.a"),
        ({"pattern": "("}, "s.pattern"),
        ({"anyOf": []}, "s.anyOf"),
    ],
)
def test_invalid_schemas_are_found_where_they_break(schema: dict[str, Any], where: str) -> None:
    report = validate_schema(schema, "s")
    assert [p.location for p in report.problems] == [where]


def test_valid_schemas_in_every_draft() -> None:
    for uri in _DIALECTS:
        ok = {"$schema": uri, "type": "object", "properties": {"a": {"type": "string"}}}
        assert validate_schema(ok, "s").problems == ()
    assert validate_schema({"type": "object", "additionalProperties": False}, "s").problems == ()
    draft4 = "http://json-schema.org/draft-04/schema#"
    assert validate_schema({"$schema": draft4, "additionalProperties": False}, "s").problems == ()
    assert validate_schema({"$schema": draft4, "not": True}, "s").problems  # no boolean schemas


def test_an_unknown_dialect_is_reported_not_validated() -> None:
    report = validate_schema({"$schema": "https://example.com/my-dialect", "type": 5}, "s")
    assert report.dialect is None and report.problems == ()


def _wide(n: int) -> dict[str, Any]:
    props = {
        f"p{i}": {"type": "string", "description": f"field {i}", "maxLength": i} for i in range(n)
    }
    return {"type": "object", "properties": props, "required": [f"p{i}" for i in range(n)]}


def test_work_is_linear_in_the_nodes() -> None:
    schema_validity._ANSWERS.clear()
    schema_validity._WALKED.clear()
    small, large = validate_schema(_wide(500), "s"), validate_schema(_wide(1000), "s")
    assert (small.nodes, large.nodes) == (501, 1001)
    # a miss per distinct maxLength value, the rest answered from the cache
    assert large.checks <= 2 * small.checks + 10
    schema_validity._ANSWERS.clear()
    schema_validity._WALKED.clear()
    again = validate_schema(_wide(1000), "s")
    assert again.checks <= 1010


def test_node_bound_truncates_instead_of_running_on() -> None:
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(schema_validity.MAX_NODES + 5):
        deep = {"not": deep}
    report = validate_schema(deep, "s")
    assert report.truncated and report.nodes == schema_validity.MAX_NODES


def _scan(tools: list[dict[str, Any]]) -> list[Any]:
    from toolwitness.acquire.catalog import surface_from_document
    from toolwitness.pipeline import ScanOptions, scan_surfaces

    surface = surface_from_document({"tools": tools}, server_id="srv", source="test")
    result = scan_surfaces([surface], ScanOptions())
    assert not result.servers[0].incomplete
    return [f for f in result.servers[0].findings if f.rule_id == "TW-CAP-016"]


def test_invalid_input_and_output_schemas_are_medium_findings_with_their_paths() -> None:
    found = _scan([
        {"name": "a", "description": "d", "inputSchema": {"type": "invalid-type"}},
        {"name": "b", "description": "d", "inputSchema": {"type": "object", "maxProperties": -1},
         "outputSchema": {"type": "object", "properties": {"n": {"type": "array", "maxItems": -4}}}},
        {"name": "ok", "description": "d", "inputSchema": {"type": "object"}},
    ])  # fmt: skip
    got = {(f.tool, f.location, f.severity.value) for f in found}
    assert got == {
        ("a", "tools[0].inputSchema.type", "medium"),
        ("b", "tools[1].inputSchema.maxProperties", "medium"),
        ("b", "tools[1].outputSchema.properties.n.maxItems", "medium"),
    }
    assert all(f.witnesses and f.witnesses[0].path == (f.location,) for f in found)


def test_unknown_dialect_is_a_low_finding_not_silence() -> None:
    (f,) = _scan([{"name": "a", "description": "d",
                   "inputSchema": {"$schema": "https://example.com/x", "type": "object"}}])  # fmt: skip
    assert f.severity.value == "low" and f.location == "tools[0].inputSchema.$schema"


def test_real_reference_servers_have_valid_schemas() -> None:
    import json
    from pathlib import Path

    for path in sorted((Path(__file__).parent / "fixtures" / "real").glob("*.json")):
        tools = json.loads(path.read_text("utf-8"))["tools"]
        assert _scan(tools) == [], path.name


def test_a_cached_verdict_never_moves_the_error_to_another_member() -> None:
    # two schemas whose "properties" hold members of the same kinds and count share a cached
    # verdict; the failing member is each schema's own (this once reported
    # s.properties.properties for the second, after a property test generated the first)
    assert [p.location for p in validate_schema({"properties": {"properties": 7}}, "s").problems] == [
        "s.properties.properties"
    ]
    assert [p.location for p in validate_schema({"properties": {"a": 5}}, "s").problems] == [
        "s.properties.a"
    ]
    mixed = {"properties": {"b": {}, "a": 5}}
    assert [p.location for p in validate_schema(mixed, "s").problems] == ["s.properties.a"]
    swapped = {"properties": {"a": {}, "b": 5}}
    assert [p.location for p in validate_schema(swapped, "s").problems] == ["s.properties.b"]

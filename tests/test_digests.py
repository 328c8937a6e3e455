"""Digests: independent of key order, whitespace and input shape; sensitive to every hashed field."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from toolwitness.acquire.catalog import surface_from_document
from toolwitness.acquire.hostile_json import parse_json_text
from toolwitness.acquire.limits import InputLimits
from toolwitness.integrity.canonical import HASHED_FIELDS, digest, digest_surface

BASE = {
    "name": "t",
    "title": "T",
    "description": "Does t.",
    "inputSchema": {
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "number"}},
    },
    "outputSchema": {"type": "object"},
    "annotations": {"readOnlyHint": True},
}


def _shuffle(value: Any, rng: random.Random) -> Any:
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {k: _shuffle(v, rng) for k, v in items}
    if isinstance(value, list):
        return [_shuffle(v, rng) for v in value]
    return value


def _surface_digest(text: str) -> str:
    doc = parse_json_text(text, "x", InputLimits())
    return digest_surface(surface_from_document(doc, server_id="s", source="x")).surface


json_leaf = st.none() | st.booleans() | st.integers(-(2**53) + 1, 2**53 - 1) | st.text(max_size=12)
json_values = st.recursive(
    json_leaf,
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200)
@given(
    st.dictionaries(st.text(max_size=6), json_values, max_size=6),
    st.integers(0, 2**32),
    st.sampled_from([None, 1, 4, "\t"]),
)
def test_invariant_under_key_order_and_whitespace(
    schema: dict[str, Any], seed: int, indent: Any
) -> None:
    tool = dict(BASE, inputSchema=schema)
    doc = {"tools": [tool, dict(BASE, name="u")]}
    shuffled = _shuffle({"tools": list(reversed(doc["tools"]))}, random.Random(seed))
    assert _surface_digest(json.dumps(doc)) == _surface_digest(json.dumps(shuffled, indent=indent))


@settings(max_examples=100)
@given(st.sampled_from(HASHED_FIELDS), json_values)
def test_changes_when_any_hashed_field_changes(field: str, value: Any) -> None:
    original = surface_from_document({"tools": [BASE]}, server_id="s", source="x")
    changed_tool = dict(BASE)
    if field == "name":
        changed_tool["name"] = "t2"
    elif field in ("title", "description"):
        changed_tool[field] = str(BASE[field]) + "!"
    elif field == "annotations":
        changed_tool["annotations"] = {"readOnlyHint": False}
    else:
        changed_tool[field] = {"type": "object", "x": value}
    changed = surface_from_document({"tools": [changed_tool]}, server_id="s", source="x")
    before, after = digest_surface(original), digest_surface(changed)
    assert before.surface != after.surface
    assert before.tools[0].fields[field] != after.tools[0].fields[field]
    assert before.tools[0].digest != after.tools[0].digest
    others = [f for f in HASHED_FIELDS if f != field]
    assert all(before.tools[0].fields[f] == after.tools[0].fields[f] for f in others)


def test_absent_and_null_fields_digest_the_same() -> None:
    a = surface_from_document(
        {"tools": [{"name": "x", "inputSchema": {}}]}, server_id="s", source="x"
    )
    b = surface_from_document(
        {"tools": [{"name": "x", "inputSchema": {}, "title": None, "annotations": None}]},
        server_id="s",
        source="x",
    )
    assert digest_surface(a) == digest_surface(b)


def test_unicode_is_hashed_raw_not_normalised() -> None:
    composed = surface_from_document(
        {"tools": [dict(BASE, description="caf\u00e9")]}, server_id="s", source="x"
    )
    decomposed = surface_from_document(
        {"tools": [dict(BASE, description="cafe\u0301")]}, server_id="s", source="x"
    )
    assert digest_surface(composed).surface != digest_surface(decomposed).surface


def test_known_vector() -> None:
    # RFC 8785 orders keys by UTF-16 code units and prints numbers the ECMAScript way.
    assert digest({"b": 1.0, "a": [1e21, "\u20ac"]}) == digest({"a": [1e21, "€"], "b": 1})
    assert digest(None).startswith("sha256:")


any_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**53) + 1, 2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c, max_size=4),
    max_leaves=25,
)


@settings(max_examples=600)
@given(any_json)
def test_fast_path_is_byte_identical_to_rfc8785(value: Any) -> None:
    import rfc8785

    from toolwitness.integrity.canonical import canonical_bytes

    assert canonical_bytes(value) == rfc8785.dumps(value)


def test_fast_path_edge_cases() -> None:
    import rfc8785

    from toolwitness.integrity.canonical import canonical_bytes

    for value in (
        {"\ue000": 1, "\U0001f600": 2},
        {"a": 1.0, "b": -0.0, "c": 1e21, "d": 5e-7},
        {"s": "1.5e3 true", "n": 9007199254740991},
        {"ctl": '\x00\x1f\x7f\u2028"\\'},
        ["e", "E", ".", {"true": False}],
    ):
        assert canonical_bytes(value) == rfc8785.dumps(value)


@settings(max_examples=300)
@given(
    st.lists(
        st.tuples(
            st.text(min_size=1, max_size=8),
            st.one_of(st.none(), st.text(max_size=8)),
            st.one_of(st.none(), st.text(max_size=30)),
        ),
        max_size=6,
        unique_by=lambda t: t[0],
    )
)
def test_tool_and_surface_digests_equal_plain_rfc8785(tools: list[tuple[str, Any, Any]]) -> None:
    """The specialised per-field, per-tool and per-server encoders give exactly the digests of
    RFC 8785 applied to the documented objects (field values; {field: digest}; sorted pairs)."""
    import hashlib

    import rfc8785

    from toolwitness.model import ServerSurface, Tool

    def sha(value: Any) -> str:
        return "sha256:" + hashlib.sha256(rfc8785.dumps(value)).hexdigest()

    surface = ServerSurface(
        id="s",
        tools=tuple(
            Tool(name=n, title=t, description=d, inputSchema={"type": "object", "x": 1.5})
            for n, t, d in tools
        ),
    )
    got = digest_surface(surface)
    expected_pairs = []
    for tool, found in zip(surface.tools, got.tools, strict=True):
        values = {
            "name": tool.name,
            "title": tool.title,
            "description": tool.description,
            "inputSchema": tool.input_schema,
            "outputSchema": None,
            "annotations": None,
        }
        fields = {k: sha(v) for k, v in values.items()}
        assert found.fields == fields
        assert found.digest == sha(fields)
        expected_pairs.append([tool.name, found.digest])
    assert got.surface == sha(sorted(expected_pairs))


def test_digests_are_kept_per_surface_object() -> None:
    doc = parse_json_text(json.dumps({"tools": [BASE]}), "x", InputLimits())
    surface = surface_from_document(doc, server_id="s", source="x")
    assert digest_surface(surface) is digest_surface(surface)
    changed = surface.model_copy(
        update={"tools": (surface.tools[0].model_copy(update={"title": "U"}),)}
    )
    assert digest_surface(changed).surface != digest_surface(surface).surface

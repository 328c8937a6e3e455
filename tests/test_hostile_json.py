"""Hostile bytes and JSON: either a surface or a clean InputError, never a traceback."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolwitness.acquire.catalog import surface_from_document
from toolwitness.acquire.hostile_json import parse_json_bytes, parse_json_text
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import InputError

LIMITS = InputLimits()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"a": 1, "a": 2}', "duplicate key 'a'"),
        ('{"tools": [{"x": {"k": 1, "k": 1}}]}', "tools[0].x"),
        ('{"a": NaN}', "NaN"),
        ('{"a": Infinity}', "Infinity"),
        ('{"a": -Infinity}', "Infinity"),
        ('{"a": 1e400}', "overflows"),
        ('{"a": 9007199254740993}', "outside"),
        ('{"a": ' + "1" * 5000 + "}", "outside"),
        ('{"a": "\\ud800"}', "surrogate"),
        ("{", "not valid JSON"),
        ("", "not valid JSON"),
        ('{"a": 1} trailing', "not valid JSON"),
    ],
)
def test_rejections_name_the_problem(text: str, message: str) -> None:
    with pytest.raises(InputError) as info:
        parse_json_text(text, "in.json", LIMITS)
    assert message in str(info.value)
    assert "in.json" in str(info.value)


def test_depth_bound_names_path() -> None:
    text = '{"a": ' * 70 + "1" + "}" * 70
    with pytest.raises(InputError, match="nesting deeper than 64"):
        parse_json_text(text, "d.json", LIMITS)


def test_extreme_depth_does_not_crash() -> None:
    with pytest.raises(InputError, match="nesting deeper"):
        # Padded to four characters a node: under the node budget, so the depth bound is hit.
        parse_json_text("[   " * 200_000 + "]" * 200_000, "deep.json", LIMITS)


def test_long_string_rejected_not_truncated() -> None:
    text = json.dumps({"tools": [{"name": "x", "description": "a" * 100_001}]})
    with pytest.raises(InputError) as info:
        parse_json_text(text, "long.json", LIMITS)
    assert "tools[0].description" in str(info.value)
    assert "rejected, not truncated" in str(info.value)


def test_long_key_rejected() -> None:
    with pytest.raises(InputError, match="100000-character"):
        parse_json_text(json.dumps({"k" * 100_001: 1}), "k.json", LIMITS)


def test_size_bound_and_invalid_utf8() -> None:
    with pytest.raises(InputError, match="over the 10-byte limit"):
        parse_json_bytes(b'{"tools": []}', "s.json", InputLimits(max_file_bytes=10))
    with pytest.raises(InputError, match="not UTF-8"):
        parse_json_bytes(b'{"a": "\xff"}', "u.json", LIMITS)


def test_bom_is_accepted() -> None:
    assert parse_json_bytes(b'\xef\xbb\xbf{"a": 1}', "b.json", LIMITS) == {"a": 1}


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=2000))
def test_arbitrary_bytes_never_traceback(data: bytes) -> None:
    try:
        doc = parse_json_bytes(data, "fuzz.json", LIMITS)
        surface_from_document(doc, server_id="s", source="fuzz.json")
    except InputError:
        pass


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=10), children, max_size=5)
    ),
    max_leaves=40,
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_arbitrary_json_never_traceback(value: Any) -> None:
    for doc in (value, {"tools": value}, {"tools": [value]}, {"name": "x", "inputSchema": value}):
        try:
            surface_from_document(doc, server_id="s", source="fuzz.json")
        except InputError:
            pass


tool_dicts = st.fixed_dictionaries(
    {
        "name": st.text(min_size=1, max_size=20),
        "inputSchema": st.dictionaries(st.text(max_size=8), json_values, max_size=4),
    },
    optional={
        "description": st.one_of(st.none(), st.text(max_size=50), json_values),
        "annotations": st.one_of(
            st.none(),
            st.dictionaries(
                st.sampled_from(["readOnlyHint", "read_only_hint", "title", "x"]),
                json_values,
                max_size=3,
            ),
        ),
        "input_schema": json_values,
    },
)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(tool_dicts, max_size=6))
def test_tool_shaped_json_never_traceback(tools: list[dict[str, Any]]) -> None:
    try:
        surface_from_document({"tools": tools}, server_id="s", source="fuzz.json")
    except InputError:
        pass


def _nodes(value: Any) -> int:
    """Values plus object keys, counted on the parsed value."""
    if isinstance(value, dict):
        return 1 + sum(1 + _nodes(v) for v in value.values())
    if isinstance(value, list):
        return 1 + sum(_nodes(v) for v in value)
    return 1


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_node_count_is_exact_and_its_cheap_bound_an_upper_bound(value: Any) -> None:
    from toolwitness.acquire.hostile_json import count_nodes

    for text in (json.dumps(value), json.dumps(value, indent=1, ensure_ascii=False)):
        if "Infinity" in text:
            continue  # not JSON (refused by the parser), and no scalar of ours
        assert count_nodes(text) == _nodes(value)
        assert count_nodes(text, stop_after=10**9) >= _nodes(value)


def test_node_budget_refuses_tiny_containers_before_building_them() -> None:
    """#19: 9.7 MiB of `[]` built 3.4 million lists (535 MiB). The budget is counted on the
    text, so nothing is built; one node under the budget still parses."""
    from toolwitness.acquire.hostile_json import BYTES_PER_NODE, CHARS_PER_NODE, node_budget

    limits = InputLimits(max_file_bytes=64 * 1024)
    ceiling = node_budget(limits)
    assert ceiling == 64 * 1024 // BYTES_PER_NODE
    # `[ ]` padded to 4 characters a node: the document's own budget equals the ceiling here.
    ok = "[" + ",".join(["[ ]"] * (ceiling - 1)) + "]" + " " * 16
    assert node_budget(limits, len(ok)) == ceiling
    assert len(parse_json_text(ok, "ok.json", limits)) == ceiling - 1
    over = "[" + ",".join(["[ ]"] * ceiling) + "]"
    with pytest.raises(InputError) as info:
        parse_json_text(over, "over.json", limits)
    assert f"more JSON values and keys than the node budget of {ceiling}" in str(info.value)
    big = b"[" + b",".join([b"[]"] * (LIMITS.max_file_bytes // 3 - 1)) + b"]"
    assert len(big) <= LIMITS.max_file_bytes
    with pytest.raises(InputError, match="node budget"):
        parse_json_bytes(big, "brackets.json", LIMITS)
    assert node_budget(LIMITS, len(big)) == node_budget(LIMITS)  # the ceiling is the lower
    assert node_budget(limits, 20_000) == 20_000 // CHARS_PER_NODE  # the document's is


def test_node_budget_follows_the_document_not_only_the_bound() -> None:
    """Under a 64 MiB bound (report, trust) the ceiling is 8 million nodes; 9.7 MiB of `[]` is
    still refused, by its own size: what a document builds is bounded by the document."""
    from toolwitness.acquire.hostile_json import MIN_NODE_BUDGET, count_nodes, node_budget

    wide = InputLimits(max_file_bytes=64 * 1024 * 1024)
    text = "[" + ",".join(["[]"] * 3_390_000) + "]"
    assert count_nodes(text) > node_budget(wide, len(text))
    with pytest.raises(InputError, match="node budget"):
        parse_json_text(text, "brackets.json", wide)
    small = "[" + ",".join(["0"] * (MIN_NODE_BUDGET - 1)) + "]"  # dense, but under the floor
    assert len(parse_json_text(small, "small.json", wide)) == MIN_NODE_BUDGET - 1


def test_commas_inside_strings_do_not_count_as_nodes() -> None:
    limits = InputLimits(max_file_bytes=8 * 1024)
    text = json.dumps({"tools": [{"name": "x", "description": "," * 6000}]})
    assert parse_json_text(text, "s.json", limits)["tools"][0]["name"] == "x"


def test_node_budget_exits_2_from_the_cli(tmp_path: Any) -> None:
    from toolwitness.cli import main

    path = tmp_path / "brackets.json"
    path.write_bytes(b"[" + b",".join([b"[]"] * 2_000_000) + b"]")
    assert main(["scan", str(path)]) == 2

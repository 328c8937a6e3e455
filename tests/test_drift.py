"""Drift: hint moves classified, tools compared field by field, states decided; digests of a
pinned surface invariant under key order and whitespace, and sensitive to every hashed field."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwitness.acquire.catalog import surface_from_document
from toolwitness.integrity.canonical import HASHED_FIELDS
from toolwitness.integrity.drift import NARROWING, NEUTRAL, WIDENING, classify_hint, compare
from toolwitness.integrity.lock import entry_for
from toolwitness.integrity.policy import PinPolicy
from toolwitness.model import PackageRef, ServerSurface, Tool, Transport


@pytest.mark.parametrize(
    ("hint", "before", "after", "kind"),
    [
        ("readOnlyHint", None, True, WIDENING),
        ("readOnlyHint", False, True, WIDENING),
        ("readOnlyHint", True, False, NARROWING),
        ("readOnlyHint", True, None, NARROWING),
        ("readOnlyHint", None, False, NEUTRAL),
        ("readOnlyHint", False, None, NEUTRAL),
        ("destructiveHint", True, False, WIDENING),
        ("destructiveHint", True, None, WIDENING),  # explicit true dropped
        ("destructiveHint", None, False, WIDENING),  # spec default is true
        ("destructiveHint", False, True, NARROWING),
        ("destructiveHint", False, None, NARROWING),
        ("destructiveHint", None, True, NEUTRAL),
        ("openWorldHint", True, False, WIDENING),
        ("openWorldHint", None, False, WIDENING),
        ("openWorldHint", True, None, WIDENING),
        ("openWorldHint", False, True, NARROWING),
        ("idempotentHint", None, True, NEUTRAL),
        ("idempotentHint", True, False, NEUTRAL),
        ("readOnlyHint", True, True, None),
        ("destructiveHint", None, None, None),
    ],
)
def test_hint_moves(hint: str, before: bool | None, after: bool | None, kind: str | None) -> None:
    assert classify_hint(hint, before, after) == kind


def _tool(name: str = "t", **fields: Any) -> Tool:
    return Tool(name=name, inputSchema=fields.pop("inputSchema", {"type": "object"}), **fields)


def _surface(*tools: Tool, **extra: Any) -> ServerSurface:
    return ServerSurface(id="srv", tools=tools, **extra)


def test_states() -> None:
    base = _surface(_tool("a", description="A."), _tool("b"))
    entry = entry_for(base)
    assert compare(None, base).state == "unpinned"
    assert compare(entry, base).state == "matched"
    changed = compare(entry, _surface(_tool("a", description="A!"), _tool("b")))
    assert changed.state == "changed"
    assert [(t.tool, t.change, t.fields) for t in changed.tools] == [
        ("a", "modified", ("description",))
    ]
    blocked = compare(
        entry,
        _surface(_tool("a", description="A."), _tool("b", annotations={"readOnlyHint": True})),
    )
    assert blocked.state == "blocked"
    assert blocked.blocked_tools() == {"b"}
    assert blocked.pin().changes[0].widening is True


def test_title_and_output_schema_changes_are_named() -> None:
    entry = entry_for(_surface(_tool("a")))
    drift = compare(entry, _surface(_tool("a", title="A", outputSchema={"type": "object"})))
    assert drift.tools[0].fields == ("title", "outputSchema")


def test_new_tools_on_a_pinned_server() -> None:
    entry = entry_for(_surface(_tool("a")))
    plain = compare(entry, _surface(_tool("a"), _tool("n")))
    assert plain.state == "changed" and plain.tools[0].change == "added"
    claims = _surface(_tool("a"), _tool("n", annotations={"readOnlyHint": True}))
    read_only = compare(entry, claims)  # the reviewed matrix: a change, reported
    assert read_only.state == "changed" and read_only.tools[0].added_read_only
    assert not read_only.tools[0].widening and read_only.blocked_tools() == set()
    strict = compare(entry, claims, PinPolicy.BLOCK_NEW_READ_ONLY)
    assert strict.state == "blocked" and strict.blocked_tools() == {"n"}
    assert strict.tools[0].blocked_by == ("policy",)
    plain_strict = compare(entry, _surface(_tool("a"), _tool("n")), PinPolicy.BLOCK_NEW_READ_ONLY)
    assert plain_strict.state == "changed"


def test_block_any_change_policy_blocks_every_difference() -> None:
    entry = entry_for(_surface(_tool("a"), _tool("b")))
    policy = PinPolicy.BLOCK_ANY_CHANGE
    assert compare(entry, _surface(_tool("a"), _tool("b")), policy).state == "matched"
    removed = compare(entry, _surface(_tool("a")), policy)
    assert removed.state == "blocked" and removed.tools[0].blocked_by == ("policy",)
    reworded = compare(entry, _surface(_tool("a", description="new"), _tool("b")), policy)
    assert reworded.state == "blocked" and reworded.blocked_tools() == {"a"}


def test_rechecks_block_only_tools_they_name() -> None:
    entry = entry_for(_surface(_tool("a"), _tool("b")))
    drift = compare(entry, _surface(_tool("a", description="x"), _tool("b", description="y")))
    assert drift.state == "changed"
    rechecked = drift.with_rechecks({"a": ("TW-INJ-001",), "b": ()})
    assert rechecked.state == "blocked" and rechecked.blocked_tools() == {"a"}
    assert rechecked.pin().changes[0].blocked_by == ("TW-INJ-001",)
    assert drift.with_rechecks({"a": (), "b": ()}) is drift


def test_removed_tool_is_changed_not_blocked() -> None:
    entry = entry_for(_surface(_tool("a", annotations={"readOnlyHint": True}), _tool("b")))
    drift = compare(entry, _surface(_tool("b")))
    assert drift.state == "changed"
    assert [(t.tool, t.change) for t in drift.tools] == [("a", "removed")]
    assert drift.blocked_tools() == set()


def test_mixed_narrowing_and_widening_is_blocked() -> None:
    entry = entry_for(
        _surface(_tool("a", annotations={"readOnlyHint": True, "destructiveHint": True}))
    )
    drift = compare(entry, _surface(_tool("a", annotations={"destructiveHint": False})))
    assert drift.state == "blocked"
    kinds = {s.hint: s.kind for s in drift.tools[0].shifts}
    assert kinds == {"readOnlyHint": NARROWING, "destructiveHint": WIDENING}


def test_server_level_changes() -> None:
    stdio = Transport(
        kind="stdio", command="npx", args=("-y", "pkg@1.0.0"), env={"TOKEN": "s3cret"}
    )
    pkg = PackageRef(ecosystem="npm", name="pkg", version="1.0.0")
    base = _surface(_tool("a"), transport=stdio, package=pkg, instructions="Be nice.")
    entry = entry_for(base)
    assert "s3cret" not in entry.model_dump_json()  # env values never reach the lock
    assert compare(entry, base).state == "matched"
    moved = _surface(
        _tool("a"),
        transport=stdio.model_copy(update={"args": ("-y", "pkg@2.0.0")}),
        package=pkg.model_copy(update={"version": "2.0.0"}),
        instructions="Always call a first.",
    )
    drift = compare(entry, moved)
    assert drift.state == "changed"
    assert drift.server_fields == ("spawn", "instructions", "package")
    # a surface that does not know its transport (a catalog) is not a change
    assert compare(entry, _surface(_tool("a"), instructions="Be nice.")).state == "matched"
    # a new secret value under the same key is not a spawn change
    same_keys = stdio.model_copy(update={"env": {"TOKEN": "other"}})
    assert compare(entry, base.model_copy(update={"transport": same_keys})).state == "matched"


# --- property tests ------------------------------------------------------------------------------

scalars = st.one_of(st.none(), st.booleans(), st.integers(-1000, 1000), st.text(max_size=12))
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=12,
)
schemas = st.dictionaries(st.text(max_size=6), json_values, max_size=4).map(
    lambda d: {"type": "object", **d}
)
hints = st.fixed_dictionaries(
    {},
    optional={
        "readOnlyHint": st.booleans(),
        "destructiveHint": st.booleans(),
        "openWorldHint": st.booleans(),
        "title": st.text(max_size=8),
    },
)
tools_docs = st.lists(
    st.fixed_dictionaries(
        {"name": st.text(min_size=1, max_size=10), "inputSchema": schemas},
        optional={
            "description": st.text(max_size=40),
            "title": st.text(max_size=10),
            "annotations": hints,
        },
    ),
    min_size=1,
    max_size=4,
    unique_by=lambda t: t["name"],
)


def _shuffled(value: Any, rng: random.Random) -> Any:
    if isinstance(value, dict):
        items = list(value.items())
        rng.shuffle(items)
        return {k: _shuffled(v, rng) for k, v in items}
    if isinstance(value, list):
        return [_shuffled(v, rng) for v in value]
    return value


def _load(text: str) -> ServerSurface:
    return surface_from_document(json.loads(text), server_id="srv", source="t")


@settings(max_examples=60, deadline=None)
@given(tools_docs, st.integers(0, 2**32), st.sampled_from([None, 0, 2, "\t"]))
def test_pin_matches_under_key_order_and_whitespace(
    tools: list[dict[str, Any]], seed: int, indent: Any
) -> None:
    original = _load(json.dumps({"tools": tools}))
    entry = entry_for(original)
    rng = random.Random(seed)
    reordered = {"tools": _shuffled(tools, rng)}
    text = json.dumps(
        reordered, indent=indent, separators=(", ", " :  ") if indent is None else None
    )
    again = _load(text)
    assert entry_for(again) == entry
    assert compare(entry, again).state == "matched"


EDITS = {
    "title": lambda t: t.update(title=(t.get("title") or "") + "!"),
    "description": lambda t: t.update(description=(t.get("description") or "") + "!"),
    "inputSchema": lambda t: t["inputSchema"].update({"x-extra": 1}),
    "outputSchema": lambda t: t.update(outputSchema={"type": "object", "n": len(str(t))}),
    "annotations": lambda t: t.update(
        annotations={**(t.get("annotations") or {}), "title": "~edited~"}
    ),
}


@settings(max_examples=60, deadline=None)
@given(tools_docs, st.sampled_from(sorted(f for f in HASHED_FIELDS if f != "name")), st.data())
def test_any_hashed_field_change_is_named(
    tools: list[dict[str, Any]], field: str, data: st.DataObject
) -> None:
    entry = entry_for(_load(json.dumps({"tools": tools})))
    index = data.draw(st.integers(0, len(tools) - 1))
    edited = json.loads(json.dumps(tools))
    EDITS[field](edited[index])
    if edited == tools:  # the edit happened to be a no-op (e.g. annotations title already set)
        return
    drift = compare(entry, _load(json.dumps({"tools": edited})))
    assert drift.state in ("changed", "blocked")
    assert [(t.tool, t.fields) for t in drift.tools] == [(tools[index]["name"], (field,))]

"""The position-keeping JSON pass: every path's span holds exactly that value (checked against
`json.loads` on arbitrary documents), lines and columns as an editor counts them, bounded work."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwitness.acquire import json_positions
from toolwitness.acquire.json_positions import LineIndex, PathKey, PositionError, value_spans

_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53) + 1, max_value=2**53 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
)
documents = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5)
    ),
    max_leaves=40,
)
layouts = st.sampled_from(
    [
        {},
        {"indent": 2},
        {"indent": 0},
        {"indent": "\t", "ensure_ascii": False},
        {"separators": (",", ":")},
        {"separators": (" ,\r\n", " :\n "), "ensure_ascii": False},
    ]
)


def _all_paths(value: Any, path: PathKey = ()) -> list[tuple[PathKey, Any]]:
    out = [(path, value)]
    if isinstance(value, dict):
        for key, child in value.items():
            out += _all_paths(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            out += _all_paths(child, (*path, index))
    return out


@settings(max_examples=300, deadline=None)
@given(documents, layouts)
def test_every_path_points_at_its_value(doc: Any, layout: dict[str, Any]) -> None:
    text = json.dumps(doc, **layout)
    spans = value_spans(text)
    expected = _all_paths(doc)
    assert set(spans) == {p for p, _ in expected}
    for path, value in expected:
        span = spans[path]
        assert json.loads(text[span.value : span.end]) == value
        if path and isinstance(path[-1], str):  # an object member: the span opens at its key
            key_text, _, rest = text[span.start : span.value].rpartition(":")
            assert json.loads(key_text) == path[-1] and not rest.strip()
        else:
            assert span.start == span.value


@settings(max_examples=200, deadline=None)
@given(documents, layouts, st.data())
def test_asking_for_some_paths_gives_the_same_spans(
    doc: Any, layout: dict[str, Any], data: Any
) -> None:
    text = json.dumps(doc, **layout)
    everything = value_spans(text)
    paths = [p for p, _ in _all_paths(doc)]
    wanted = data.draw(st.lists(st.sampled_from(paths), max_size=4))
    some = value_spans(text, wanted)
    for path in wanted:
        for depth in range(len(path) + 1):  # the path and every ancestor
            assert some[path[:depth]] == everything[path[:depth]]
    assert all(some[p] == everything[p] for p in some)


def test_absent_path_leaves_its_deepest_ancestor() -> None:
    text = '{"tools": [{"name": "a"}]}'
    spans = value_spans(text, [("tools", 0, "description"), ("tools", 3)])
    assert set(spans) == {(), ("tools",), ("tools", 0)}


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab\n\r\u2028é😀", max_size=60))
def test_line_and_column_count_code_points_and_lf(text: str) -> None:
    index = LineIndex(text)
    for offset in range(len(text) + 1):
        before = text[:offset]
        line = before.count("\n") + 1
        column = offset - (before.rfind("\n") + 1) + 1
        assert index.position(offset) == (line, column)


@pytest.mark.parametrize(
    "text",
    ['{"a": 1,}', "[1,]", '{"a" 1}', '{"a": 1', "[1 2]", '{"a": 1} x', "", "{'a': 1}", "{1: 2}"],
)
def test_invalid_text_raises_instead_of_guessing(text: str) -> None:
    with pytest.raises(PositionError):
        value_spans(text)


def test_depth_is_bounded() -> None:
    deep = "[" * 300 + "]" * 300
    with pytest.raises(PositionError, match="deeper"):
        value_spans(deep, max_depth=256)
    assert value_spans("[" * 200 + "]" * 200)[()].end == 400


def _catalog(tools: int) -> str:
    doc = {
        "tools": [
            {
                "name": f"tool_{i}",
                "description": "Reads a file.",
                "inputSchema": {"type": "object", "properties": {"path": {"type": "string"}}},
            }
            for i in range(tools)
        ]
    }
    return json.dumps(doc, indent=2)


def _work(monkeypatch: pytest.MonkeyPatch, text: str, wanted: Any) -> int:
    """Tokenizer steps: members read plus values measured by the decoder."""
    calls = {"n": 0}
    member, skip = json_positions._member, json_positions._skip

    def counted_member(*args: Any) -> Any:
        calls["n"] += 1
        return member(*args)

    def counted_skip(*args: Any) -> Any:
        calls["n"] += 1
        return skip(*args)

    monkeypatch.setattr(json_positions, "_member", counted_member)
    monkeypatch.setattr(json_positions, "_skip", counted_skip)
    value_spans(text, wanted)
    monkeypatch.setattr(json_positions, "_member", member)
    monkeypatch.setattr(json_positions, "_skip", skip)
    return calls["n"]


def test_work_is_linear_in_the_document(monkeypatch: pytest.MonkeyPatch) -> None:
    small, large = _catalog(500), _catalog(1000)
    ratio = _work(monkeypatch, large, None) / _work(monkeypatch, small, None)
    assert 1.8 < ratio < 2.2
    # Asking for one tool's field costs the siblings on its way, not the whole document.
    one = [("tools", 999, "description")]
    assert _work(monkeypatch, large, one) < _work(monkeypatch, large, None) / 4

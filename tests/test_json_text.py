"""The fast indented JSON writer makes exactly the text `json.dumps(indent=2, ensure_ascii=True)`
makes, for every JSON value (and the report's own value types), and refuses what it refuses."""

from __future__ import annotations

import json
import math
from enum import IntEnum, StrEnum
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwitness.report.json_text import dumps_indented


def _reference(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=True)


_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()  # any code point, lone surrogates included
    | st.text(alphabet=st.sampled_from('"\\/\n\t\b\f\r\x00\x1f\x7f\u2028\u202e\U000e0041'))
)
_keys = st.text() | st.integers() | st.floats() | st.booleans() | st.none()
_values = st.recursive(
    _scalars,
    lambda children: (
        st.lists(children, max_size=5)
        | st.lists(children, max_size=5).map(tuple)
        | st.dictionaries(_keys, children, max_size=5)
    ),
    max_leaves=40,
)


@settings(max_examples=600, deadline=None)
@given(_values)
def test_same_text_as_json_dumps(value: Any) -> None:
    assert dumps_indented(value) == _reference(value)


class _Level(IntEnum):
    ONE = 1


class _Word(StrEnum):
    HIGH = "high"


@pytest.mark.parametrize(
    "value",
    [
        {}, [], (), "", 0, -0.0, 1e300, 5e-324, math.nan, -math.inf, True, None,
        {"a": [], "b": {}, "c": [[]], "d": [{}]},
        {_Word.HIGH: _Level.ONE, "x": [_Word.HIGH, _Level.ONE]},
        {1: "int key", 2.5: "float key", None: "none key"},
        {True: "bool key", False: "false key"},
        [[[[[["deep"]]]]]],
        {"k\u00e9y": "v\u00e4lue \U0001f600 \ud800"},
    ],
)  # fmt: skip
def test_edge_values(value: Any) -> None:
    assert dumps_indented(value) == _reference(value)


@pytest.mark.parametrize("value", [{"a": {1, 2}}, [object()], {(1, 2): "tuple key"}, b"bytes"])
def test_refuses_what_json_refuses(value: Any) -> None:
    with pytest.raises(TypeError):
        _reference(value)
    with pytest.raises(TypeError):
        dumps_indented(value)

"""The precompiled data table (`datacache`) is current and exact: every shipped YAML data file
has its line, each line's value is the file's YAML value with the same types, and `load_yaml`
reads the table for a shipped file and parses YAML for any other text."""

from __future__ import annotations

import pytest

from toolwitness import datacache
from toolwitness.yamlload import load_yaml, parse_yaml


def test_table_is_current() -> None:
    lines = datacache.TABLE.read_text("utf-8").splitlines()
    assert lines == datacache.build_lines(), "stale: run .venv/bin/python -m toolwitness.datacache"


def test_every_shipped_yaml_file_is_compiled_exactly() -> None:
    files = sorted(datacache.DATA.rglob("*.yaml"))
    assert len(files) > 30
    for path in files:
        text = path.read_text("utf-8")
        value = datacache.compiled(text)
        assert not datacache.is_missing(value), path
        assert datacache.same_value(value, parse_yaml(text)), path


def test_each_load_is_a_fresh_value() -> None:
    text = (datacache.DATA / "scoring.yaml").read_text("utf-8")
    first = load_yaml(text)
    first.clear()
    assert load_yaml(text) == parse_yaml(text)


def test_other_text_is_parsed_as_yaml() -> None:
    assert datacache.is_missing(datacache.compiled("a: 1\n"))
    assert load_yaml("a: [1, 2.5, true, null]\n") == {"a": [1, 2.5, True, None]}


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        (1, 1, True), (1, 1.0, False), (1, True, False), ({"a": 1}, {"a": 1}, True),
        ({"a": 1, "b": 2}, {"b": 2, "a": 1}, False), ([1, [2]], [1, [2]], True),
        ([1], [1, 2], False), ("x", "x", True), (None, None, True),
    ],
)  # fmt: skip
def test_same_value_tells_types_apart(a: object, b: object, same: bool) -> None:
    assert datacache.same_value(a, b) is same

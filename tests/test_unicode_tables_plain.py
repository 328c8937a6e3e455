"""The hidden-Unicode tables are plain slotted records, not pydantic models (issue 17: fourteen
model classes cost every start ~10 ms). Held here: every record holds exactly what the YAML says
(code points as ints, lists as tuples or frozensets), the records are frozen and compare by
their fields, and a bad edit still fails loudly at load time, naming the place."""

from __future__ import annotations

import re
from importlib import resources
from typing import Any

import pytest

from toolwitness.checks.unicode import data
from toolwitness.checks.unicode.data import parse_tables, tables
from toolwitness.errors import InternalError
from toolwitness.yamlload import load_yaml

_CODE = re.compile(r"U\+([0-9A-F]{4,6})")


def _text() -> str:
    return resources.files("toolwitness.data").joinpath("unicode.yaml").read_text("utf-8")


def _expected(raw: Any) -> Any:
    if isinstance(raw, str) and (match := _CODE.fullmatch(raw)):
        return int(match.group(1), 16)
    return raw


def _holds(record: Any, raw: Any, where: str) -> None:
    if isinstance(record, data._Record):
        assert isinstance(raw, dict), where
        assert sorted(raw) == sorted(name for name, _ in record._FIELDS), where
        for key, value in raw.items():
            _holds(getattr(record, key), value, f"{where}.{key}")
    elif isinstance(record, tuple):
        assert isinstance(raw, list) and len(raw) == len(record), where
        for i, (item, value) in enumerate(zip(record, raw, strict=True)):
            _holds(item, value, f"{where}[{i}]")
    elif isinstance(record, frozenset):
        assert isinstance(raw, list), where
        assert record == frozenset(frozenset(v) if isinstance(v, list) else v for v in raw)
    else:
        assert type(record) is type(_expected(raw)), where
        assert record == _expected(raw), where


def test_the_records_hold_the_yaml() -> None:
    _holds(tables(), load_yaml(_text()), "")
    assert tables().bidi_by_code[0x202E].name == "RLO"
    assert 0x200B in tables().zero_width_by_code


def test_records_are_frozen_and_compare_by_fields() -> None:
    again = parse_tables(_text(), "test")
    assert again is not tables() and again.tags == tables().tags
    assert hash(again.bidi_controls) == hash(tables().bidi_controls)
    with pytest.raises(AttributeError):
        tables().tags.first = 0  # type: ignore[misc]
    span = tables().controls.c0
    assert span.first in span and span.last + 1 not in span


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (("U+202E", "U+20ZZ"), r"bidi_controls\.4\.code: expected a code point"),
        (("U+202E", "U+110000"), "beyond U"),
        (("first: U+2000, last: U+200A", "first: U+200A, last: U+2000"), "reversed"),
        (("{code: U+2061,", "{code: U+200B,"), "listed in both"),
        (("version: 1", "version: 1\nsurprise: true"), "surprise: Extra inputs"),
        (("version: 1", "version: one"), "version: expected an integer"),
        (("version: 1", ""), "version: Field required"),
        (("kind: override", "kind: sideways"), "unknown bidi control kind"),
        (("emoji_tag_bases: [U+1F3F4]", "emoji_tag_bases: U+1F3F4"), "expected a list"),
    ],
)
def test_bad_tables_fail_at_load(edit: tuple[str, str], message: str) -> None:
    text = _text()
    assert edit[0] in text
    with pytest.raises(InternalError, match=message):
        parse_tables(text.replace(edit[0], edit[1], 1), "test")

"""The hidden-Unicode tables (`data/unicode.yaml`), loaded once and validated.

The YAML is data: code points are written `U+XXXX`; the loader rejects unknown keys, missing
keys, values of the wrong type, malformed code points, reversed ranges and overlaps between
tables, so a bad edit fails loudly at load time instead of silently weakening a check.

The records are plain slotted classes read by the small validator below, not pydantic models:
fourteen model classes cost a one-tool scan ~10 ms to build at every start, for a table that is
read once and then only looked at. They are frozen and compare by their fields, as the models did.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cached_property, lru_cache
from typing import Any, ClassVar, TypeVar

from toolwitness.datafiles import data_files
from toolwitness.errors import InternalError
from toolwitness.yamlload import is_yaml_error, load_yaml

_CODE_POINT = re.compile(r"U\+([0-9A-F]{4,6})")
_R = TypeVar("_R", bound="_Record")
_Reader = Callable[[Any, str], Any]
_Fields = tuple[tuple[str, _Reader], ...]


class TableError(ValueError):
    """A value of the YAML that the tables do not accept; the message names where."""


def _code_point(value: Any, where: str) -> int:
    if not isinstance(value, str) or not (match := _CODE_POINT.fullmatch(value)):
        raise TableError(f"{where}: expected a code point written U+XXXX, got {value!r}")
    code = int(match.group(1), 16)
    if code > 0x10FFFF:
        raise TableError(f"{where}: {value} is beyond U+10FFFF")
    return code


def _int(value: Any, where: str) -> int:
    if type(value) is not int:
        raise TableError(f"{where}: expected an integer, got {value!r}")
    return value


def _str(value: Any, where: str) -> str:
    if type(value) is not str:
        raise TableError(f"{where}: expected a string, got {value!r}")
    return value


def _bool(value: Any, where: str) -> bool:
    if type(value) is not bool:
        raise TableError(f"{where}: expected a boolean, got {value!r}")
    return value


def _items(value: Any, where: str, read: _Reader) -> list[Any]:
    if not isinstance(value, list | tuple):
        raise TableError(f"{where}: expected a list, got {value!r}")
    return [read(item, f"{where}.{i}") for i, item in enumerate(value)]


def _tuple_of(read: _Reader) -> _Reader:
    return lambda value, where: tuple(_items(value, where, read))


def _frozenset_of(read: _Reader) -> _Reader:
    return lambda value, where: frozenset(_items(value, where, read))


def _str_to_str(value: Any, where: str) -> dict[str, str]:
    if not isinstance(value, dict):
        raise TableError(f"{where}: expected a mapping, got {value!r}")
    return {_str(k, where): _str(v, f"{where}.{k}") for k, v in value.items()}


def _mapping(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TableError(f"{where or 'the document'}: expected a mapping, got {value!r}")
    return value


def _child(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


class _Record:
    """A frozen record read from one YAML mapping: exactly the keys of `_FIELDS`, each read
    (and checked) by its reader; `_check` then looks at the record as a whole."""

    __slots__ = ()
    _FIELDS: ClassVar[_Fields] = ()

    @classmethod
    def read(cls: type[_R], value: Any, where: str = "") -> _R:
        raw = _mapping(value, where)
        names = {name for name, _ in cls._FIELDS}
        for key in raw:
            if key not in names:
                raise TableError(f"{_child(where, str(key))}: Extra inputs are not permitted")
        record = object.__new__(cls)
        for name, read in cls._FIELDS:
            at = _child(where, name)
            if name not in raw:
                raise TableError(f"{at}: Field required")
            object.__setattr__(record, name, read(raw[name], at))
        record._check(where)
        return record

    def _check(self, where: str) -> None:
        """Checks across fields (none by default)."""

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name, _ in self._FIELDS)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is frozen")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, _Record)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((type(self), self._values()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name, _ in self._FIELDS)
        return f"{type(self).__name__}({shown})"


def _record(cls: type[_Record]) -> _Reader:
    return cls.read


class Span(_Record):
    __slots__ = ("first", "last")
    _FIELDS: ClassVar[_Fields] = (("first", _code_point), ("last", _code_point))
    first: int
    last: int

    def _check(self, where: str) -> None:
        if self.last < self.first:
            raise TableError(f"{where}: range U+{self.first:04X}..U+{self.last:04X} is reversed")

    def __contains__(self, code: int) -> bool:
        return self.first <= code <= self.last


class NamedSpan(Span):
    __slots__ = ("meaning", "name")
    _FIELDS: ClassVar[_Fields] = (*Span._FIELDS, ("name", _str), ("meaning", _str))
    name: str
    meaning: str


class WhitespaceSpan(NamedSpan):
    __slots__ = ("prose",)
    _FIELDS: ClassVar[_Fields] = (*NamedSpan._FIELDS, ("prose", _bool))
    prose: bool


class NamedChar(_Record):
    __slots__ = ("code", "meaning", "name")
    _FIELDS: ClassVar[_Fields] = (("code", _code_point), ("name", _str), ("meaning", _str))
    code: int
    name: str
    meaning: str


_BIDI_KINDS = frozenset(
    {"embedding", "override", "isolate", "pop-embedding", "pop-isolate", "mark"}
)


class BidiControl(NamedChar):
    __slots__ = ("kind",)
    _FIELDS: ClassVar[_Fields] = (*NamedChar._FIELDS, ("kind", _str))
    kind: str  # embedding | override | isolate | pop-embedding | pop-isolate | mark

    def _check(self, where: str) -> None:
        if self.kind not in _BIDI_KINDS:
            raise TableError(f"{where}: unknown bidi control kind {self.kind!r}")


class Tags(_Record):
    __slots__ = (
        "ascii_first",
        "ascii_last",
        "cancel",
        "emoji_tag_bases",
        "emoji_tag_max_letters",
        "first",
        "last",
    )  # fmt: skip
    _FIELDS: ClassVar[_Fields] = (
        ("first", _code_point), ("last", _code_point), ("ascii_first", _code_point),
        ("ascii_last", _code_point), ("cancel", _code_point),
        ("emoji_tag_bases", _tuple_of(_code_point)), ("emoji_tag_max_letters", _int),
    )  # fmt: skip
    first: int
    last: int
    ascii_first: int
    ascii_last: int
    cancel: int
    emoji_tag_bases: tuple[int, ...]
    emoji_tag_max_letters: int


class SelectorRange(Span):
    __slots__ = ("byte_base", "meaning")
    _FIELDS: ClassVar[_Fields] = (*Span._FIELDS, ("byte_base", _int), ("meaning", _str))
    byte_base: int
    meaning: str


class VariationSelectors(_Record):
    __slots__ = ("emoji_presentation", "ranges", "text_presentation")
    _FIELDS: ClassVar[_Fields] = (
        ("ranges", _tuple_of(_record(SelectorRange))),
        ("text_presentation", _code_point), ("emoji_presentation", _code_point),
    )  # fmt: skip
    ranges: tuple[SelectorRange, ...]
    text_presentation: int
    emoji_presentation: int


class Controls(_Record):
    __slots__ = ("allowed", "c0", "c1", "delete")
    _FIELDS: ClassVar[_Fields] = (
        ("allowed", _tuple_of(_code_point)), ("c0", _record(Span)), ("delete", _code_point),
        ("c1", _record(Span)),
    )  # fmt: skip
    allowed: tuple[int, ...]
    c0: Span
    delete: int
    c1: Span


class Terminal(_Record):
    __slots__ = ("conceal_codes", "max_column", "osc_meanings", "reveal_codes", "work_per_char")
    _FIELDS: ClassVar[_Fields] = (
        ("osc_meanings", _str_to_str), ("conceal_codes", _tuple_of(_int)),
        ("reveal_codes", _tuple_of(_int)), ("work_per_char", _int), ("max_column", _int),
    )  # fmt: skip
    osc_meanings: dict[str, str]
    conceal_codes: tuple[int, ...]
    reveal_codes: tuple[int, ...]
    work_per_char: int
    max_column: int


class Confusables(_Record):
    __slots__ = ("allowed_script_sets", "lookalike_scripts", "min_token_letters")
    _FIELDS: ClassVar[_Fields] = (
        ("lookalike_scripts", _frozenset_of(_str)),
        ("allowed_script_sets", _tuple_of(_frozenset_of(_str))), ("min_token_letters", _int),
    )  # fmt: skip
    lookalike_scripts: frozenset[str]
    allowed_script_sets: tuple[frozenset[str], ...]
    min_token_letters: int


class Thresholds(_Record):
    __slots__ = ("padding_run", "zero_width_decode_min", "zero_width_run", "zero_width_total")
    _FIELDS: ClassVar[_Fields] = (
        ("zero_width_run", _int), ("zero_width_total", _int), ("zero_width_decode_min", _int),
        ("padding_run", _int),
    )  # fmt: skip
    zero_width_run: int
    zero_width_total: int
    zero_width_decode_min: int
    padding_run: int


class UnicodeTables(_Record):
    # No __slots__: the lookups below are cached_property values kept in the instance __dict__.
    _FIELDS: ClassVar[_Fields] = (
        ("version", _int), ("tags", _record(Tags)),
        ("variation_selectors", _record(VariationSelectors)),
        ("bidi_controls", _tuple_of(_record(BidiControl))),
        ("zero_width", _tuple_of(_record(NamedChar))), ("joining_scripts", _frozenset_of(_str)),
        ("invisible_operators", _tuple_of(_record(NamedChar))),
        ("unusual_whitespace", _tuple_of(_record(WhitespaceSpan))),
        ("invisible_format", _tuple_of(_record(NamedSpan))), ("controls", _record(Controls)),
        ("terminal", _record(Terminal)), ("confusables", _record(Confusables)),
        ("thresholds", _record(Thresholds)),
    )  # fmt: skip
    version: int
    tags: Tags
    variation_selectors: VariationSelectors
    bidi_controls: tuple[BidiControl, ...]
    zero_width: tuple[NamedChar, ...]
    joining_scripts: frozenset[str]
    invisible_operators: tuple[NamedChar, ...]
    unusual_whitespace: tuple[WhitespaceSpan, ...]
    invisible_format: tuple[NamedSpan, ...]
    controls: Controls
    terminal: Terminal
    confusables: Confusables
    thresholds: Thresholds

    def _check(self, where: str) -> None:
        seen: dict[int, str] = {}
        singles = [
            ("bidi_controls", self.bidi_controls),
            ("zero_width", self.zero_width),
            ("invisible_operators", self.invisible_operators),
        ]
        spans: list[tuple[str, tuple[NamedSpan, ...]]] = [
            ("unusual_whitespace", self.unusual_whitespace),
            ("invisible_format", self.invisible_format),
        ]
        for table, chars in singles:
            for char in chars:
                _claim(seen, char.code, table)
        for table, ranges in spans:
            for span in ranges:
                for code in range(span.first, span.last + 1):
                    _claim(seen, code, table)

    @cached_property
    def bidi_by_code(self) -> dict[int, BidiControl]:
        return {c.code: c for c in self.bidi_controls}

    @cached_property
    def zero_width_by_code(self) -> dict[int, NamedChar]:
        return {c.code: c for c in self.zero_width}

    @cached_property
    def operators_by_code(self) -> dict[int, NamedChar]:
        return {c.code: c for c in self.invisible_operators}

    @cached_property
    def whitespace_by_code(self) -> dict[int, WhitespaceSpan]:
        return {c: s for s in self.unusual_whitespace for c in range(s.first, s.last + 1)}

    @cached_property
    def format_by_code(self) -> dict[int, NamedSpan]:
        return {c: s for s in self.invisible_format for c in range(s.first, s.last + 1)}

    def selector_byte(self, code: int) -> int | None:
        """The byte a variation selector carries, or None for any other code point."""
        for span in self.variation_selectors.ranges:
            if span.first <= code <= span.last:
                return span.byte_base + code - span.first
        return None


def _claim(seen: dict[int, str], code: int, table: str) -> None:
    if code in seen:
        raise TableError(f"U+{code:04X} is listed in both {seen[code]} and {table}")
    seen[code] = table


def parse_tables(text: str, source: str) -> UnicodeTables:
    try:
        return UnicodeTables.read(load_yaml(text))
    except TableError as exc:
        raise InternalError(f"{source}: invalid unicode tables: {exc}") from None
    except Exception as exc:  # PyYAML's error, when the text was parsed (not precompiled)
        if is_yaml_error(exc):
            raise InternalError(f"{source}: invalid unicode tables: {exc}") from None
        raise


@lru_cache(maxsize=1)
def tables() -> UnicodeTables:
    """The shipped tables (a broken shipped file is a toolwitness bug: InternalError)."""
    path = data_files().joinpath("unicode.yaml")
    return parse_tables(path.read_text("utf-8"), "builtin:unicode.yaml")

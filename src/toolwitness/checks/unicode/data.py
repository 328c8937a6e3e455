"""The hidden-Unicode tables (`data/unicode.yaml`), loaded once and validated.

The YAML is data: code points are written `U+XXXX`; the loader rejects unknown keys, malformed
code points, reversed ranges and overlaps between tables, so a bad edit fails loudly at load time
instead of silently weakening a check.
"""

from __future__ import annotations

import re
from functools import cached_property, lru_cache
from importlib import resources
from typing import Annotated, Any

from pydantic import BaseModel, BeforeValidator, ConfigDict, ValidationError, model_validator

from toolwitness.errors import InternalError
from toolwitness.yamlload import is_yaml_error, load_yaml

_CODE_POINT = re.compile(r"U\+([0-9A-F]{4,6})")


def _code_point(value: Any) -> int:
    if not isinstance(value, str) or not (match := _CODE_POINT.fullmatch(value)):
        raise ValueError(f"expected a code point written U+XXXX, got {value!r}")
    code = int(match.group(1), 16)
    if code > 0x10FFFF:
        raise ValueError(f"{value} is beyond U+10FFFF")
    return code


CodePoint = Annotated[int, BeforeValidator(_code_point)]


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Span(_Strict):
    first: CodePoint
    last: CodePoint

    @model_validator(mode="after")
    def _ordered(self) -> Span:
        if self.last < self.first:
            raise ValueError(f"range U+{self.first:04X}..U+{self.last:04X} is reversed")
        return self

    def __contains__(self, code: int) -> bool:
        return self.first <= code <= self.last


class NamedSpan(Span):
    name: str
    meaning: str


class WhitespaceSpan(NamedSpan):
    prose: bool


class NamedChar(_Strict):
    code: CodePoint
    name: str
    meaning: str


class BidiControl(NamedChar):
    kind: str  # embedding | override | isolate | pop-embedding | pop-isolate | mark

    @model_validator(mode="after")
    def _known_kind(self) -> BidiControl:
        kinds = {"embedding", "override", "isolate", "pop-embedding", "pop-isolate", "mark"}
        if self.kind not in kinds:
            raise ValueError(f"unknown bidi control kind {self.kind!r}")
        return self


class Tags(_Strict):
    first: CodePoint
    last: CodePoint
    ascii_first: CodePoint
    ascii_last: CodePoint
    cancel: CodePoint
    emoji_tag_bases: tuple[CodePoint, ...]
    emoji_tag_max_letters: int


class SelectorRange(Span):
    byte_base: int
    meaning: str


class VariationSelectors(_Strict):
    ranges: tuple[SelectorRange, ...]
    text_presentation: CodePoint
    emoji_presentation: CodePoint


class Controls(_Strict):
    allowed: tuple[CodePoint, ...]
    c0: Span
    delete: CodePoint
    c1: Span


class Terminal(_Strict):
    osc_meanings: dict[str, str]
    conceal_codes: tuple[int, ...]
    reveal_codes: tuple[int, ...]
    work_per_char: int
    max_column: int


class Confusables(_Strict):
    lookalike_scripts: frozenset[str]
    allowed_script_sets: tuple[frozenset[str], ...]
    min_token_letters: int


class Thresholds(_Strict):
    zero_width_run: int
    zero_width_total: int
    zero_width_decode_min: int
    padding_run: int


class UnicodeTables(_Strict):
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

    @model_validator(mode="after")
    def _disjoint(self) -> UnicodeTables:
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
        return self

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
        raise ValueError(f"U+{code:04X} is listed in both {seen[code]} and {table}")
    seen[code] = table


def parse_tables(text: str, source: str) -> UnicodeTables:
    try:
        return UnicodeTables.model_validate(load_yaml(text))
    except ValidationError as exc:
        raise InternalError(f"{source}: invalid unicode tables: {exc}") from None
    except Exception as exc:  # PyYAML's error, when the text was parsed (not precompiled)
        if is_yaml_error(exc):
            raise InternalError(f"{source}: invalid unicode tables: {exc}") from None
        raise


@lru_cache(maxsize=1)
def tables() -> UnicodeTables:
    """The shipped tables (a broken shipped file is a toolwitness bug: InternalError)."""
    path = resources.files("toolwitness.data").joinpath("unicode.yaml")
    return parse_tables(path.read_text("utf-8"), "builtin:unicode.yaml")

"""The JSON files findings point into, each read once per report with the scan's bounds, checked
by the same strict reader, then measured by the position-keeping pass for every path asked for.

A file that no longer reads, parses or matches what was scanned (its tool names, its config
entry) gives no positions: the location then names the file at line 1, never a guessed line.
YAML and TOML configs have no JSON positions either.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toolwitness.acquire.hostile_json import parse_json_text
from toolwitness.acquire.json_positions import LineIndex, PathKey, PositionError, Span, value_spans
from toolwitness.acquire.jsonc import strip_jsonc
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import ToolwitnessError
from toolwitness.files import read_regular
from toolwitness.plainclass import field, plainclass


@plainclass(frozen=True)
class Region:
    start_line: int
    start_column: int
    end_line: int
    end_column: int

    def to_json(self) -> dict[str, int]:
        return {
            "startLine": self.start_line,
            "startColumn": self.start_column,
            "endLine": self.end_line,
            "endColumn": self.end_column,
        }


FILE_START = Region(1, 1, 1, 1)


@plainclass
class JsonDocument:
    path: Path
    text: str | None = None
    value: Any = None
    wanted: set[PathKey] = field(default_factory=set)
    _spans: dict[PathKey, Span] | None = None
    _lines: LineIndex | None = None

    @classmethod
    def read(cls, path: Path, limits: InputLimits) -> JsonDocument:
        doc = cls(path)
        try:
            data = read_regular(path, limits.max_file_bytes)
            text = data.removeprefix(b"\xef\xbb\xbf").decode("utf-8")
        except (ToolwitnessError, UnicodeDecodeError):
            return doc
        for candidate in (text, None):
            try:
                # JSONC comments become spaces of the same length: offsets stay the file's.
                shown = candidate if candidate is not None else strip_jsonc(text, str(path))
                doc.value = parse_json_text(shown, str(path), limits)
                doc.text = shown
                return doc
            except ToolwitnessError:
                continue
        return doc

    @property
    def readable(self) -> bool:
        return self.text is not None

    def forget(self) -> None:
        """The file no longer matches the scan: give no positions."""
        self.text = self.value = None

    def want(self, path: PathKey) -> None:
        self.wanted.add(path)

    def region(self, path: PathKey) -> Region:
        if self.text is None:
            return FILE_START
        if self._spans is None:
            try:
                self._spans = value_spans(self.text, self.wanted)
            except PositionError:
                self._spans = {}
            self._lines = LineIndex(self.text)
        assert self._lines is not None
        span = self._spans.get(path)
        while span is None and path:  # the deepest part that exists
            path = path[:-1]
            span = self._spans.get(path)
        if span is None:
            return FILE_START
        start, end = self._lines.position(span.start), self._lines.position(span.end)
        return Region(start[0], start[1], end[0], end[1])

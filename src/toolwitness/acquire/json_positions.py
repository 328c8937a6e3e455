"""Where each value of a JSON document sits in its text: a position-keeping second pass.

The strict reader (`hostile_json`) decides what is valid and builds the values; this pass walks
the same text once more and records, for the JSON paths asked for (and their ancestors), the
offsets of the member's key, of the value and just past it. Only structure — brackets, commas,
colons, whitespace, keys — is tokenized here; every scalar and every skipped subtree is measured
by the standard library's C decoder, so an offset is exactly where `json.loads` ends the value.

Bounded and linear: one forward pass, an explicit stack (never recursion) no deeper than
`max_depth`, each character looked at a constant number of times. Text that is not valid JSON
raises `PositionError` (callers then report no position, never a wrong one).
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterable
from typing import Any

from toolwitness.plainclass import plainclass

PathKey = tuple[str | int, ...]

_WS = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()
_ALL: dict[Any, Any] = {}  # the trie node meaning "record everything below"


class PositionError(ValueError):
    """The text is not the JSON it was said to be; no position is given."""


@plainclass(frozen=True, slots=True)
class Span:
    start: int  # the member's key (object members) or the value itself (items, the root)
    value: int  # the value's first character
    end: int  # just past the value's last character


def _trie(wanted: Iterable[PathKey]) -> dict[Any, Any]:
    root: dict[Any, Any] = {}
    for path in wanted:
        node = root
        for part in path:
            node = node.setdefault(part, {})
    return root


class _Frame:
    __slots__ = ("count", "is_object", "node", "path", "start", "value")

    def __init__(self, is_object: bool, path: PathKey, node: Any, start: int, value: int) -> None:
        self.is_object = is_object
        self.path = path
        self.node = node
        self.start = start
        self.value = value
        self.count = 0


def _skip(text: str, pos: int) -> int:
    """The end of the value at `pos`, measured by the C decoder (the value is thrown away)."""
    try:
        return int(_DECODER.raw_decode(text, pos)[1])
    except (ValueError, RecursionError):
        raise PositionError(f"no JSON value at offset {pos}") from None


def value_spans(
    text: str, wanted: Iterable[PathKey] | None = None, *, max_depth: int = 256
) -> dict[PathKey, Span]:
    """Spans of the values at `wanted` paths and of every ancestor met on the way to them;
    of every value when `wanted` is None. A wanted path absent from the document is simply
    not in the result (its deepest present ancestor is)."""
    out: dict[PathKey, Span] = {}
    stack: list[_Frame] = []
    n = len(text)
    pos = _WS.match(text, 0).end()  # type: ignore[union-attr]
    path: PathKey = ()
    node: Any = _ALL if wanted is None else _trie(wanted)
    start = pos
    while True:
        # At the start of a value: `path`, `node` (None = not wanted) and `start` describe it.
        char = text[pos] if pos < n else ""
        if node is None or char not in "{[":
            end = _skip(text, pos)
            if node is not None:
                out[path] = Span(start, pos, end)
            pos = end
        else:
            if len(stack) >= max_depth:
                raise PositionError(f"nesting deeper than {max_depth} levels")
            stack.append(_Frame(char == "{", path, node, start, pos))
            pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
            if pos < n and text[pos] == ("}" if char == "{" else "]"):
                pass  # empty container: closed below
            else:
                path, node, start, pos = _member(text, pos, stack[-1])
                continue
        # After a value: close finished containers, or step to the next member.
        while True:
            pos = _WS.match(text, pos).end()  # type: ignore[union-attr]
            if not stack:
                if pos != n:
                    raise PositionError(f"extra data at offset {pos}")
                return out
            frame = stack[-1]
            char = text[pos] if pos < n else ""
            if char == ("}" if frame.is_object else "]"):
                pos += 1
                out[frame.path] = Span(frame.start, frame.value, pos)
                stack.pop()
                continue
            if char != ",":
                raise PositionError(f"expected ',' or a closing bracket at offset {pos}")
            pos = _WS.match(text, pos + 1).end()  # type: ignore[union-attr]
            path, node, start, pos = _member(text, pos, frame)
            break


def _member(text: str, pos: int, frame: _Frame) -> tuple[PathKey, Any, int, int]:
    """Read the next member's key (objects) and return (path, node, start, value offset)."""
    index = frame.count
    frame.count += 1
    parent = frame.node
    if not frame.is_object:
        node = _ALL if parent is _ALL else parent.get(index)
        return (*frame.path, index), node, pos, pos
    if not text.startswith('"', pos):
        raise PositionError(f"expected a key at offset {pos}")
    try:
        key, after = _DECODER.raw_decode(text, pos)
    except ValueError:
        raise PositionError(f"bad key at offset {pos}") from None
    colon = _WS.match(text, after).end()  # type: ignore[union-attr]
    if not text.startswith(":", colon):
        raise PositionError(f"expected ':' at offset {colon}")
    value = _WS.match(text, colon + 1).end()  # type: ignore[union-attr]
    node = _ALL if parent is _ALL else parent.get(key)
    return (*frame.path, key), node, pos, value


class LineIndex:
    """Offsets → 1-based (line, column) in Unicode code points; lines end at "\\n" (so "\\r\\n"
    counts once), as SARIF's default `newLineSequences` say."""

    def __init__(self, text: str) -> None:
        self._starts = [0, *(m.end() for m in re.finditer("\n", text))]

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._starts, offset) - 1
        return line + 1, offset - self._starts[line] + 1

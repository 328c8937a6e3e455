"""Strict JSON for hostile input: reject what a lenient parser would silently accept.

Rejected, with the JSON path: duplicate keys, NaN/Infinity (and numbers that overflow to them),
integers outside I-JSON's ±(2^53-1), nesting deeper than the bound, strings (values or keys)
longer than the bound, lone surrogates, invalid UTF-8, and files over the size bound.
Nothing in the input is executed or fetched.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from toolwitness import paths
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import InputError

_MAX_SAFE_INT = 2**53 - 1
_SURROGATE = re.compile("[\ud800-\udfff]")


class _DuplicateKeyObject(dict[str, Any]):
    """Marks an object that had a repeated key; the walk reports it with its path."""

    duplicate: str = ""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) == len(pairs):
        return obj
    seen: set[str] = set()
    marked = _DuplicateKeyObject(pairs)
    for key, _ in pairs:
        if key in seen:
            marked.duplicate = key
            break
        seen.add(key)
    return marked


class _NumberError(ValueError):
    pass


def _reject_constant(name: str) -> Any:
    raise _NumberError(f"{name} is not valid JSON")


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NumberError(f"number {text[:40]} overflows to infinity")
    return value


def _parse_int(text: str) -> int:
    if len(text) > 17:
        raise _NumberError(f"integer {text[:40]}… is outside ±(2^53-1)")
    value = int(text)
    if abs(value) > _MAX_SAFE_INT:
        raise _NumberError(f"integer {text} is outside ±(2^53-1)")
    return value


def parse_json_bytes(data: bytes, source: str, limits: InputLimits) -> Any:
    """Parse `data` (the content of `source`) as strict, bounded JSON."""
    if len(data) > limits.max_file_bytes:
        raise InputError(
            f"file is {len(data)} bytes, over the {limits.max_file_bytes}-byte limit",
            source=source,
        )
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 (invalid byte at offset {exc.start})", source=source) from None
    return parse_json_text(text, source, limits)


def parse_json_text(text: str, source: str, limits: InputLimits) -> Any:
    try:
        value = json.loads(
            text,
            object_pairs_hook=_pairs,
            parse_constant=_reject_constant,
            parse_float=_parse_float,
            parse_int=_parse_int,
        )
    except _NumberError as exc:
        raise InputError(str(exc), source=source) from None
    except json.JSONDecodeError as exc:
        raise InputError(
            f"not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})", source=source
        ) from None
    except RecursionError:
        raise InputError(f"nesting deeper than {limits.max_depth} levels", source=source) from None
    except ValueError as exc:  # e.g. int() digit limits
        raise InputError(f"not valid JSON: {exc}", source=source) from None
    check_value(value, source, limits)
    return value


def check_value(value: Any, source: str, limits: InputLimits) -> None:
    """Walk a parsed value once, iteratively, enforcing the structural bounds."""
    stack: list[tuple[Any, int, tuple[str | int, ...]]] = [(value, 0, ())]
    max_chars = limits.max_string_chars
    while stack:
        node, depth, where = stack.pop()
        if isinstance(node, str):
            _check_string(node, source, where, max_chars)
            continue
        if isinstance(node, dict):
            if depth >= limits.max_depth:
                _too_deep(source, where, limits)
            if isinstance(node, _DuplicateKeyObject):
                raise InputError(
                    f"duplicate key {node.duplicate!r}", source=source, path=paths.join(where)
                )
            for key, child in node.items():
                _check_string(key, source, (*where, key), max_chars)
                if isinstance(child, (dict, list, str)):
                    stack.append((child, depth + 1, (*where, key)))
        elif isinstance(node, list):
            if depth >= limits.max_depth:
                _too_deep(source, where, limits)
            for index, child in enumerate(node):
                if isinstance(child, (dict, list, str)):
                    stack.append((child, depth + 1, (*where, index)))


def _check_string(text: str, source: str, where: tuple[str | int, ...], max_chars: int) -> None:
    if len(text) > max_chars:
        raise InputError(
            f"string of {len(text)} characters is over the {max_chars}-character limit"
            " (rejected, not truncated)",
            source=source,
            path=paths.join(where),
        )
    if not text.isascii() and _SURROGATE.search(text):
        raise InputError(
            "string holds a lone UTF-16 surrogate", source=source, path=paths.join(where)
        )


def _too_deep(source: str, where: tuple[str | int, ...], limits: InputLimits) -> None:
    raise InputError(
        f"nesting deeper than {limits.max_depth} levels", source=source, path=paths.join(where)
    )

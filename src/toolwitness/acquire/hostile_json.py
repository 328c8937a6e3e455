"""Strict JSON for hostile input: reject what a lenient parser would silently accept.

Rejected, with the JSON path: duplicate keys, NaN/Infinity (and numbers that overflow to them),
integers outside I-JSON's ±(2^53-1), nesting deeper than the bound, strings (values or keys)
longer than the bound, lone surrogates, invalid UTF-8, and files over the size bound.
Rejected before parsing: documents with more values and keys than the node budget (memory is
bounded by what a document builds, not only by its size: 10 MiB of `[]` is 3.5 million lists).
Nothing in the input is executed or fetched.
"""

from __future__ import annotations

import itertools
import json
import math
from typing import Any

from toolwitness import paths
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import InputError
from toolwitness.gcpause import gc_paused
from toolwitness.lazyre import lazy_compile

_MAX_SAFE_INT = 2**53 - 1
_SURROGATE = lazy_compile("[\ud800-\udfff]")
# Bytes of input per value or key the budget allows: real catalogs spend 20 or more (a tool of
# 24 nodes is about 500 bytes), so only documents made of tiny containers or scalars reach it.
BYTES_PER_NODE = 8  # of the size bound: the ceiling, whatever the document
CHARS_PER_NODE = 4  # of the document itself: memory follows the file, not the bound (a minified
# tool of 11 nodes is 76 characters; `[],` is 3 and `[[],[],…]` builds a 64-byte list for each)
MIN_NODE_BUDGET = 1024
# A value or key: a string literal (escapes included), an opening bracket, or a scalar.
_TOKEN = lazy_compile(r'"(?:[^"\\]|\\.)*+"|[\[{]|-?[0-9][0-9.eE+\-]*+|true|false|null')


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
    with gc_paused():  # a large document is thousands of containers: no collector passes mid-parse
        return _parse_json_text(text, source, limits)


def node_budget(limits: InputLimits, chars: int | None = None) -> int:
    """How many values and object keys a document of `chars` characters may hold: one per
    CHARS_PER_NODE characters, never more than one per BYTES_PER_NODE bytes of the size bound
    (raising `--max-file-mib` raises that ceiling), and never less than MIN_NODE_BUDGET. So what
    a document builds is bounded by its own size too: 9.7 MiB of `[]` under a 64 MiB bound is
    refused before a single list is built, instead of costing 535 MiB."""
    ceiling = max(MIN_NODE_BUDGET, limits.max_file_bytes // BYTES_PER_NODE)
    if chars is None:
        return ceiling
    return min(ceiling, max(MIN_NODE_BUDGET, chars // CHARS_PER_NODE))


def count_nodes(text: str, stop_after: int | None = None) -> int:
    """Values plus object keys of a JSON text (exact for valid JSON), without building them.

    Every container is one `[` or `{`, every string (value or key) one literal, every number,
    true, false or null one scalar. Outside strings each value or key but the first follows one
    of `[ { , :`, which gives a cheap upper bound; only a text over `stop_after` by that bound is
    counted token by token, and only up to `stop_after + 1` (enough to say it is over).
    Linear: one pass per count, possessive repetitions never backtrack."""
    bound = 1 + sum(text.count(c) for c in "[{,:")
    if stop_after is not None and bound <= stop_after:
        return bound
    # One token at a time (a string literal is consumed whole, so brackets and digits inside it
    # are not counted): nothing the size of the text is built, as `re.sub` would. Past
    # `stop_after` the answer is known ("over"), so counting stops there.
    tokens = _TOKEN.finditer(text)
    if stop_after is not None:
        return sum(1 for _ in itertools.islice(tokens, stop_after + 1))
    return sum(1 for _ in tokens)


def check_node_budget(text: str, source: str, limits: InputLimits) -> None:
    """InputError unless `text` holds at most its node budget of values and keys (a JSON
    document, or a JSON-lines file taken whole: its records together are what is built)."""
    _check_nodes(text, source, limits)


def _check_nodes(text: str, source: str, limits: InputLimits) -> None:
    budget = node_budget(limits, len(text))
    if count_nodes(text, stop_after=budget) > budget:
        raise InputError(
            f"more JSON values and keys than the node budget of {budget} (one per"
            f" {CHARS_PER_NODE} characters of the document, at most one per {BYTES_PER_NODE}"
            f" bytes of the {limits.max_file_bytes}-byte size bound)",
            source=source,
        )


def _parse_json_text(text: str, source: str, limits: InputLimits) -> Any:
    _check_nodes(text, source, limits)
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
    # Lone surrogates can only arrive as \\u escapes (UTF-8 decoding rejects raw ones).
    check_value(value, source, limits, may_have_surrogates="\\u" in text)
    return value


def check_value(
    value: Any, source: str, limits: InputLimits, *, may_have_surrogates: bool = True
) -> None:
    """Enforce the structural bounds. A fast walk without paths runs first; only when it finds a
    violation does a second walk run to name the JSON path (errors are rare, documents large)."""
    if not _violates(value, limits, may_have_surrogates):
        return
    _locate(value, source, limits)
    raise InputError("input violates a structural bound", source=source)  # unreachable in practice


def _bad_string(text: str, max_chars: int, surrogates: bool) -> bool:
    return len(text) > max_chars or (
        surrogates and not text.isascii() and _SURROGATE.search(text) is not None
    )


def _violates(value: Any, limits: InputLimits, surrogates: bool) -> bool:
    max_chars, max_depth = limits.max_string_chars, limits.max_depth
    if type(value) is str:
        return _bad_string(value, max_chars, surrogates)
    if type(value) not in _CONTAINERS:
        return False
    stack: list[tuple[Any, int]] = [(value, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        node, depth = pop()
        kind = type(node)
        if depth >= max_depth or kind is _DuplicateKeyObject:
            return True
        children = node.values() if kind is dict else node
        if kind is dict:
            for key in node:
                if len(key) > max_chars or (surrogates and _bad_string(key, max_chars, True)):
                    return True
        for child in children:
            ckind = type(child)
            if ckind is str:
                if len(child) > max_chars or (surrogates and _bad_string(child, max_chars, True)):
                    return True
            elif ckind is dict or ckind is list or ckind is _DuplicateKeyObject:
                push((child, depth + 1))
    return False


_CONTAINERS = frozenset({dict, list, str, _DuplicateKeyObject})


def _locate(value: Any, source: str, limits: InputLimits) -> None:
    """Walk again with paths and raise the first violation found."""
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

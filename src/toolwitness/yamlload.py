"""YAML loading: a fast loader for our own data files, a strict one for files users hand us.

Both are PyYAML *safe* loaders (plain data only), on libyaml's C parser when PyYAML has it: the
pure-Python parser needs minutes for a few MiB of hostile YAML, and our data files load ~10x faster.

`load_untrusted_yaml` is for attacker-controlled files (client configs, rule packs, suppressions):
one pass over the events first (one document, bounded node count and depth, no anchors or
aliases — alias expansion is how a small file becomes a huge value), then construction that
refuses duplicate keys, non-scalar keys, and numbers JSON would refuse: integers outside
±(2^53-1) — checked on the digits before `int()` runs, so a 5,000-digit integer is a clear error
and not CPython's 4,300-digit ValueError — and NaN or infinite floats.
"""

from __future__ import annotations

import math
from typing import Any

import yaml

from toolwitness import datacache
from toolwitness.errors import InputError

SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_YAML_EVENTS = 250_000  # a real config or rule pack has a few hundred
MAX_DEPTH = 64
MAX_SAFE_INT = 2**53 - 1
_MAX_INT_CHARS = 40  # far more than ±(2^53-1) in any YAML spelling; refused before int() runs
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"


def load_yaml(text: str) -> Any:
    """Our own shipped data files (trusted: validated by schema and tests), from their
    precompiled form when it holds this text (`datacache`)."""
    value = datacache.compiled(text)
    return parse_yaml(text) if datacache.is_missing(value) else value


def parse_yaml(text: str) -> Any:
    return yaml.load(text, Loader=SafeLoader)  # noqa: S506 - a safe loader (C when available)


class _StrictLoader(SafeLoader):  # type: ignore[valid-type,misc]
    """SafeLoader that refuses duplicate keys, aliases and out-of-range numbers."""


def _fail(node: yaml.Node, problem: str) -> yaml.constructor.ConstructorError:
    return yaml.constructor.ConstructorError(None, None, problem, node.start_mark)


def _int(loader: _StrictLoader, node: yaml.ScalarNode) -> Any:
    if len(str(node.value)) > _MAX_INT_CHARS:
        raise _fail(node, f"integer of {len(str(node.value))} characters (JSON limit ±(2^53-1))")
    value = SafeLoader.construct_yaml_int(loader, node)
    if isinstance(value, int) and abs(value) > MAX_SAFE_INT:
        raise _fail(node, "integer outside ±(2^53-1)")
    return value


def _float(loader: _StrictLoader, node: yaml.ScalarNode) -> Any:
    if len(str(node.value)) > 400:
        raise _fail(node, f"number of {len(str(node.value))} characters")
    value = SafeLoader.construct_yaml_float(loader, node)
    if isinstance(value, float) and not math.isfinite(value):
        raise _fail(node, "NaN or infinite number")
    return value


def _mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> Any:
    """Keys are strings, as in JSON: a scalar key YAML would resolve to a bool, number or null
    (`on:`, `1:`, `?`) keeps the text that was written; a collection key is refused."""
    loader.flatten_mapping(node)  # merge keys (`<<`) were refused with the aliases they need
    out: dict[str, Any] = {}
    for key_node, value_node in node.value:
        if not isinstance(key_node, yaml.ScalarNode):
            raise _fail(key_node, "mapping keys must be scalars")
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str):
            key = str(key_node.value)
        if key in out:
            raise _fail(key_node, f"duplicate key {key[:80]!r}")
        try:
            out[key] = loader.construct_object(value_node, deep=True)
        except yaml.constructor.ConstructorError as exc:
            if value_node.tag in (_INT_TAG, _FLOAT_TAG):
                raise _fail(value_node, f"key {key[:80]!r}: {exc.problem}") from None
            raise
    return out


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)
_StrictLoader.add_constructor(_INT_TAG, _int)
_StrictLoader.add_constructor(_FLOAT_TAG, _float)


def load_untrusted_yaml(
    text: str, source: str, *, max_depth: int = MAX_DEPTH, what: str = "file"
) -> Any:
    """Parse attacker-controlled YAML or raise InputError (exit 2) naming the file and place."""
    _prescan(text, source, max_depth, what)
    loader = _StrictLoader(text)
    try:
        return loader.get_single_data()
    except yaml.YAMLError as exc:
        raise InputError(f"not valid YAML: {yaml_message(exc)}", source=source) from None
    except (ValueError, RecursionError, MemoryError) as exc:  # defence in depth: never exit 3
        raise InputError(f"not valid YAML: {type(exc).__name__}", source=source) from None
    finally:
        loader.dispose()


def _prescan(text: str, source: str, max_depth: int, what: str) -> None:
    """One pass over the events before anything is built: no aliases, bounded depth, one doc."""
    scan = SafeLoader(text)
    depth = documents = events = 0
    try:
        while scan.check_event():
            event = scan.get_event()  # type: ignore[no-untyped-call]
            events += 1
            if events > MAX_YAML_EVENTS:
                raise InputError(f"more than {MAX_YAML_EVENTS} YAML nodes", source=source)
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise InputError(
                    f"anchors and aliases are not accepted in a {what}"
                    f" (line {event.start_mark.line + 1})",
                    source=source,
                )
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > max_depth:
                    raise InputError(f"nesting deeper than {max_depth} levels", source=source)
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
            elif isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise InputError("more than one YAML document", source=source)
    except yaml.YAMLError as exc:
        raise InputError(f"not valid YAML: {yaml_message(exc)}", source=source) from None
    finally:
        scan.dispose()


def yaml_message(exc: yaml.YAMLError) -> str:
    """One line: the problem and where (line, column)."""
    if isinstance(exc, yaml.MarkedYAMLError) and exc.problem_mark is not None:
        mark = exc.problem_mark
        return f"{exc.problem} (line {mark.line + 1}, column {mark.column + 1})"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__

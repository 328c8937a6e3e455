"""The strict YAML loader behind `yamlload.load_untrusted_yaml` (attacker-controlled files).

Kept apart from `yamlload` so that importing `yamlload` costs nothing: PyYAML (and this module)
load at the first YAML file parsed, and a catalog scan parses none (the shipped data files come
from their precompiled form, `datacache`).
"""

from __future__ import annotations

import math
from typing import Any

import yaml

from toolwitness.errors import InputError
from toolwitness.yamlload import MAX_DEPTH, MAX_SAFE_INT

SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

MAX_YAML_EVENTS = 250_000  # a real config or rule pack has a few hundred
_MAX_INT_CHARS = 40  # far more than ±(2^53-1) in any YAML spelling; refused before int() runs
_INT_TAG = "tag:yaml.org,2002:int"
_FLOAT_TAG = "tag:yaml.org,2002:float"


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


def load_strict(text: str, source: str, *, max_depth: int = MAX_DEPTH, what: str = "file") -> Any:
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

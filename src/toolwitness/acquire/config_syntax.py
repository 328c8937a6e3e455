"""Read a client config file as hostile input: JSON (strict), JSONC, YAML or TOML, all bounded.

Every syntax ends in the same structural walk as JSON catalogs (`check_value`: depth, string
length, lone surrogates). YAML is read with a safe loader that also rejects duplicate keys and
anchors/aliases (configs never need them; alias expansion is how a small file becomes a huge
value). TOML rejects duplicate keys itself.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import yaml

from toolwitness.acquire.hostile_json import check_value, parse_json_bytes, parse_json_text
from toolwitness.acquire.jsonc import strip_jsonc
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import InputError

SYNTAXES = ("json", "jsonc", "yaml", "toml")
MAX_TOML_BYTES = 2 * 1024 * 1024  # a real Codex config.toml is a few KiB


def syntax_for(path: Path) -> str:
    suffix = path.suffix.lower()
    if suffix in (".yaml", ".yml"):
        return "yaml"
    if suffix == ".toml":
        return "toml"
    if suffix == ".jsonc":
        return "jsonc"
    return "json"


def read_bounded(path: Path, limits: InputLimits) -> bytes:
    source = str(path)
    try:
        size = path.stat().st_size
        if size > limits.max_file_bytes:
            raise InputError(
                f"file is {size} bytes, over the {limits.max_file_bytes}-byte limit", source=source
            )
        with path.open("rb") as handle:  # re-check: the file may grow between stat and read
            data = handle.read(limits.max_file_bytes + 1)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", source=source) from None
    if len(data) > limits.max_file_bytes:
        raise InputError(f"file is over the {limits.max_file_bytes}-byte limit", source=source)
    return data


def _text(data: bytes, source: str) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 (invalid byte at offset {exc.start})", source=source) from None


def parse_config_bytes(data: bytes, syntax: str, source: str, limits: InputLimits) -> Any:
    """Parse `data`; for `json`, fall back to JSONC only when strict JSON fails."""
    if len(data) > limits.max_file_bytes:
        raise InputError(
            f"file is {len(data)} bytes, over the {limits.max_file_bytes}-byte limit", source=source
        )
    if syntax == "json":
        try:
            return parse_json_bytes(data, source, limits)
        except InputError as strict_error:
            if "not valid JSON" not in strict_error.reason:
                raise
            try:
                return parse_json_text(strip_jsonc(_text(data, source), source), source, limits)
            except InputError:
                raise strict_error from None
    text = _text(data, source)
    if syntax == "jsonc":
        return parse_json_text(strip_jsonc(text, source), source, limits)
    if syntax == "toml":
        if len(data) > MAX_TOML_BYTES:  # tomllib is pure Python: ~1 s of CPU per MiB
            raise InputError(
                f"TOML config is {len(data)} bytes, over the {MAX_TOML_BYTES}-byte limit",
                source=source,
            )
        try:
            doc: Any = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise InputError(f"not valid TOML: {exc}", source=source) from None
        except RecursionError:
            raise InputError(
                f"nesting deeper than {limits.max_depth} levels", source=source
            ) from None
    elif syntax == "yaml":
        doc = _load_yaml(text, source, limits)
    else:
        raise InputError(f"unknown config syntax {syntax!r}", source=source)
    check_value(doc, source, limits)
    return doc


# libyaml's C parser when PyYAML was built with it (it is on every mainstream wheel): the pure
# Python parser needs minutes for a few MiB of hostile YAML.
_BaseLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
MAX_YAML_EVENTS = 250_000  # a real config has a few hundred


class _StrictLoader(_BaseLoader):  # type: ignore[valid-type,misc]
    """SafeLoader that refuses duplicate keys and anchors/aliases."""


def _no_alias(loader: _StrictLoader, node: yaml.Node) -> Any:
    raise yaml.constructor.ConstructorError(
        None, None, "anchors and aliases are not accepted in a client config", node.start_mark
    )


def _mapping(loader: _StrictLoader, node: yaml.MappingNode, deep: bool = False) -> Any:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, (str, int, float, bool)) and key is not None:
            raise yaml.constructor.ConstructorError(
                None, None, "mapping keys must be scalars", key_node.start_mark
            )
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r}", key_node.start_mark
            )
        seen.add(key)
    return loader.construct_mapping(node, deep=deep)


_StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _mapping)


def _load_yaml(text: str, source: str, limits: InputLimits) -> Any:
    _prescan_yaml(text, source, limits)
    loader = _StrictLoader(text)
    try:
        return loader.get_single_data()
    except yaml.YAMLError as exc:
        raise InputError(f"not valid YAML: {_yaml_message(exc)}", source=source) from None
    finally:
        loader.dispose()


def _prescan_yaml(text: str, source: str, limits: InputLimits) -> None:
    """One pass over the events before anything is built: no aliases, bounded depth, one doc."""
    scan = _BaseLoader(text)
    depth = 0
    documents = 0
    events = 0
    try:
        while scan.check_event():
            event = scan.get_event()  # type: ignore[no-untyped-call]
            events += 1
            if events > MAX_YAML_EVENTS:
                raise InputError(f"more than {MAX_YAML_EVENTS} YAML nodes", source=source)
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise InputError(
                    "anchors and aliases are not accepted in a client config"
                    f" (line {event.start_mark.line + 1})",
                    source=source,
                )
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > limits.max_depth:
                    raise InputError(
                        f"nesting deeper than {limits.max_depth} levels", source=source
                    )
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
            elif isinstance(event, yaml.DocumentStartEvent):
                documents += 1
                if documents > 1:
                    raise InputError("more than one YAML document", source=source)
    except yaml.YAMLError as exc:
        raise InputError(f"not valid YAML: {_yaml_message(exc)}", source=source) from None
    finally:
        scan.dispose()


def _yaml_message(exc: yaml.YAMLError) -> str:
    if isinstance(exc, yaml.MarkedYAMLError) and exc.problem_mark is not None:
        mark = exc.problem_mark
        return f"{exc.problem} (line {mark.line + 1}, column {mark.column + 1})"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__

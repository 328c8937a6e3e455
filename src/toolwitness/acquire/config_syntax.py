"""Read a client config file as hostile input: JSON (strict), JSONC, YAML or TOML, all bounded.

Every syntax ends in the same structural walk as JSON catalogs (`check_value`: depth, string
length, lone surrogates). YAML is read with a safe loader that also rejects duplicate keys and
anchors/aliases (configs never need them; alias expansion is how a small file becomes a huge
value). TOML rejects duplicate keys itself.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from toolwitness import paths
from toolwitness.acquire.hostile_json import check_value, parse_json_bytes, parse_json_text
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import InputError
from toolwitness.files import read_regular
from toolwitness.lazyre import lazy_compile
from toolwitness.yamlload import MAX_SAFE_INT, load_untrusted_yaml

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
    return read_regular(path, limits.max_file_bytes)


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
                return parse_json_text(_strip_jsonc(_text(data, source), source), source, limits)
            except InputError:
                raise strict_error from None
    text = _text(data, source)
    if syntax == "jsonc":
        return parse_json_text(_strip_jsonc(text, source), source, limits)
    if syntax == "toml":
        if len(data) > MAX_TOML_BYTES:  # tomllib is pure Python: ~1 s of CPU per MiB
            raise InputError(
                f"TOML config is {len(data)} bytes, over the {MAX_TOML_BYTES}-byte limit",
                source=source,
            )
        doc: Any = _load_toml(text, source, limits)
    elif syntax == "yaml":
        doc = _load_yaml(text, source, limits)
    else:
        raise InputError(f"unknown config syntax {syntax!r}", source=source)
    check_value(doc, source, limits)
    return doc


def _strip_jsonc(text: str, source: str) -> str:
    from toolwitness.acquire.jsonc import strip_jsonc  # a JSONC file only

    return strip_jsonc(text, source)


def _load_yaml(text: str, source: str, limits: InputLimits) -> Any:
    return load_untrusted_yaml(text, source, max_depth=limits.max_depth, what="client config")


def _load_toml(text: str, source: str, limits: InputLimits) -> Any:
    import tomllib  # a TOML file only: a catalog scan reads none

    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"not valid TOML: {exc}", source=source) from None
    except RecursionError:
        raise InputError(f"nesting deeper than {limits.max_depth} levels", source=source) from None
    except ValueError:  # CPython refuses int() of more than 4,300 digits
        raise InputError(f"not valid TOML: {_long_number(text)}", source=source) from None
    _check_toml_numbers(doc, source, "$")
    return doc


_LONG_DIGITS = lazy_compile(r"^[ \t]*([^=\n]{1,200}?)[ \t]*=[ \t]*[+-]?[0-9_]{40}", re.M)


def _long_number(text: str) -> str:
    match = _LONG_DIGITS.search(text)
    if match is None:
        return "a number too long to read"
    line = text.count("\n", 0, match.start()) + 1
    return f"key {match.group(1).strip()[:80]!r} (line {line}): integer outside ±(2^53-1)"


def _check_toml_numbers(value: Any, source: str, path: str) -> None:
    """TOML numbers obey the JSON bounds, like every other config syntax."""
    stack: list[tuple[Any, str]] = [(value, path)]
    while stack:
        node, where = stack.pop()
        if isinstance(node, bool):
            continue
        if isinstance(node, int) and abs(node) > MAX_SAFE_INT:
            raise InputError("integer outside ±(2^53-1)", source=source, path=where)
        if isinstance(node, float) and not math.isfinite(node):
            raise InputError("NaN or infinite number", source=source, path=where)
        if isinstance(node, dict):
            stack.extend((v, paths.child(where, str(k))) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(node))

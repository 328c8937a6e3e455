"""YAML loading: a fast loader for our own data files, a strict one for files users hand us.

Both are PyYAML *safe* loaders (plain data only), on libyaml's C parser when PyYAML has it: the
pure-Python parser needs minutes for a few MiB of hostile YAML, and our data files load ~10x faster.

`load_untrusted_yaml` is for attacker-controlled files (client configs, rule packs, suppressions):
one pass over the events first (one document, bounded node count and depth, no anchors or
aliases — alias expansion is how a small file becomes a huge value), then construction that
refuses duplicate keys, non-scalar keys, and numbers JSON would refuse: integers outside
±(2^53-1) — checked on the digits before `int()` runs, so a 5,000-digit integer is a clear error
and not CPython's 4,300-digit ValueError — and NaN or infinite floats (`yamlstrict`).

PyYAML itself loads at the first YAML text parsed: a catalog scan parses none (every shipped
data file is served precompiled by `datacache`), so importing this module costs nothing.
"""

from __future__ import annotations

import sys
from typing import Any

from toolwitness import datacache

MAX_DEPTH = 64
MAX_SAFE_INT = 2**53 - 1


def load_yaml(text: str) -> Any:
    """Our own shipped data files (trusted: validated by schema and tests), from their
    precompiled form when it holds this text (`datacache`)."""
    value = datacache.compiled(text)
    return parse_yaml(text) if datacache.is_missing(value) else value


def parse_yaml(text: str) -> Any:
    import yaml  # on first use: a scan whose data files are all precompiled never needs PyYAML

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(text, Loader=loader)  # noqa: S506 - a safe loader (C when available)


def load_untrusted_yaml(
    text: str, source: str, *, max_depth: int = MAX_DEPTH, what: str = "file"
) -> Any:
    """Parse attacker-controlled YAML or raise InputError (exit 2) naming the file and place."""
    from toolwitness.yamlstrict import load_strict

    return load_strict(text, source, max_depth=max_depth, what=what)


def is_yaml_error(exc: BaseException) -> bool:
    """Whether `exc` is PyYAML's error (False while PyYAML is not even loaded: nothing parsed)."""
    yaml = sys.modules.get("yaml")
    return yaml is not None and isinstance(exc, yaml.YAMLError)

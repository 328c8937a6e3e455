"""Every string of a parsed JSON value, keys included (test support for tests that read the
corpus or generated catalogs as a bag of texts)."""

from __future__ import annotations


def json_strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*json_strings(k), *json_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in json_strings(v)]
    return []

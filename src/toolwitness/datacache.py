"""Our shipped YAML data files, read from a precompiled form: the JSON of each file's value,
keyed by the SHA-256 of its text, in one generated file (`data/compiled-yaml.txt`).

A catalog scan reads some twenty data files; PyYAML builds their values in Python (the C parser
only tokenises), which cost more than the scan of a small catalog. `json.loads` of the same value
is C all the way. The key is the file's content, so an edited data file simply misses the table
and is parsed as YAML (right, only slower) until the table is rebuilt:

    .venv/bin/python -m toolwitness.datacache

(`tests/test_datacache.py` fails while the table is stale). Only values JSON carries exactly
(strings, integers, floats, booleans, null, lists, string-keyed mappings; checked type by type)
are compiled. Each load returns a fresh value, as YAML parsing did.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from toolwitness import sha

DATA = Path(__file__).resolve().parent / "data"
TABLE = DATA / "compiled-yaml.txt"
_MISSING = object()


def text_key(text: str) -> str:
    return sha.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@lru_cache(maxsize=1)
def _table() -> dict[str, str]:
    try:
        raw = TABLE.read_text("utf-8")
    except OSError:  # not built: every file is parsed as YAML
        return {}
    entries = (line.partition(" ") for line in raw.splitlines())
    return {key: body for key, _, body in entries}


def compiled(text: str) -> Any:
    """The value of the data file `text`, or `MISSING` when the table does not hold it."""
    body = _table().get(text_key(text))
    return _MISSING if body is None else json.loads(body)


def is_missing(value: Any) -> bool:
    return value is _MISSING


def same_value(a: Any, b: Any) -> bool:
    """Equal and of the same types throughout (JSON keeps 1, 1.0 and True apart; `==` does not)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same_value(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_value(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b) and (a is None or isinstance(a, (str, int, float, bool)))


def build_lines() -> list[str]:
    """One `<sha256> <JSON>` line per shipped YAML data file whose value JSON carries exactly."""
    from toolwitness.yamlload import parse_yaml

    lines = {}
    for path in sorted(DATA.rglob("*.yaml")):
        text = path.read_text("utf-8")
        value = parse_yaml(text)
        body = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        if "\n" not in body and same_value(json.loads(body), value):
            lines[text_key(text)] = body
    return [f"{key} {body}" for key, body in sorted(lines.items())]


def main() -> None:
    TABLE.write_text("".join(line + "\n" for line in build_lines()), "utf-8")


if __name__ == "__main__":
    main()

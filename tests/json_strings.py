"""Every string of a parsed JSON value, keys included (test support for tests that read the
corpus or generated catalogs as a bag of texts)."""

from __future__ import annotations

import json
from pathlib import Path

# The blind sets frozen and not yet scored: no test reads their text (unseen data).
WITHHELD = frozenset({"blind-2026-12-10"})


def json_strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*json_strings(k), *json_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in json_strings(v)]
    return []


def corpus_strings(root: Path, blind: bool = True) -> set[str]:
    """Every string of the corpus's JSON files (labelled sets and their catalogs) but the
    withheld blind set's (with `blind=False`, no blind set's at all), and of the real servers'
    catalogs in `tests/fixtures/real`."""
    texts: set[str] = set()
    for path in sorted((root / "corpus").glob("**/*.json")):
        kept = blind or not any(part.startswith("blind-") for part in path.parts)
        if kept and WITHHELD.isdisjoint(path.parts):
            texts.update(json_strings(json.loads(path.read_text("utf-8"))))
    for path in sorted((root / "tests" / "fixtures" / "real").glob("*.json")):
        texts.update(json_strings(json.loads(path.read_text("utf-8"))))
    return texts

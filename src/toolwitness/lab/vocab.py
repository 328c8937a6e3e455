"""The lab's word lists (`data/lab.yaml`), validated once."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from toolwitness.errors import InternalError
from toolwitness.yamlload import load_yaml

_KEYS = (
    "path_words",
    "dir_words",
    "read_name_words",
    "blocking_roles",
    "absent_phrases",
)
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SPLIT = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class LabVocabulary:
    path_words: frozenset[str]
    dir_words: frozenset[str]
    read_name_words: frozenset[str]
    blocking_roles: frozenset[str]
    absent_phrases: tuple[str, ...]


@lru_cache(maxsize=1)
def vocabulary() -> LabVocabulary:
    text = resources.files("toolwitness.data").joinpath("lab.yaml").read_text(encoding="utf-8")
    doc = load_yaml(text)
    if not isinstance(doc, dict):
        raise InternalError("data/lab.yaml is not a mapping")
    lists: dict[str, list[str]] = {}
    for key in _KEYS:
        value = doc.get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise InternalError(f"data/lab.yaml: {key} must be a list of non-empty strings")
        lists[key] = [v.lower() for v in value]
    return LabVocabulary(
        path_words=frozenset(lists["path_words"]),
        dir_words=frozenset(lists["dir_words"]),
        read_name_words=frozenset(lists["read_name_words"]),
        blocking_roles=frozenset(lists["blocking_roles"]),
        absent_phrases=tuple(lists["absent_phrases"]),
    )


def words(name: str) -> list[str]:
    """`filePath`, `repo_path`, `read-text-file` -> lowercase words."""
    return [w for w in _SPLIT.split(_CAMEL.sub("_", name).lower()) if w]

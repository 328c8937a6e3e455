"""The lab's word lists and value tables (`data/lab.yaml`), validated once."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from toolwitness.datafiles import data_files
from toolwitness.errors import InternalError
from toolwitness.yamlload import load_yaml

_LISTS = (
    "path_words", "dir_words", "weak_path_words", "path_nouns", "relative_cues",
    "read_name_words", "blocking_roles", "absent_phrases", "user_names", "project_names",
    "file_nouns", "example_cues", "client_names",
)  # fmt: skip
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_SPLIT = re.compile(r"[^a-z0-9]+")


@dataclass(frozen=True)
class LabVocabulary:
    path_words: frozenset[str]
    dir_words: frozenset[str]
    weak_path_words: frozenset[str]
    path_nouns: frozenset[str]
    relative_cues: tuple[str, ...]
    read_name_words: frozenset[str]
    blocking_roles: frozenset[str]
    absent_phrases: tuple[str, ...]
    user_names: tuple[str, ...]
    project_names: tuple[str, ...]
    file_nouns: tuple[str, ...]
    example_cues: tuple[str, ...]
    client_names: tuple[str, ...]
    format_values: dict[str, str]
    templates: dict[str, str]
    value_hints: dict[str, tuple[str, ...]]
    bait_nouns: dict[str, tuple[str, ...]]


def _table(doc: dict[str, Any], key: str, listed: bool) -> dict[str, Any]:
    value = doc.get(key)
    ok = isinstance(value, dict) and all(
        isinstance(k, str)
        and (
            isinstance(v, list) and v and all(isinstance(i, str) for i in v)
            if listed
            else isinstance(v, str)
        )
        for k, v in value.items()
    )
    if not ok:
        raise InternalError(
            f"data/lab.yaml: {key} must map words to {'lists' if listed else 'strings'}"
        )
    assert isinstance(value, dict)
    return {k.lower() if listed else k: tuple(v) if listed else v for k, v in value.items()}


@lru_cache(maxsize=1)
def vocabulary() -> LabVocabulary:
    text = data_files().joinpath("lab.yaml").read_text(encoding="utf-8")
    doc = load_yaml(text)
    if not isinstance(doc, dict):
        raise InternalError("data/lab.yaml is not a mapping")
    lists: dict[str, list[str]] = {}
    for key in _LISTS:
        value = doc.get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise InternalError(f"data/lab.yaml: {key} must be a list of non-empty strings")
        lists[key] = [v.lower() for v in value]
    return LabVocabulary(
        path_words=frozenset(lists["path_words"]),
        dir_words=frozenset(lists["dir_words"]),
        weak_path_words=frozenset(lists["weak_path_words"]),
        path_nouns=frozenset(lists["path_nouns"]),
        read_name_words=frozenset(lists["read_name_words"]),
        blocking_roles=frozenset(lists["blocking_roles"]),
        relative_cues=tuple(lists["relative_cues"]),
        absent_phrases=tuple(lists["absent_phrases"]),
        user_names=tuple(lists["user_names"]),
        project_names=tuple(lists["project_names"]),
        file_nouns=tuple(lists["file_nouns"]),
        example_cues=tuple(lists["example_cues"]),
        client_names=tuple(lists["client_names"]),
        format_values=_table(doc, "format_values", listed=False),
        templates=_table(doc, "templates", listed=False),
        value_hints=_table(doc, "value_hints", listed=True),
        bait_nouns=_table(doc, "bait_nouns", listed=True),
    )


def words(name: str) -> list[str]:
    """`filePath`, `repo_path`, `read-text-file` -> lowercase words."""
    return [w for w in _SPLIT.split(_CAMEL.sub("_", name).lower()) if w]

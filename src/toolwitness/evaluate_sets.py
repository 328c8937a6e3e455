"""Labelled sets for `toolwitness evaluate`: our corpus manifest and flat labels files.

- `toolwitness.corpus/1` (ours): {"schema", "catalogs": {stem: relative path}, "tools":
  {"<stem>::<tool>": {"label": "malicious"|"benign", "family"?, "borderline"?, "split"}}}
- a flat labels file: {"<stem>::<tool>": "benign"|"suspicious"|"malicious"}, catalogs in
  `catalogs/<stem>.json` next to it (the layout of external labelled sets). A sibling
  `meta.json` may give each key a `family` (a string) or `categories` (a list): the families
  of the per-family table (a tool counts in each of its categories).

Every problem is an `InputError` (exit 2); files are read with the project's strict JSON reader.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from toolwitness.acquire.hostile_json import parse_json_bytes
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import InputError
from toolwitness.files import read_regular

CORPUS_SCHEMA = "toolwitness.corpus/1"
_POSITIVE = {"malicious", "suspicious"}
_NEGATIVE = {"benign"}
_MAX_MANIFEST_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class LabelledTool:
    key: str  # "<catalog stem>::<tool>"
    catalog: str
    tool: str
    malicious: bool
    family: str | None
    split: str
    borderline: str | None = None
    categories: tuple[str, ...] = ()  # per-family table: malicious families or benign kinds


@dataclass(frozen=True)
class LabelledSet:
    source: str
    catalogs: dict[str, Path]
    tools: tuple[LabelledTool, ...]
    family_source: str = "manifest"  # manifest | meta.json | labels
    files: tuple[Path, ...] = ()  # the manifest and every file it names (the corpus digest)


def read_json(path: Path) -> Any:
    """The project's strict JSON reader: a duplicate key (a label silently replaced), NaN, an
    overlong string or too deep a nesting is refused with its path, like any catalog."""
    data = read_regular(path, _MAX_MANIFEST_BYTES, what="manifest")
    return parse_json_bytes(data, str(path), InputLimits(max_file_bytes=_MAX_MANIFEST_BYTES))


def _split_key(key: str, source: str) -> tuple[str, str]:
    catalog, sep, tool = key.partition("::")
    if not sep or not catalog or not tool:
        raise InputError(
            "tool keys must read '<catalog>::<tool>'", source=source, path=f"$[{key!r}]"
        )
    return catalog, tool


def _corpus_tools(doc: dict[str, Any], source: str) -> Iterable[LabelledTool]:
    tools = doc.get("tools")
    if not isinstance(tools, dict) or not tools:
        raise InputError("'tools' must be a non-empty object", source=source, path="$.tools")
    for key, entry in sorted(tools.items()):
        where = f"$.tools[{key!r}]"
        if not isinstance(entry, dict):
            raise InputError("each tool entry must be an object", source=source, path=where)
        label, split = entry.get("label"), entry.get("split", "dev")
        if label not in _POSITIVE | _NEGATIVE:
            raise InputError(
                f"label must be malicious or benign, not {label!r}", source=source, path=where
            )
        if split not in ("dev", "holdout"):
            raise InputError(
                f"split must be dev or holdout, not {split!r}", source=source, path=where
            )
        family = entry.get("family")
        if label in _POSITIVE and not isinstance(family, str):
            raise InputError("a malicious tool needs a family", source=source, path=where)
        catalog, tool = _split_key(key, source)
        border = entry.get("borderline")
        kinds: tuple[str, ...] = (family,) if isinstance(family, str) and label in _POSITIVE else ()
        if label not in _POSITIVE and isinstance(border, str):
            kinds = (border,)
        yield LabelledTool(key, catalog, tool, label in _POSITIVE, family, split, border, kinds)


def load_labelled_set(path: Path) -> LabelledSet:
    """Read either manifest format; every problem is an InputError (exit 2)."""
    extra: tuple[Path, ...]
    doc = read_json(path)
    source = str(path)
    base = path.parent
    if not isinstance(doc, dict):
        raise InputError("manifest must be a JSON object", source=source)
    if doc.get("schema") == CORPUS_SCHEMA:
        listed = doc.get("catalogs")
        if not isinstance(listed, dict) or not all(isinstance(v, str) for v in listed.values()):
            raise InputError(
                "'catalogs' must map catalog names to paths", source=source, path="$.catalogs"
            )
        catalogs = {name: base / rel for name, rel in listed.items()}
        tools = tuple(_corpus_tools(doc, source))
        family_source, extra = "manifest", ()
    elif "schema" in doc:
        raise InputError(
            f"unknown manifest schema {doc['schema']!r}", source=source, path="$.schema"
        )
    else:
        entries = []
        for key, label in sorted(doc.items()):
            if not isinstance(label, str) or label not in _POSITIVE | _NEGATIVE:
                raise InputError(
                    f"label must be benign, suspicious or malicious, not {label!r}",
                    source=source,
                    path=f"$[{key!r}]",
                )
            catalog, tool = _split_key(key, source)
            positive = label in _POSITIVE
            entries.append(
                LabelledTool(key, catalog, tool, positive, label if positive else None, "dev")
            )
        if not entries:
            raise InputError("the labels file is empty", source=source)
        meta_path = base / "meta.json"
        families = _meta_families(meta_path) if meta_path.is_file() else {}
        tools = tuple(
            replace(t, categories=families.get(t.key) or ((t.family,) if t.family else ()))
            for t in entries
        )
        family_source = "meta.json" if families else "labels"
        extra = (meta_path,) if meta_path.is_file() else ()
        catalogs = {t.catalog: base / "catalogs" / f"{t.catalog}.json" for t in tools}
    for entry in tools:
        if entry.catalog not in catalogs:
            raise InputError(f"tool {entry.key!r} names an unlisted catalog", source=source)
    named = sorted({catalogs[t.catalog] for t in tools})
    return LabelledSet(source, catalogs, tools, family_source, (path, *extra, *named))


_MAX_CATEGORIES = 16


def _meta_families(path: Path) -> dict[str, tuple[str, ...]]:
    """key -> its families, from a sibling meta.json (`family` or `categories` per key)."""
    doc = read_json(path)
    if not isinstance(doc, dict):
        raise InputError("meta.json must be an object", source=str(path))
    out: dict[str, tuple[str, ...]] = {}
    for key, entry in doc.items():
        if not isinstance(entry, dict):
            continue
        found = entry.get("categories")
        if isinstance(entry.get("family"), str):
            found = [entry["family"]]
        if found is None:
            continue
        if (
            not isinstance(found, list)
            or len(found) > _MAX_CATEGORIES
            or not all(isinstance(c, str) and 0 < len(c) <= 64 for c in found)
        ):
            raise InputError(
                "family must be a string and categories a short list of strings",
                source=str(path),
                path=f"$[{key!r}]",
            )
        out[key] = tuple(dict.fromkeys(found))
    return out

"""Measure detection against a labelled set: confusion counts, rates and Wilson intervals.

Two manifest formats are read:
- `toolwitness.corpus/1` (ours): {"schema", "catalogs": {stem: relative path}, "tools":
  {"<stem>::<tool>": {"label": "malicious"|"benign", "family"?, "borderline"?, "split"}}}
- a flat labels file: {"<stem>::<tool>": "benign"|"suspicious"|"malicious"}, catalogs in
  `catalogs/<stem>.json` next to it (the layout of external labelled sets).

Each catalog is scanned on its own (a server is judged by itself, as a user scanning it would),
through the full pipeline; a tool is predicted malicious when it is flagged (a finding of
severity >= medium names it). The library never prints.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolwitness.acquire.catalog import load_catalog_file
from toolwitness.acquire.hostile_json import parse_json_bytes
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import InputError
from toolwitness.files import read_regular
from toolwitness.pipeline import ScanOptions, scan_surfaces

CORPUS_SCHEMA = "toolwitness.corpus/1"
REPORT_SCHEMA = "toolwitness.evaluation/1"
SPLITS = ("dev", "holdout", "all")
_POSITIVE = {"malicious", "suspicious"}
_NEGATIVE = {"benign"}
_MAX_MANIFEST_BYTES = 16 * 1024 * 1024
Z95 = 1.959963984540054


def wilson(successes: int, total: int, z: float = Z95) -> tuple[float, float] | None:
    """Wilson score interval for a binomial proportion; None when there are no trials."""
    if total <= 0:
        return None
    if not 0 <= successes <= total:
        raise ValueError("successes must lie in [0, total]")
    p = successes / total
    denom = 1 + z * z / total
    centre = (p + z * z / (2 * total)) / denom
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class LabelledTool:
    key: str  # "<catalog stem>::<tool>"
    catalog: str
    tool: str
    malicious: bool
    family: str | None
    split: str
    borderline: str | None = None


@dataclass(frozen=True)
class LabelledSet:
    source: str
    catalogs: dict[str, Path]
    tools: tuple[LabelledTool, ...]


@dataclass
class Confusion:
    tp: int = 0
    fp: int = 0
    tn: int = 0
    fn: int = 0

    def add(self, malicious: bool, flagged: bool) -> None:
        if malicious:
            self.tp += flagged
            self.fn += not flagged
        else:
            self.fp += flagged
            self.tn += not flagged

    def rate(self, num: int, den: int) -> dict[str, Any]:
        interval = wilson(num, den)
        return {
            "value": None if den == 0 else round(num / den, 4),
            "n": den,
            "ci95": None if interval is None else [round(interval[0], 4), round(interval[1], 4)],
        }

    def metrics(self) -> dict[str, Any]:
        precision = self.rate(self.tp, self.tp + self.fp)
        recall = self.rate(self.tp, self.tp + self.fn)
        p, r = precision["value"], recall["value"]
        f1 = None if not p or not r else round(2 * p * r / (p + r), 4)
        return {
            "tp": self.tp, "fp": self.fp, "tn": self.tn, "fn": self.fn,
            "precision": precision, "recall": recall, "f1": f1,
            "false_positive_rate": self.rate(self.fp, self.fp + self.tn),
        }  # fmt: skip


@dataclass
class Evaluation:
    manifest: str
    split: str
    overall: Confusion = field(default_factory=Confusion)
    families: dict[str, Confusion] = field(default_factory=dict)
    borderline: dict[str, Confusion] = field(default_factory=dict)
    false_negatives: list[str] = field(default_factory=list)
    false_positives: list[str] = field(default_factory=list)
    incomplete: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": REPORT_SCHEMA,
            "manifest": self.manifest,
            "split": self.split,
            "overall": self.overall.metrics(),
            "families": {k: self.families[k].metrics() for k in sorted(self.families)},
            "borderline": {k: self.borderline[k].metrics() for k in sorted(self.borderline)},
            "false_negatives": sorted(self.false_negatives),
            "false_positives": sorted(self.false_positives),
            "incomplete": sorted(self.incomplete),
        }


def _read_json(path: Path) -> Any:
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
        yield LabelledTool(
            key, catalog, tool, label in _POSITIVE, family, split, entry.get("borderline")
        )


def load_labelled_set(path: Path) -> LabelledSet:
    """Read either manifest format; every problem is an InputError (exit 2)."""
    doc = _read_json(path)
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
        tools = tuple(entries)
        catalogs = {t.catalog: base / "catalogs" / f"{t.catalog}.json" for t in tools}
    for entry in tools:
        if entry.catalog not in catalogs:
            raise InputError(f"tool {entry.key!r} names an unlisted catalog", source=source)
    return LabelledSet(source=source, catalogs=catalogs, tools=tools)


def flagged_by_catalog(
    labelled: LabelledSet, names: Iterable[str], options: ScanOptions
) -> tuple[dict[str, set[str]], list[str]]:
    """Scan each named catalog alone; return its flagged tools and the incomplete catalogs."""
    flagged: dict[str, set[str]] = {}
    incomplete: list[str] = []
    for name in sorted(set(names)):
        path = labelled.catalogs[name]
        if not path.is_file():
            raise InputError(f"catalog {name!r} not found at {path}", source=labelled.source)
        surface = load_catalog_file(path, server_id=name, limits=InputLimits())
        result = scan_surfaces([surface], options)
        server = result.servers[0]
        flagged[name] = server.flagged_tools()
        if server.incomplete:
            incomplete.append(name)
        present = {t.name for t in surface.tools}
        missing = sorted(
            t.tool for t in labelled.tools if t.catalog == name and t.tool not in present
        )
        if missing:
            raise InputError(f"catalog {name!r} has no tool {missing[0]!r}", source=labelled.source)
    return flagged, incomplete


def evaluate(
    labelled: LabelledSet, split: str = "all", options: ScanOptions | None = None
) -> Evaluation:
    if split not in SPLITS:
        raise InputError(f"split must be one of {', '.join(SPLITS)}")
    chosen = [t for t in labelled.tools if split in ("all", t.split)]
    if not chosen:
        raise InputError(f"no labelled tools in split {split!r}", source=labelled.source)
    flagged, incomplete = flagged_by_catalog(
        labelled, (t.catalog for t in chosen), options or ScanOptions()
    )
    result = Evaluation(manifest=labelled.source, split=split, incomplete=incomplete)
    for tool in chosen:
        hit = tool.tool in flagged[tool.catalog]
        result.overall.add(tool.malicious, hit)
        if tool.malicious:
            result.families.setdefault(tool.family or "unlabelled", Confusion()).add(True, hit)
            if not hit:
                result.false_negatives.append(tool.key)
        else:
            if tool.borderline:
                result.borderline.setdefault(tool.borderline, Confusion()).add(False, hit)
            if hit:
                result.false_positives.append(tool.key)
    return result

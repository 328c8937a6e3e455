"""Measure detection against a labelled set: confusion counts, rates and Wilson intervals.

Labelled sets are read by `evaluate_sets` (our corpus manifest, or a flat labels file with an
optional `meta.json` of families); runs are kept and compared by `evaluate_runs`.

Each catalog is scanned on its own (a server is judged by itself, as a user scanning it would),
through the full pipeline; a tool is predicted malicious when it is flagged (a finding of
severity >= the threshold, medium by default, names it). Ablation (`ablate`) removes a rule
family or a rule from what flags a tool; checks never read each other's findings, so that equals
a scan without it, and one scan serves every ablation. The library never prints.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from toolwitness.acquire.catalog import load_catalog_file
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import InputError
from toolwitness.evaluate_sets import (
    CORPUS_SCHEMA,
    LabelledSet,
    LabelledTool,
    load_labelled_set,
)
from toolwitness.findings import Severity
from toolwitness.pipeline import ScanOptions, scan_surfaces
from toolwitness.rules import FAMILIES, RuleRegistry, load_registry

__all__ = [
    "CORPUS_SCHEMA",
    "PACKAGE_RULES",
    "REPORT_SCHEMA",
    "SPLITS",
    "Ablation",
    "Confusion",
    "Evaluation",
    "LabelledSet",
    "LabelledTool",
    "check_ablation",
    "evaluate",
    "findings_by_catalog",
    "flagged_by_catalog",
    "load_labelled_set",
    "wilson",
]

REPORT_SCHEMA = "toolwitness.evaluation/1"
# Server-level findings (tool = null) that judge the package the server *is* — a known-vulnerable
# version, an imitated package or dependency name: every tool of that server runs that package,
# so evaluation counts each of them as flagged by it (one explicit rule, docs/evaluation.md).
# Pinning (TW-SUP-001), registry metadata and META findings stay server-level only. The JSON
# report is unchanged: these findings still carry tool = null there.
PACKAGE_RULES = frozenset(
    {"TW-NET-007", "TW-SUP-002", "TW-SUP-003", "TW-SUP-004", "TW-SUP-005", "TW-SUP-006"}
)
SPLITS = ("dev", "holdout", "all")
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
class Ablation:
    remove: str  # a rule family (CAP) or a rule id (TW-CAP-014)
    overall: Confusion = field(default_factory=Confusion)
    lost: list[str] = field(default_factory=list)  # attacks no longer flagged
    cleared: list[str] = field(default_factory=list)  # false positives no longer flagged

    def to_json(self, full: Confusion) -> dict[str, Any]:
        mine, base = self.overall.metrics(), full.metrics()
        delta = {
            key: _delta(mine[key]["value"], base[key]["value"])
            for key in ("precision", "recall", "false_positive_rate")
        }
        delta["f1"] = _delta(mine["f1"], base["f1"])
        return {
            "remove": self.remove,
            "overall": mine,
            "delta": delta,
            "lost": sorted(self.lost),
            "cleared": sorted(self.cleared),
        }


def _delta(value: float | None, base: float | None) -> float | None:
    return None if value is None or base is None else round(value - base, 4)


@dataclass
class Evaluation:
    manifest: str
    split: str
    threshold: str = "medium"
    family_source: str = "manifest"
    overall: Confusion = field(default_factory=Confusion)
    families: dict[str, Confusion] = field(default_factory=dict)
    borderline: dict[str, Confusion] = field(default_factory=dict)
    false_negatives: list[str] = field(default_factory=list)
    false_positives: list[str] = field(default_factory=list)
    incomplete: list[str] = field(default_factory=list)
    ablations: list[Ablation] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": REPORT_SCHEMA,
            "manifest": self.manifest,
            "split": self.split,
            "threshold": self.threshold,
            "family_source": self.family_source,
            "overall": self.overall.metrics(),
            "families": {k: self.families[k].metrics() for k in sorted(self.families)},
            "borderline": {k: self.borderline[k].metrics() for k in sorted(self.borderline)},
            "false_negatives": sorted(self.false_negatives),
            "false_positives": sorted(self.false_positives),
            "incomplete": sorted(self.incomplete),
            "ablations": [a.to_json(self.overall) for a in self.ablations],
        }


# (rule id, severity) of each finding that names a tool
ToolFindings = dict[str, list[tuple[str, Severity]]]


def findings_by_catalog(
    labelled: LabelledSet, names: Iterable[str], options: ScanOptions
) -> tuple[dict[str, ToolFindings], list[str]]:
    """Scan each named catalog alone; return, per catalog, the findings that name each tool,
    and the catalogs whose scan was incomplete."""
    found: dict[str, ToolFindings] = {}
    incomplete: list[str] = []
    for name in sorted(set(names)):
        path = labelled.catalogs[name]
        if not path.is_file():
            raise InputError(f"catalog {name!r} not found at {path}", source=labelled.source)
        surface = load_catalog_file(path, server_id=name, limits=InputLimits())
        result = scan_surfaces([surface], options)
        server = result.servers[0]
        per_tool: ToolFindings = {}
        for finding in server.findings:
            if finding.tool is not None:
                per_tool.setdefault(finding.tool, []).append((finding.rule_id, finding.severity))
            elif finding.rule_id in PACKAGE_RULES:  # the package is every tool's code
                for tool in surface.tools:
                    per_tool.setdefault(tool.name, []).append((finding.rule_id, finding.severity))
        found[name] = per_tool
        if server.incomplete:
            incomplete.append(name)
        present = {t.name for t in surface.tools}
        missing = sorted(
            t.tool for t in labelled.tools if t.catalog == name and t.tool not in present
        )
        if missing:
            raise InputError(f"catalog {name!r} has no tool {missing[0]!r}", source=labelled.source)
    return found, incomplete


def flagged_by_catalog(
    labelled: LabelledSet, names: Iterable[str], options: ScanOptions
) -> tuple[dict[str, set[str]], list[str]]:
    """Scan each named catalog alone; return its flagged tools and the incomplete catalogs."""
    found, incomplete = findings_by_catalog(labelled, names, options)
    flagged = {
        name: {tool for tool, hits in per_tool.items() if _flags(hits, Severity.MEDIUM, "")}
        for name, per_tool in found.items()
    }
    return flagged, incomplete


def _removes(remove: str, rule_id: str) -> bool:
    return rule_id == remove or rule_id.split("-")[1] == remove


def _flags(hits: list[tuple[str, Severity]], threshold: Severity, remove: str) -> bool:
    return any(
        severity.at_least(threshold) and not (remove and _removes(remove, rule_id))
        for rule_id, severity in hits
    )


def check_ablation(remove: str, registry: RuleRegistry | None = None) -> str:
    """A rule family (`CAP`) or a known rule id (`TW-CAP-014`), upper-cased; else InputError."""
    name = remove.strip().upper()
    if name in FAMILIES or name in (registry or load_registry()):
        return name
    raise InputError(
        f"--ablate takes a rule family ({', '.join(FAMILIES)}) or a rule id, not {remove!r}"
    )


def evaluate(
    labelled: LabelledSet,
    split: str = "all",
    options: ScanOptions | None = None,
    *,
    threshold: Severity = Severity.MEDIUM,
    ablate: tuple[str, ...] = (),
) -> Evaluation:
    if split not in SPLITS:
        raise InputError(f"split must be one of {', '.join(SPLITS)}")
    chosen = [t for t in labelled.tools if split in ("all", t.split)]
    if not chosen:
        raise InputError(f"no labelled tools in split {split!r}", source=labelled.source)
    removals = tuple(dict.fromkeys(check_ablation(a) for a in ablate))
    found, incomplete = findings_by_catalog(
        labelled, (t.catalog for t in chosen), options or ScanOptions()
    )
    result = Evaluation(
        manifest=labelled.source,
        split=split,
        threshold=threshold.value,
        family_source=labelled.family_source,
        incomplete=incomplete,
        ablations=[Ablation(r) for r in removals],
    )
    for tool in chosen:
        hits = found[tool.catalog].get(tool.tool, [])
        hit = _flags(hits, threshold, "")
        result.overall.add(tool.malicious, hit)
        if tool.malicious:
            for family in tool.categories or ("unlabelled",):
                result.families.setdefault(family, Confusion()).add(True, hit)
            if not hit:
                result.false_negatives.append(tool.key)
        else:
            for kind in tool.categories:
                result.borderline.setdefault(kind, Confusion()).add(False, hit)
            if hit:
                result.false_positives.append(tool.key)
        for ablation in result.ablations:
            kept = _flags(hits, threshold, ablation.remove)
            ablation.overall.add(tool.malicious, kept)
            if hit and not kept:
                (ablation.lost if tool.malicious else ablation.cleared).append(tool.key)
    return result

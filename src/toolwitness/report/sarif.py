"""SARIF 2.1.0 for GitHub code scanning: rules with help, levels and security-severity; every
result at a real place in a real file, relative to `%SRCROOT%` (sarif_locate.py), with the tool
and the JSON path as logical locations; fingerprints that survive moved lines and renumbered
tools. Checked against the 2.1.0 schema and GitHub's documented ingestion rules in tests.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from typing import Any

from toolwitness._version import __version__
from toolwitness.findings import Finding, Severity
from toolwitness.report.evidence import shown_evidence
from toolwitness.report.interface import ReportOptions
from toolwitness.report.sarif_artifacts import ArtifactIndex, find_source_root
from toolwitness.report.sarif_locate import Location, Locator, server_file
from toolwitness.result import ScanResult
from toolwitness.rules import Rule, builtin_registry

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {
    Severity.CRITICAL: "error",
    Severity.HIGH: "error",
    Severity.MEDIUM: "warning",
    Severity.LOW: "note",
    Severity.INFO: "note",
}
# GitHub ranks alerts by this number (CVSS-like, as a string).
_SECURITY_SEVERITY = {
    Severity.CRITICAL: "9.5",
    Severity.HIGH: "8.0",
    Severity.MEDIUM: "5.5",
    Severity.LOW: "3.0",
    Severity.INFO: "1.0",
}


_DESCRIPTION_MAX = 1024  # GitHub's limit on short and full descriptions (help has the rest)


def _clip(text: str) -> str:
    if len(text) <= _DESCRIPTION_MAX:
        return text
    cut = text.rfind(" ", 0, _DESCRIPTION_MAX - 1)
    return text[: cut if cut > 0 else _DESCRIPTION_MAX - 1] + "…"


def _rule_json(rule: Rule) -> dict[str, Any]:
    help_text = (
        f"{rule.rationale.strip()}\n\nBenign triggers: {rule.benign_triggers.strip()}\n\n"
        f"Remediation: {rule.remediation.strip()}"
    )
    return {
        "id": rule.id,
        "name": "".join(w.capitalize() for w in rule.title.split() if w.isalnum()) or rule.id,
        "shortDescription": {"text": _clip(rule.title)},
        "fullDescription": {"text": _clip(rule.rationale.strip())},
        "help": {"text": help_text, "markdown": help_text},
        "helpUri": rule.help_uri,
        "defaultConfiguration": {"level": _LEVEL[rule.severity]},
        "properties": {
            "tags": ["security", "mcp", rule.family.lower()],
            "precision": {"confirmed": "very-high", "strong": "high", "heuristic": "medium"}[
                rule.confidence.value
            ],
            "security-severity": _SECURITY_SEVERITY[rule.severity],
        },
    }


_LINE = re.compile(r":\d+")
_TOOL_INDEX = re.compile(r"^tools\[\d+\]")


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=True, separators=(",", ":"))


def fingerprint(server_id: str, finding: Finding) -> str:
    """A finding's identity across runs: no line numbers (`index.ts:54`) and no tool index
    (`tools[3]`: the tool is named), so moved lines and added tools keep alerts matched."""
    where = _TOOL_INDEX.sub("tools[]", _LINE.sub(":", finding.location))
    key = "\x1f".join(
        [finding.rule_id, server_id, finding.tool or "", where, _LINE.sub(":", finding.message)]
    )
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def _logical(server_id: str, finding: Finding) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = [
        {
            "name": finding.tool or server_id,
            "fullyQualifiedName": f"{server_id}/{finding.tool}" if finding.tool else server_id,
            "kind": "function" if finding.tool else "module",
        }
    ]
    if finding.location not in ("", "$"):
        out.append(
            {
                "name": finding.location,
                "fullyQualifiedName": f"{server_id}/{finding.location}",
                "kind": "property",
            }
        )
    return out


class SarifFormat:
    def __init__(self, options: ReportOptions) -> None:
        self.options = options

    def _source_root(self, result: ScanResult) -> Path:
        if self.options.source_root is not None:
            return self.options.source_root
        for server in result.servers:
            file = server_file(server.surface)[0] or server.surface.source_root
            if file is not None and os.path.exists(file):
                return find_source_root([Path(file)])
        return find_source_root([])

    def _result(
        self, server_id: str, finding: Finding, justification: str | None, scrub: Any
    ) -> dict[str, Any]:
        text = finding.message
        evidence = shown_evidence(finding, self.options.redact)
        if evidence:
            text += f" Evidence: {evidence}"
        mark = fingerprint(server_id, finding)
        entry: dict[str, Any] = {
            "ruleId": finding.rule_id,
            "level": _LEVEL[finding.severity],
            "message": {"text": scrub(text)},
            "locations": [],
            # GitHub matches alerts by primaryLocationLineHash alone; ours is the finding's
            # identity (no line in it), so an edit above a finding does not reopen its alert.
            "partialFingerprints": {
                "primaryLocationLineHash": f"{mark}:1",
                "toolwitnessFinding/v2": mark,
            },
            "properties": {
                "severity": finding.severity.value,
                "confidence": finding.confidence.value,
                "server": scrub(server_id),
                "jsonPath": finding.location,
            },
        }
        if justification is not None:  # --suppressions: SARIF's own suppression object
            entry["suppressions"] = [{"kind": "external", "justification": justification}]
        return entry

    def format(self, result: ScanResult) -> str:
        registry = builtin_registry()
        suppressed = [s.finding.rule_id for srv in result.servers for s in srv.suppressed]
        used = sorted({f.rule_id for f in result.findings()} | set(suppressed))
        rules = [_rule_json(registry.get(r)) for r in used if r in registry]
        index = {r["id"]: i for i, r in enumerate(rules)}
        artifacts = ArtifactIndex(self._source_root(result))
        locator = Locator(artifacts, self.options.limits)
        pending: list[tuple[dict[str, Any], list[Location], list[dict[str, Any]]]] = []
        for server in result.servers:
            where = locator.server(server)
            server_id = artifacts.scrub(server.id)
            accepted = [(s.finding, s.justification) for s in server.suppressed]
            for finding, justification in [(f, None) for f in server.findings] + accepted:
                entry = self._result(server.id, finding, justification, artifacts.scrub)
                if finding.rule_id in index:
                    entry["ruleIndex"] = index[finding.rule_id]
                pending.append((entry, where.locations(finding), _logical(server_id, finding)))
        # Every document has now been told all the paths asked of it: measure each once. Each
        # result is written as soon as it is complete and its dict dropped, so a large report
        # never holds every result as dicts and as text at once.
        lines: list[str] = []
        pending.reverse()
        while pending:
            entry, built, logical = pending.pop()
            entry["locations"] = [loc() | {"logicalLocations": logical} for loc in built]
            lines.append(_dumps(entry))
        doc = {
            "$schema": SARIF_SCHEMA,
            "version": "2.1.0",
            "runs": [
                {
                    "tool": {
                        "driver": {
                            "name": "toolwitness",
                            "version": __version__,
                            "semanticVersion": __version__,
                            "informationUri": "https://github.com/toolwitness/toolwitness",
                            "rules": rules,
                        }
                    },
                    "originalUriBaseIds": artifacts.original_uri_base_ids(),
                    "results": [],  # spliced in below, one per line
                    "columnKind": "unicodeCodePoints",
                }
            ],
        }
        # One result per line: the C encoder (indent= would switch to the pure-Python one, 5x
        # slower on thousands of results) and still a file a person can read and diff.
        head, empty, tail = _dumps(doc).partition('"results":[]')
        if not lines:
            return f"{head}{empty}{tail}\n"
        body = ",\n".join(lines)
        del lines[:]  # the results' text is in `body` now
        return f'{head}"results":[\n{body}\n]{tail}\n'  # one copy of the body

"""SARIF 2.1.0 for GitHub code scanning: rules with help, levels, logical locations for tools,
physical locations for source witnesses, and stable partialFingerprints (no line numbers in them).
"""

from __future__ import annotations

import hashlib
import json
from contextlib import suppress
from pathlib import Path
from typing import Any
from urllib.parse import quote

from toolwitness._version import __version__
from toolwitness.findings import Finding, Severity
from toolwitness.report.evidence import shown_evidence
from toolwitness.report.interface import ReportOptions
from toolwitness.result import ScanResult, ServerResult
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


def _uri(path: str) -> str:
    p = Path(path)
    with suppress(ValueError):
        p = p.resolve().relative_to(Path.cwd().resolve())
    return quote(p.as_posix(), safe="/:._-~")


def _rule_json(rule: Rule) -> dict[str, Any]:
    help_text = (
        f"{rule.rationale.strip()}\n\nBenign triggers: {rule.benign_triggers.strip()}\n\n"
        f"Remediation: {rule.remediation.strip()}"
    )
    return {
        "id": rule.id,
        "name": "".join(w.capitalize() for w in rule.title.split() if w.isalnum()) or rule.id,
        "shortDescription": {"text": rule.title},
        "fullDescription": {"text": rule.rationale.strip()},
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


def _fingerprint(server: ServerResult, finding: Finding) -> str:
    key = "\x1f".join(
        [finding.rule_id, server.id, finding.tool or "", finding.location, finding.message]
    )
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def _locations(server: ServerResult, finding: Finding) -> list[dict[str, Any]]:
    logical: dict[str, Any] = {
        "name": finding.tool or server.id,
        "fullyQualifiedName": f"{server.id}/{finding.tool}" if finding.tool else server.id,
        "kind": "function" if finding.tool else "module",
    }
    source_witnesses = [w for w in finding.witnesses if w.file and w.line]
    locations: list[dict[str, Any]] = []
    for w in source_witnesses[:10]:
        assert w.file is not None and w.line is not None
        region: dict[str, Any] = {"startLine": w.line}
        if w.column is not None:
            region["startColumn"] = w.column + 1
        locations.append(
            {
                "physicalLocation": {"artifactLocation": {"uri": _uri(w.file)}, "region": region},
                "logicalLocations": [logical],
            }
        )
    if not locations:
        location: dict[str, Any] = {"logicalLocations": [logical]}
        if server.surface.source:
            location["physicalLocation"] = {
                "artifactLocation": {"uri": _uri(server.surface.source)},
                "region": {"startLine": 1},
            }
        locations.append(location)
    return locations


class SarifFormat:
    def __init__(self, options: ReportOptions) -> None:
        self.options = options

    def format(self, result: ScanResult) -> str:
        registry = builtin_registry()
        suppressed = [s.finding.rule_id for srv in result.servers for s in srv.suppressed]
        used = sorted({f.rule_id for f in result.findings()} | set(suppressed))
        rules = [_rule_json(registry.get(r)) for r in used if r in registry]
        index = {r["id"]: i for i, r in enumerate(rules)}
        results = []
        for server in result.servers:
            accepted = [(s.finding, s.justification) for s in server.suppressed]
            for finding, justification in [(f, None) for f in server.findings] + accepted:
                text = finding.message
                evidence = shown_evidence(finding, self.options.redact)
                if evidence:
                    text += f" Evidence: {evidence}"
                entry: dict[str, Any] = {
                    "ruleId": finding.rule_id,
                    "level": _LEVEL[finding.severity],
                    "message": {"text": text},
                    "locations": _locations(server, finding),
                    "partialFingerprints": {"toolwitnessFinding/v1": _fingerprint(server, finding)},
                    "properties": {
                        "severity": finding.severity.value,
                        "confidence": finding.confidence.value,
                        "server": server.id,
                        "jsonPath": finding.location,
                    },
                }
                if finding.rule_id in index:
                    entry["ruleIndex"] = index[finding.rule_id]
                if justification is not None:  # --suppressions: SARIF's own suppression object
                    entry["suppressions"] = [{"kind": "external", "justification": justification}]
                results.append(entry)
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
                    "results": results,
                    "columnKind": "unicodeCodePoints",
                }
            ],
        }
        return json.dumps(doc, indent=2, ensure_ascii=True) + "\n"

"""The versioned JSON report (`toolwitness.report/1`); its JSON Schema ships in the package."""

from __future__ import annotations

from typing import Any

from toolwitness._version import __version__
from toolwitness.findings import Finding, Witness
from toolwitness.report.evidence import shown_evidence
from toolwitness.report.interface import ReportOptions
from toolwitness.report.json_text import dumps_indented
from toolwitness.result import ScanResult, ServerResult, ToolResult
from toolwitness.textnorm import REDACTED, escape_display

SCHEMA_ID = "toolwitness.report/1"
_WITNESS_FIELDS = tuple(Witness.model_fields)


def witness_json(witness: Witness) -> dict[str, Any]:
    """`witness.to_json()` as a plain dict, without pydantic's serializer (a quarter of an HTML
    report's time went there): the fields in declaration order, None left out, tuples as lists.
    A test holds it equal to `to_json()` for every field the model has."""
    shown: dict[str, Any] = {}
    for name in _WITNESS_FIELDS:
        value = getattr(witness, name)
        if value is not None:
            shown[name] = list(value) if type(value) is tuple else value
    return shown


def finding_json(finding: Finding, redact: bool) -> dict[str, Any]:
    return {
        "rule_id": finding.rule_id,
        "title": finding.title,
        "severity": finding.severity._value_,  # `.value`, without the enum property's call
        "confidence": finding.confidence._value_,
        "tool": finding.tool,
        "location": finding.location,
        "message": finding.message,
        "evidence": shown_evidence(finding, redact),
        "witnesses": [witness_json(w) for w in finding.witnesses],
    }


def tool_json(tool: ToolResult, description: str | None, redact: bool) -> dict[str, Any]:
    if description is not None:
        description = REDACTED if redact else escape_display(description)
    return {
        "name": tool.name,
        "description": description,
        "digest": tool.digest,
        "roles": list(tool.roles),
        "declared": None if tool.declared is None else list(tool.declared),
        "actual": None if tool.actual is None else list(tool.actual),
        "undeclared": None if tool.undeclared is None else list(tool.undeclared),
        "verdict": tool.verdict,
        "verdict_reason": tool.verdict_reason,
        "witnesses": {
            cap: [witness_json(w) for w in ws] for cap, ws in sorted(tool.witnesses.items())
        },
        "probe": tool.probe,
    }


def server_json(server: ServerResult, redact: bool) -> dict[str, Any]:
    info = server.surface.server_info or {}
    return {
        "id": server.id,
        "name": info.get("name") if isinstance(info.get("name"), str) else None,
        "version": info.get("version") if isinstance(info.get("version"), str) else None,
        "source": server.surface.source,
        "coverage": [c.value for c in server.surface.coverage],
        "surface_digest": server.surface_digest,
        "score": server.score,
        "grade": server.grade,
        "score_vector": [p.model_dump() for p in server.score_vector],
        "pin": None if server.pin is None else server.pin.model_dump(mode="json"),
        "incomplete": server.incomplete,
        "errors": list(server.errors),
        "notes": list(server.surface.notes),
        "tools": [
            tool_json(t, s.description, redact)
            for t, s in zip(server.tools, server.surface.tools, strict=True)
        ],
        "findings": [finding_json(f, redact) for f in server.findings],
        "suppressed": [
            {"finding": finding_json(s.finding, redact), "justification": s.justification}
            for s in server.suppressed
        ],
    }


def report_document(result: ScanResult, redact: bool = False) -> dict[str, Any]:
    counts = {k: v for k, v in result.severity_counts().items() if v}
    return {
        "schema": SCHEMA_ID,
        "toolwitness_version": __version__,
        "servers": [server_json(s, redact) for s in result.servers],
        "summary": {
            "servers": len(result.servers),
            "tools": result.tool_count(),
            "flagged_tools": sum(len(s.flagged_tools()) for s in result.servers),
            "findings": counts,
            "incomplete": result.incomplete,
        },
    }


class JsonFormat:
    def __init__(self, options: ReportOptions) -> None:
        self.options = options

    def format(self, result: ScanResult) -> str:
        doc = report_document(result, self.options.redact)
        return dumps_indented(doc, end="\n")  # = json.dumps(doc, indent=2, ensure_ascii=True)

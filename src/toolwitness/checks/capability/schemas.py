"""TW-CAP-016: an input or output schema that is not a valid JSON Schema.

A client validates arguments (and a tool its results) against these schemas. A malformed one
(`"type": "invalid-type"`, `"maxItems": -4`) is either rejected by the client or applied without
the constraint it seems to set, so what a reviewer reads is not what is enforced. Checked against
the official metaschema of the dialect `$schema` names (2020-12 when absent, as MCP says).
"""

from __future__ import annotations

from collections.abc import Iterator

from toolwitness.checks.capability.schema_validity import MAX_NODES, SchemaReport, validate_schema
from toolwitness.checks.interface import CheckContext, server_check
from toolwitness.findings import Finding, Severity, Witness
from toolwitness.model import ServerSurface

_SHOWN = 4  # problems named per schema; the message counts the rest


def _schema_findings(
    tool: str, report: SchemaReport, schema: object, location: str, ctx: CheckContext
) -> Iterator[Finding]:
    if report.dialect is None:
        declared = schema.get("$schema") if isinstance(schema, dict) else None
        yield ctx.rules.finding(
            "TW-CAP-016",
            tool=tool,
            location=f"{location}.$schema",
            message="the schema names a JSON Schema dialect toolwitness does not know; "
            "it was not validated",
            evidence=str(declared)[:200],
            severity=Severity.LOW,
        )
        return
    if report.problems:
        shown = report.problems[:_SHOWN]
        more = len(report.problems) - len(shown)
        yield ctx.rules.finding(
            "TW-CAP-016",
            tool=tool,
            location=shown[0].location,
            message=f"not a valid JSON Schema ({report.dialect}): {shown[0].message}"
            + (f" (and {len(report.problems) - 1} more)" if len(report.problems) > 1 else ""),
            evidence="; ".join(f"{p.location}: {p.message}" for p in shown)
            + (f"; … {more} more" if more else ""),
            witnesses=tuple(
                Witness(kind="field", symbol=tool, path=(p.location,), detail=p.message)
                for p in shown
            ),
        )
    if report.truncated:
        yield ctx.rules.finding(
            "TW-CAP-016",
            tool=tool,
            location=location,
            message=f"the schema has more than {MAX_NODES} nodes; only the first were validated",
            severity=Severity.LOW,
        )


@server_check("capability.schemas", ["TW-CAP-016"])
def invalid_schemas(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    for i, tool in enumerate(surface.tools):
        # A schema of the wrong JSON type is the catalog check's (META) finding, not this one's.
        for field, schema in (
            ("inputSchema", tool.input_schema),
            ("outputSchema", tool.output_schema),
        ):
            if not isinstance(schema, dict):
                continue
            report = validate_schema(schema, field)  # locations written out only for a problem
            if report.problems or report.truncated or report.dialect is None:
                location = f"tools[{i}].{field}"
                report = validate_schema(schema, location)
                yield from _schema_findings(tool.name, report, schema, location, ctx)

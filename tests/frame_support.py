"""What the frame tests share: scan one tool written for a test, beside a plain sibling tool
(`flags_on`) or on its own (`findings_alone`, `rules_alone`), and return what is reported on it
at medium or above."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from toolwitness.checks.injection.model import FieldContext
from toolwitness.findings import Finding
from toolwitness.model import ServerSurface, Tool
from toolwitness.pipeline import ScanOptions, scan_surfaces


def flags_on(
    description: str,
    name: str = "convert_units",
    title: str | None = None,
    prefix: str = "",
    **schema: str,
) -> set[str]:
    """Rule ids (starting with `prefix`) at medium or above on the tool `name`; each keyword
    argument becomes a string parameter with that description."""
    props = {k: {"type": "string", "description": v} for k, v in schema.items()}
    tool = Tool(name=name, title=title, description=description,
                inputSchema={"type": "object", "properties": props})  # fmt: skip
    other = Tool(name="list_units", description="List the units this server converts.",
                 inputSchema={"type": "object"})  # fmt: skip
    result = scan_surfaces([ServerSurface(id="s", tools=(tool, other))], ScanOptions())
    found: list[Finding] = result.servers[0].findings
    return {
        f.rule_id
        for f in found
        if f.tool == name and f.severity.rank >= 2 and f.rule_id.startswith(prefix)
    }


def findings_alone(
    description: str,
    name: str = "tool_x",
    schema: dict[str, Any] | None = None,
    annotations: dict[str, Any] | None = None,
) -> list[Finding]:
    """The findings at medium or above of one tool scanned on its own (no sibling tool)."""
    tool = Tool(name=name, description=description, inputSchema=schema or {"type": "object"},
                annotations=annotations)  # fmt: skip
    result = scan_surfaces([ServerSurface(id="s", tools=(tool,))], ScanOptions())
    return [f for f in result.servers[0].findings if f.severity.rank >= 2]


def rules_alone(
    description: str,
    name: str = "tool_x",
    schema: dict[str, Any] | None = None,
    annotations: dict[str, Any] | None = None,
) -> set[str]:
    """Rule ids of `findings_alone`."""
    return {f.rule_id for f in findings_alone(description, name, schema, annotations)}


def cli_findings(
    folder: Path, description: str, name: str = "tool_x", schema: dict[str, Any] | None = None
) -> tuple[int, list[dict[str, Any]]]:
    """Exit code and JSON findings of `toolwitness scan` run as a process on a one-tool catalog
    written into `folder`: the user-facing path, end to end."""
    catalog = {"tools": [{"name": name, "description": description,
                          "inputSchema": schema or {"type": "object"}}]}  # fmt: skip
    path = folder / "catalog.json"
    path.write_text(json.dumps(catalog, ensure_ascii=False), "utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "toolwitness", "scan", str(path), "-f", "json"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode in (0, 1), run.stderr
    return run.returncode, list(json.loads(run.stdout)["servers"][0]["findings"])


def reported_at(
    description: str, name: str, schema: dict[str, Any], rule: str, location_end: str
) -> bool:
    """A finding of `rule` (medium or above) on the tool `name`, scanned alone, at a location
    ending in `location_end` (a parameter's description, say)."""
    return any(
        f.rule_id == rule and f.location.endswith(location_end)
        for f in findings_alone(description, name, schema)
    )


def field_context(**kw: object) -> FieldContext:
    """A detector's context for a tool `get_item` beside `list_items`, its description by
    default; each keyword replaces one field (the gate tests' contexts)."""
    base: dict[str, object] = {
        "kind": "description", "location": "tools[0].description", "tool": "get_item",
        "purpose": frozenset({"get", "item"}), "siblings": frozenset({"list_items"}),
    }  # fmt: skip
    base.update(kw)
    return FieldContext(**base)  # type: ignore[arg-type]

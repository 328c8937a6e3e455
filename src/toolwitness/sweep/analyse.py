"""One unpacked package → the deterministic body of its sweep record.

Runs inside the per-target child process (memory-limited). The surface comes from the code
(`code.surface.package_surface`), every metadata check runs on it through `scan_surfaces`, and
code verification gives each tool's verdict. Every string in the body is either our own words or
text from the package that reporters escape; nothing depends on the temporary directory's name.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from toolwitness.code.analyse import CodeAnalysis, CodeOptions, analyse_directory, code_findings
from toolwitness.code.project import CodeLimits
from toolwitness.code.surface import package_surface
from toolwitness.code.verify import ToolVerdict
from toolwitness.findings import Finding, sort_findings
from toolwitness.model import PackageRef
from toolwitness.pipeline import ScanOptions, scan_surfaces
from toolwitness.rules import load_registry
from toolwitness.sweep.outcomes import ANALYSED, NO_ENTRY, NO_TOOLS_FOUND

MAX_WITNESSES_PER_LEAF = 3
MAX_NOTES = 50


def _finding(f: Finding) -> dict[str, Any]:
    return {
        "rule_id": f.rule_id,
        "severity": f.severity.value,
        "confidence": f.confidence.value,
        "tool": f.tool,
        "location": f.location,
        "message": f.message,
    }


def _tool(verdict: ToolVerdict | None, name: str, digest: str) -> dict[str, Any]:
    out: dict[str, Any] = {"name": name, "digest": digest}
    if verdict is None:
        return out
    witnesses = {
        leaf: [w.model_dump(mode="json") for w in found[:MAX_WITNESSES_PER_LEAF]]
        for leaf, found in verdict.witnesses().items()
        if leaf in verdict.undeclared
    }
    out.update(
        verdict=verdict.verdict,
        reasons=list(verdict.reasons),
        declared=sorted(verdict.declaration.leaves),
        actual=sorted(verdict.actual),
        undeclared=sorted(verdict.undeclared),
        witnesses=witnesses,
    )
    return out


def _server(analysis: CodeAnalysis, key: str, package: PackageRef | None) -> dict[str, Any]:
    extracted = package_surface(analysis, key, package)
    base = scan_surfaces([extracted.surface], ScanOptions()).servers[0]
    code = code_findings(analysis, load_registry([]))
    by_name = {v.name: v for v in analysis.verdicts}
    return {
        "surface_digest": base.surface_digest,
        "score": base.score,
        "grade": base.grade,
        "tools": [_tool(by_name.get(t.name), t.name, t.digest) for t in base.tools],
        "metadata_findings": [_finding(f) for f in base.findings],
        "code_findings": [_finding(f) for f in sort_findings(code)],
        "unrecovered": list(extracted.unrecovered),
        "errors": list(base.errors),
    }


def analyse_root(
    root: Path, key: str, package: PackageRef | None, limits: CodeLimits | None = None
) -> dict[str, Any]:
    """`{"outcome", "reason", "server"}` for an unpacked tree (InputError propagates)."""
    analysis = analyse_directory(root, CodeOptions(limits=limits or CodeLimits()), key)
    notes = analysis.notes[:MAX_NOTES]
    if not analysis.project.modules:
        return {
            "outcome": NO_ENTRY,
            "reason": "no JavaScript, TypeScript or Python source in the package",
            "server": None,
            "notes": notes,
        }
    if not analysis.tools:
        return {
            "outcome": NO_TOOLS_FOUND,
            "reason": f"no tool registration in {len(analysis.project.modules)} source files",
            "server": None,
            "notes": notes,
        }
    return {
        "outcome": ANALYSED,
        "reason": f"{len(analysis.tools)} tools",
        "server": _server(analysis, key, package),
        "notes": notes,
    }

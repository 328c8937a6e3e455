"""`toolwitness rules` and `toolwitness explain ID`: the rule registry on the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from toolwitness.cli_formats import DataFormat
from toolwitness.cli_support import emit, guard
from toolwitness.errors import UsageError
from toolwitness.rules import load_registry
from toolwitness.textnorm import escape_display

RulesOpt = Annotated[
    list[Path] | None, typer.Option("--rules", help="Extra rule pack (YAML, repeatable).")
]
FormatOpt = Annotated[DataFormat, typer.Option("--format", "-f", help="Output format.")]
OutputOpt = Annotated[
    Path | None, typer.Option("--output", "-o", help="Write here instead of standard output.")
]
JsonAlias = Annotated[bool, typer.Option("--json", hidden=True, help="Same as --format json.")]


def rules_command(
    rules: RulesOpt = None,
    fmt: FormatOpt = DataFormat.TEXT,
    output: OutputOpt = None,
    as_json: JsonAlias = False,
) -> None:
    """List every rule: id, severity, confidence, title."""
    with guard():
        registry = load_registry(list(rules or ()))
        if as_json or fmt is DataFormat.JSON:
            doc = [r.model_dump(mode="json", exclude={"patterns"}) for r in registry.all()]
            emit(json.dumps(doc, indent=2, ensure_ascii=True) + "\n", output)
            return
        lines = [
            f"{r.id:<12} {r.severity.value:<8} {r.confidence.value:<9} {escape_display(r.title)}"
            for r in registry.all()
        ]
        emit("\n".join(lines) + "\n", output)


def explain_command(
    rule_id: Annotated[str, typer.Argument(help="A rule id such as TW-INJ-001.")],
    rules: RulesOpt = None,
) -> None:
    """Explain one rule: why it matters, what triggers it benignly, what to do."""
    with guard():
        registry = load_registry(list(rules or ()))
        if rule_id.upper() not in registry:
            raise UsageError(f"no rule {rule_id!r}; `toolwitness rules` lists them")
        r = registry.get(rule_id.upper())
        text = [
            f"{r.id} — {r.title}",
            f"severity: {r.severity.value}   confidence: {r.confidence.value}   family: {r.family}",
            "",
            "Why it matters:",
            "  " + r.rationale.strip(),
            "",
            "Benign triggers:",
            "  " + r.benign_triggers.strip(),
            "",
            "What to do:",
            "  " + r.remediation.strip(),
        ]
        if r.references:
            text += ["", "References:", *("  " + ref for ref in r.references)]
        emit("\n".join(escape_display(line) for line in text) + "\n", None)


def register(app: typer.Typer) -> None:
    app.command("rules")(rules_command)
    app.command("explain")(explain_command)

"""The terminal report: per server a table of tools, then findings grouped by tool with evidence.

Every scanned string goes through `escape_display` and into a `rich.text.Text` (never markup), so
neither terminal escapes nor rich markup in a description can reach the screen. A report that is
neither coloured nor wrapped (a pipe or a file) is printed by `terminal_plain` instead, without
rich: the same bytes, without rich's per-cell layout (seconds for a few thousand tools).
"""

from __future__ import annotations

import io
import shutil
import sys
from typing import TYPE_CHECKING

from toolwitness.findings import FLAG_THRESHOLD, Finding, Severity
from toolwitness.report.evidence import shown_evidence
from toolwitness.report.interface import ReportOptions
from toolwitness.report.terminal_plain import UNWRAPPED, server_lines
from toolwitness.result import ScanResult, ServerResult
from toolwitness.score import explain
from toolwitness.textnorm import escape_display

if TYPE_CHECKING:  # rich loads only for a coloured or wrapped report (`_rich_report`)
    from rich.console import Group
    from rich.text import Text

_STYLE = {
    Severity.CRITICAL: "bold white on red",
    Severity.HIGH: "bold red",
    Severity.MEDIUM: "yellow",
    Severity.LOW: "cyan",
    Severity.INFO: "dim",
}


def _t(text: str, style: str = "") -> Text:
    from rich.text import Text

    return Text(escape_display(text), style=style)


def _worst(findings: list[Finding]) -> Severity | None:
    return max((f.severity for f in findings), key=lambda s: s.rank, default=None)


def grade_reasons(server: ServerResult) -> str:
    """`TW-CODE-001 −35 (3 findings), …; <the gate that capped the grade>`, or "" for a clean A."""
    if server.grade is None:
        return ""
    return explain(server.findings, server.score_vector, len(server.surface.tools)).text()


def _server_block(server: ServerResult, redact: bool) -> Group:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    parts: list[Text | Table] = []
    head = Text()
    head.append("Server ", style="bold")
    head.append_text(_t(server.id, "bold"))
    grade = "–" if server.grade is None else f"{server.grade} ({server.score})"
    head.append(f"   grade {grade}   {len(server.tools)} tools   {len(server.findings)} findings")
    if server.suppressed:
        head.append(f"   {len(server.suppressed)} suppressed")
    if server.pin is not None:
        head.append(
            f"   pin {server.pin.state}", style="bold red" if server.pin.state == "blocked" else ""
        )
    parts.append(head)
    why = grade_reasons(server)
    if why:
        parts.append(_t("  why: " + why, "dim"))
    if server.incomplete:
        parts.append(_t("INCOMPLETE: " + "; ".join(server.errors), "bold red"))
    for note in server.surface.notes:
        parts.append(_t("note: " + note, "yellow"))
    by_tool: dict[str | None, list[Finding]] = {}
    for f in server.findings:
        by_tool.setdefault(f.tool, []).append(f)
    if server.tools:
        table = Table(show_lines=False, pad_edge=False)
        table.add_column("tool")
        table.add_column("worst")
        table.add_column("findings", justify="right")
        table.add_column("verdict")
        probed = any(t.probe for t in server.tools)  # the lab ran (probe, scan --lab)
        if probed:
            table.add_column("lab")
        table.add_column("digest")
        for tool in server.tools:
            found = by_tool.get(tool.name, [])
            worst = _worst(found)
            lab = [Text(str(tool.probe["verdict"]) if tool.probe else "–")] if probed else []
            table.add_row(
                _t(tool.name),
                Text(worst.value, style=_STYLE[worst]) if worst else Text("–"),
                str(len(found)),
                Text(tool.verdict or "–"),
                *lab,
                Text(tool.digest[7:19]),
            )
        parts.append(table)
    for tool_name in sorted(by_tool, key=lambda n: (n is not None, n or "")):
        parts.append(Text(""))
        label = "(server)" if tool_name is None else tool_name
        parts.append(_t(f"▸ {label}", "bold"))
        for f in by_tool[tool_name]:
            line = Text("  ")
            line.append(f"{f.severity.value.upper():8}", style=_STYLE[f.severity])
            line.append(f" {f.rule_id} ", style="bold")
            line.append_text(_t(f.title))
            line.append(f"  [{f.confidence.value}]", style="dim")
            parts.append(line)
            parts.append(_t(f"      at {f.location}: {f.message}"))
            evidence = shown_evidence(f, redact)
            if evidence:
                parts.append(Text("      evidence: ", style="dim") + Text(evidence))
            for w in f.witnesses[:5]:
                where = f"{w.file}:{w.line}" if w.file and w.line else (w.file or w.kind)
                detail = " ".join(x for x in (w.symbol, w.detail) if x)
                parts.append(_t(f"      witness: {where} {detail}".rstrip(), "dim"))
    for s in server.suppressed:
        where = f"{s.finding.rule_id} on {s.finding.tool or '(server)'}"
        parts.append(_t(f"  suppressed {where}: {s.justification}", "dim"))
    return Group(*parts)


# Piped output is not hard-wrapped: lines run as long as they are (a pager or editor wraps them).
_UNWRAPPED = UNWRAPPED


def terminal_width(asked: int | None) -> int | None:
    """The width to wrap at: as asked; else the terminal's, when stdout is one; else None."""
    if asked is not None:
        return asked
    if sys.stdout.isatty():
        return shutil.get_terminal_size().columns
    return None


class TerminalFormat:
    def __init__(self, options: ReportOptions) -> None:
        self.options = options

    def format(self, result: ScanResult) -> str:
        width = terminal_width(self.options.width)
        if width is None and not self.options.color:
            plain = self._plain(result)
            if plain is not None:
                return plain
        return self._rich_report(result, width)

    def _plain(self, result: ScanResult) -> str | None:
        lines: list[str] = []
        for server in result.servers:
            block = server_lines(server, self.options.redact, grade_reasons(server), _worst)
            if block is None:  # a table rich would have to shrink
                return None
            lines += [*block, ""]
        lines.append(_summary(result))
        return "\n".join(lines) + "\n"

    def _rich_report(self, result: ScanResult, width: int | None) -> str:
        from rich.console import Console
        from rich.text import Text

        buffer = io.StringIO()
        console = Console(
            file=buffer,
            width=width or _UNWRAPPED,
            soft_wrap=width is None,
            force_terminal=self.options.color,
            no_color=not self.options.color,
            highlight=False,
            emoji=False,
            markup=False,
        )
        for server in result.servers:
            console.print(_server_block(server, self.options.redact))
            console.print()
        console.print(Text(_summary(result)))
        return buffer.getvalue()


def _summary(result: ScanResult) -> str:
    counts = result.severity_counts()
    flagged = sum(len(s.flagged_tools()) for s in result.servers)
    suppressed = sum(len(s.suppressed) for s in result.servers)
    summary = ", ".join(f"{counts[s.value]} {s.value}" for s in Severity if counts[s.value])
    return (
        f"{len(result.servers)} servers, {result.tool_count()} tools, {flagged} flagged"
        f" (severity ≥ {FLAG_THRESHOLD.value}); findings: {summary or 'none'}"
        + (f"; {suppressed} suppressed" if suppressed else "")
    )

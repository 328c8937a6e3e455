"""Markdown for a pull-request comment: a summary table, then findings per server.

Scanned text is escaped twice over: hidden characters become `\\u…` marks, and Markdown/HTML
metacharacters are neutralised so a description cannot render links, images or HTML.
"""

from __future__ import annotations

from toolwitness.report.evidence import shown_evidence
from toolwitness.report.interface import ReportOptions
from toolwitness.result import ScanResult
from toolwitness.textnorm import escape_display

_ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}
_BACKSLASHED = set("\\`*_{}[]()#+-.!|~:@=")


def md(text: str) -> str:
    """Escape scanned text for inline GitHub-flavoured Markdown: inert, one line, still legible."""
    out = []
    for ch in escape_display(text):
        if ch in _ENTITIES:
            out.append(_ENTITIES[ch])
        elif ch in _BACKSLASHED:
            out.append("\\" + ch)
        else:
            out.append(ch)
    return "".join(out)


class MarkdownFormat:
    def __init__(self, options: ReportOptions) -> None:
        self.options = options

    def format(self, result: ScanResult) -> str:
        lines = ["## toolwitness report", ""]
        lines += [
            "| server | tools | flagged | findings | score | grade |",
            "|---|---:|---:|---:|---:|---|",
        ]
        for s in result.servers:
            score = "–" if s.score is None else str(s.score)
            grade = "–" if s.grade is None else s.grade
            lines.append(
                f"| {md(s.id)} | {len(s.tools)} | {len(s.flagged_tools())} | {len(s.findings)}"
                f" | {score} | {grade} |"
            )
        for s in result.servers:
            lines += ["", f"### {md(s.id)}", ""]
            if s.incomplete:
                lines.append("**Incomplete scan:** " + "; ".join(md(e) for e in s.errors))
                lines.append("")
            if s.suppressed:
                accepted = (
                    f"{x.finding.rule_id} on {md(x.finding.tool or '—')} ({md(x.justification)})"
                    for x in s.suppressed
                )
                lines += [f"**{len(s.suppressed)} suppressed:** " + "; ".join(accepted), ""]
            if not s.findings:
                lines.append("No findings.")
                continue
            lines += [
                "| severity | rule | tool | location | message | evidence |",
                "|---|---|---|---|---|---|",
            ]
            for f in s.findings:
                evidence = shown_evidence(f, self.options.redact)
                lines.append(
                    f"| {f.severity.value} | {f.rule_id} | {md(f.tool or '—')} | {md(f.location)}"
                    f" | {md(f.message)} | {md(evidence) if evidence else ''} |"
                )
        return "\n".join(lines) + "\n"

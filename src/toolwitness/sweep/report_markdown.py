"""Markdown for the ecosystem report. Package text (names, symbols, files) is escaped with the
same inert-Markdown escaper the scan report uses."""

from __future__ import annotations

from typing import Any

from toolwitness.report.markdown import md
from toolwitness.sweep.outcomes import OUTCOMES


def _pct(rate: float | None) -> str:
    return "–" if rate is None else f"{rate * 100:.1f}%"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    if not rows:
        return ["None.", ""]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return [*lines, ""]


def _offenders(report: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    for o in report["top_offenders"]:
        lines.append(
            f"- **{md(str(o['target']))}**: {o['violating_tools']} violating tools, "
            f"{o['undeclared_leaves']} undeclared capabilities, "
            f"{o['high_metadata_findings']} high/critical metadata findings"
            + (f" ({', '.join(md(r) for r in o['rules'])})" if o["rules"] else "")
        )
        for tool in o["tools"]:
            witnesses = "; ".join(
                f"{md(str(w['leaf']))} at {md(str(w['file']))}:{w['line']} `{md(str(w['symbol']))}`"
                for w in tool["witnesses"]
            )
            lines.append(f"  - {md(str(tool['tool']))}: {witnesses}")
    return [*(lines or ["None."]), ""]


def render(report: dict[str, Any]) -> str:
    total = report["targets"]
    lines = ["# toolwitness ecosystem sweep", ""]
    lines += [
        f"{total} targets; {report['outcomes'].get('ANALYSED', 0)} analysed "
        f"({_pct(report['analysable_rate'])}); {report['tools_inspected']} tools inspected.",
        "",
        "## Outcomes",
        "",
    ]
    lines += _table(
        ["outcome", "targets", "share"],
        [
            [
                o,
                str(report["outcomes"].get(o, 0)),
                _pct(report["outcomes"].get(o, 0) / total if total else None),
            ]
            for o in OUTCOMES
        ],
    )
    verdicts = report["tool_verdicts"]
    lines += ["## Violation rates", ""]
    lines += _table(
        ["measure", "value"],
        [
            [
                "tools OK / VIOLATION / UNANALYZABLE",
                f"{verdicts['OK']} / {verdicts['VIOLATION']} / {verdicts['UNANALYZABLE']}",
            ],
            ["per-tool violation rate (of analysable tools)", _pct(report["tool_violation_rate"])],
            [
                "per-tool violation rate (of all tools)",
                _pct(report["tool_violation_rate_of_all_tools"]),
            ],
            [
                "per-server violation rate (of analysed servers)",
                _pct(report["server_violation_rate"]),
            ],
            [
                "tools flagged by metadata checks (medium+)",
                str(report["tools_flagged_by_metadata"]),
            ],
            ["metadata fields not recovered from code", str(report["metadata_fields_unrecovered"])],
        ],
    )
    lines += ["## Most undeclared capabilities", ""]
    lines += _table(
        ["capability", "tools"],
        [[md(c["name"]), str(c["count"])] for c in report["most_undeclared_capabilities"]],
    )
    lines += ["## Most frequent metadata findings", ""]
    lines += _table(
        ["rule", "title", "findings", "servers"],
        [
            [md(f["rule_id"]), md(f["title"] or ""), str(f["findings"]), str(f["servers"])]
            for f in report["most_frequent_metadata_findings"]
        ],
    )
    lines += ["## Top offenders", ""]
    lines += _offenders(report)
    lines += ["## Analysable-rate bottlenecks", "", "Targets not analysed, by reason:", ""]
    lines += _table(
        ["reason", "targets"],
        [[md(b["name"]), str(b["count"])] for b in report["bottlenecks"]["targets"]],
    )
    lines += ["Tools found but not fully analysable, by reason:", ""]
    lines += _table(
        ["reason", "tools"],
        [[md(b["name"]), str(b["count"])] for b in report["bottlenecks"]["unanalyzable_tools"]],
    )
    return "\n".join(lines).rstrip("\n") + "\n"

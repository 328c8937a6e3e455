"""The ecosystem report over a results file: counts, rates, capabilities, offenders, bottlenecks.

`ecosystem_report(records)` returns a plain JSON-able dict (schema `toolwitness.sweep-report/1`);
`sweep_markdown.render` prints it. Everything is sorted on total keys, so the same results give
the same report bytes whatever order the targets finished in. Record fields are read defensively:
a results file is input like any other.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from toolwitness.findings import FLAG_THRESHOLD, Severity
from toolwitness.rules import load_registry
from toolwitness.sweep.outcomes import ANALYSED, OUTCOMES

REPORT_SCHEMA = "toolwitness.sweep-report/1"
TOP = 10
_VERDICTS = ("OK", "VIOLATION", "UNANALYZABLE")
_DIGITS = re.compile(r"\d+")


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _rate(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def _ranked(counter: Counter[str], limit: int = TOP) -> list[dict[str, Any]]:
    return [
        {"name": name, "count": count}
        for name, count in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
    ]


def _reason_class(reason: str, target: str) -> str:
    """Group reasons that differ only by the target, file names or counts."""
    text = reason.replace(target, "<target>") if target else reason
    text = text.split(": ", 1)[1] if text.startswith(("<target>", "code:")) else text
    return _DIGITS.sub("N", text)[:160]


def _severity(finding: dict[str, Any]) -> Severity | None:
    try:
        return Severity(str(finding.get("severity")))
    except ValueError:
        return None


def _offender(record: dict[str, Any], tools: list[dict[str, Any]]) -> dict[str, Any] | None:
    violating = [t for t in tools if t.get("verdict") == "VIOLATION"]
    findings = _list(_dict(record.get("server")).get("metadata_findings"))
    serious = [f for f in findings if (s := _severity(_dict(f))) and s.at_least(Severity.HIGH)]
    if not violating and not serious:
        return None
    shown = []
    for tool in sorted(violating, key=lambda t: str(t.get("name")))[:5]:
        witnesses = []
        for leaf, found in sorted(_dict(tool.get("witnesses")).items()):
            first = _dict(_list(found)[0]) if _list(found) else {}
            witnesses.append(
                {
                    "leaf": leaf,
                    "file": first.get("file"),
                    "line": first.get("line"),
                    "symbol": first.get("symbol"),
                }
            )
        shown.append(
            {
                "tool": tool.get("name"),
                "undeclared": _list(tool.get("undeclared")),
                "witnesses": witnesses,
            }
        )
    return {
        "target": record["target"],
        "violating_tools": len(violating),
        "undeclared_leaves": sum(len(_list(t.get("undeclared"))) for t in violating),
        "high_metadata_findings": len(serious),
        "tools": shown,
        "rules": sorted({str(_dict(f).get("rule_id")) for f in serious}),
    }


def ecosystem_report(records: list[dict[str, Any]]) -> dict[str, Any]:
    outcomes = Counter({o: 0 for o in OUTCOMES})
    verdicts = Counter({v: 0 for v in _VERDICTS})
    undeclared: Counter[str] = Counter()
    rule_findings: Counter[str] = Counter()
    rule_servers: Counter[str] = Counter()
    bottlenecks: Counter[str] = Counter()
    tool_reasons: Counter[str] = Counter()
    unrecovered = 0
    tools_total = flagged_total = violating_servers = 0
    offenders = []
    for record in sorted(records, key=lambda r: r["target"]):
        outcome = str(record["outcome"])
        outcomes[outcome] += 1
        if outcome != ANALYSED:
            reason = _reason_class(str(record.get("reason", "")), record["target"])
            bottlenecks[f"{outcome}: {reason}"] += 1
            continue
        server = _dict(record.get("server"))
        tools = [_dict(t) for t in _list(server.get("tools"))]
        tools_total += len(tools)
        unrecovered += len(_list(server.get("unrecovered")))
        findings = [_dict(f) for f in _list(server.get("metadata_findings"))]
        flagged = {
            f.get("tool") for f in findings if (s := _severity(f)) and s.at_least(FLAG_THRESHOLD)
        }
        flagged_total += len(flagged - {None})
        for rule_id in sorted({str(f.get("rule_id")) for f in findings}):
            rule_servers[rule_id] += 1
        rule_findings.update(str(f.get("rule_id")) for f in findings)
        for tool in tools:
            verdict = tool.get("verdict")
            if isinstance(verdict, str) and verdict in verdicts:
                verdicts[verdict] += 1
            undeclared.update(str(leaf) for leaf in _list(tool.get("undeclared")))
            if verdict == "UNANALYZABLE":
                tool_reasons.update(_reason_class(str(r), "") for r in _list(tool.get("reasons")))
        violating_servers += any(t.get("verdict") == "VIOLATION" for t in tools)
        offender = _offender(record, tools)
        if offender:
            offenders.append(offender)
    analysed = outcomes[ANALYSED]
    judged = verdicts["OK"] + verdicts["VIOLATION"]
    offenders.sort(
        key=lambda o: (
            -o["violating_tools"],
            -o["undeclared_leaves"],
            -o["high_metadata_findings"],
            o["target"],
        )
    )
    rules = load_registry([])
    frequent = []
    for item in _ranked(rule_findings):
        title = rules.get(item["name"]).title if item["name"] in rules else None
        frequent.append(
            {
                "rule_id": item["name"],
                "title": title,
                "findings": item["count"],
                "servers": rule_servers[item["name"]],
            }
        )
    return {
        "schema": REPORT_SCHEMA,
        "targets": len(records),
        "outcomes": dict(outcomes),
        "analysable_rate": _rate(analysed, len(records)),
        "tools_inspected": tools_total,
        "tool_verdicts": dict(verdicts),
        "tool_violation_rate": _rate(verdicts["VIOLATION"], judged),
        "tool_violation_rate_of_all_tools": _rate(verdicts["VIOLATION"], tools_total),
        "server_violation_rate": _rate(violating_servers, analysed),
        "servers_with_violations": violating_servers,
        "tools_flagged_by_metadata": flagged_total,
        "tool_flagged_rate": _rate(flagged_total, tools_total),
        "metadata_fields_unrecovered": unrecovered,
        "most_undeclared_capabilities": _ranked(undeclared, 13),
        "most_frequent_metadata_findings": frequent,
        "top_offenders": offenders[:TOP],
        "bottlenecks": {
            "targets": _ranked(bottlenecks),
            "unanalyzable_tools": _ranked(tool_reasons),
        },
    }

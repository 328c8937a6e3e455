"""Finding cards: the findings about one span (same tool, same JSON path, same evidence) share one
card — the evidence is shown once, each rule is one line in it. Every finding stays its own
`.finding` element (severity, family and tool on it), so the filters and the count work per
finding; a card hides when none of its findings is shown. Cards whose findings are all `info`
are one collapsed line."""

from __future__ import annotations

from typing import Any

from toolwitness.report.html_text import h, name_html, text_html

SEVERITIES = ("critical", "high", "medium", "low", "info")


def _witnesses(f: dict[str, Any]) -> str:
    items = "".join(
        "<li><code>"
        + h(":".join(str(w[k]) for k in ("file", "line") if w.get(k) is not None) or w["kind"])
        + "</code> "
        + text_html(" ".join(str(w[k]) for k in ("symbol", "detail") if w.get(k)))
        + "</li>"
        for w in f["witnesses"][:10]
    )
    return f"<ul>{items}</ul>" if items else ""


def _member(f: dict[str, Any]) -> str:
    family = f["rule_id"].split("-")[1]
    return (
        f'<li class="finding" data-severity="{f["severity"]}" '
        f'data-family="{h(family)}" data-tool="{h(f["tool"] or "")}">'
        f'<span class="sev sev-{f["severity"]}">{f["severity"]}</span> '
        f"<code>{h(f['rule_id'])}</code> {h(f['title'])} ({h(f['confidence'])}): "
        f"{text_html(f['message'])}"
        f"{_witnesses(f)}</li>"
    )


def group_findings(findings: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Findings about the same span, in the order their first (severest) one comes."""
    groups: dict[tuple[str, str, str], list[dict[str, Any]]] = {}
    for f in findings:
        groups.setdefault((f["tool"] or "", f["location"], f["evidence"] or ""), []).append(f)
    return list(groups.values())


def card(group: list[dict[str, Any]], deferred: bool = False) -> str:
    first = group[0]
    worst = min((f["severity"] for f in group), key=SEVERITIES.index)
    tool = name_html(first["tool"]) if first["tool"] else "<code>(server)</code>"
    evidence = (
        f'<pre class="evidence mono">{text_html(first["evidence"])}</pre>'
        if first["evidence"]
        else ""
    )
    members = f'<ul class="members">{"".join(_member(f) for f in group)}</ul>'
    where = f"Tool {tool} at <code>{h(first['location'])}</code>"
    rules = f"{len(group)} findings" if len(group) > 1 else "1 finding"
    count = f' <span class="count">— {rules}</span>' if len(group) > 1 else ""
    classes = f"card s-{worst}{' deferred' if deferred else ''}"
    if worst == "info":  # nothing to act on: one line, opened on demand
        return (
            f'<details class="{classes} compact"><summary>{where} — {rules} '
            f'<span class="sev sev-info">info</span></summary>{members}{evidence}</details>'
        )
    return f'<article class="{classes}"><h4>{where}{count}</h4>{members}{evidence}</article>'

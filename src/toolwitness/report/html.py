"""One self-contained HTML page: no network requests, a strict Content-Security-Policy that admits
only our own inline style and script (by hash), and every attacker string escaped and inert.

Rendered from the JSON report document, so `toolwitness report saved.json` and `--format html`
produce the same page.
"""

from __future__ import annotations

import base64
import hashlib
import re
from functools import lru_cache
from typing import Any

from toolwitness.datafiles import data_files
from toolwitness.findings import Confidence, Finding, Severity
from toolwitness.report.html_findings import SEVERITIES, card, group_findings
from toolwitness.report.html_svg import call_path, flow_graph
from toolwitness.report.html_tables import EMPTY, Column, table
from toolwitness.report.html_text import h, name_html, name_text, text_html
from toolwitness.report.interface import ReportOptions
from toolwitness.report.json_format import report_document
from toolwitness.result import Penalty, ScanResult
from toolwitness.score import explain

# Past these counts, rendering is deferred until scrolled to (CSS content-visibility).
_EAGER_FINDINGS = 300
_EAGER_ROWS = 200


@lru_cache(maxsize=1)
def _assets() -> tuple[str, str]:
    folder = data_files().joinpath("html")
    return folder.joinpath("report.css").read_text("utf-8"), folder.joinpath("report.js").read_text(
        "utf-8"
    )


def _sha256(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def _caps(values: list[str] | None) -> str:
    return EMPTY if values is None else (", ".join(h(v) for v in values) or "none")


def _finding(f: dict[str, Any]) -> Finding:
    # The document is ours (or checked against the report schema by `toolwitness report`).
    return Finding.model_construct(
        rule_id=f["rule_id"], title=f["title"], severity=Severity(f["severity"]),
        confidence=Confidence(f["confidence"]), tool=f["tool"], location=f["location"],
        message=f["message"], evidence=None, witnesses=(),
    )  # fmt: skip


def grade_reasons(server: dict[str, Any]) -> str:
    """Why the grade is what it is (score.explain), from the report document."""
    if server["grade"] is None:
        return ""
    findings = [_finding(f) for f in server["findings"]]
    vector = [Penalty(**p) for p in server["score_vector"]]
    return explain(findings, vector, len(server["tools"])).text()


_SUMMARY = [
    Column("server", "server"), Column("coverage", "coverage"), Column("score", "score", True),
    Column("grade", "grade", True), Column("tools", "tools", True),
    Column("flagged", "flagged", True), Column("findings", "findings", True),
    Column("pin", "pin"), Column("why", "why this grade"),
]  # fmt: skip


def _summary(doc: dict[str, Any], whys: list[str]) -> str:
    rows = []
    for s, why in zip(doc["servers"], whys, strict=True):
        grade = s["grade"] or EMPTY
        flagged = len(
            {f["tool"] for f in s["findings"] if f["tool"] and f["severity"] in SEVERITIES[:3]}
        )
        rows.append(
            [
                f'<a href="#srv-{_anchor(s["id"])}">{name_html(s["id"])}</a>',
                h(", ".join(s["coverage"])),
                str(s["score"]) if s["score"] is not None else EMPTY,
                f'<span class="grade grade-{grade}">{grade}</span>',
                str(len(s["tools"])), str(flagged), str(len(s["findings"])),
                h(s["pin"]["state"]) if s.get("pin") else EMPTY,
                h(why) or EMPTY,
            ]
        )  # fmt: skip
    return table(
        _SUMMARY, rows, css_class="summary",
        caption="Servers, trust scores and why each grade is what it is",
    )  # fmt: skip


def _anchor(server_id: str) -> str:
    return hashlib.sha256(server_id.encode("utf-8")).hexdigest()[:12]


def _filters(doc: dict[str, Any]) -> str:
    families = sorted({f["rule_id"].split("-")[1] for s in doc["servers"] for f in s["findings"]})
    tools = sorted({f["tool"] for s in doc["servers"] for f in s["findings"] if f["tool"]})
    sev = "".join(
        f'<label><input type="checkbox" name="sev" value="{s}" checked> {s}</label>'
        for s in SEVERITIES
    )
    fam = "".join(f'<option value="{h(f)}">{h(f)}</option>' for f in families)
    tool_options = "".join(f'<option value="{h(t)}">{h(name_text(t))}</option>' for t in tools)
    return (
        '<form id="filters" class="filters" role="search" aria-label="Filter findings">'
        f"<fieldset><legend>Severity</legend>{sev}</fieldset>"
        '<label for="f-family">Family</label><select id="f-family">'
        f'<option value="">all</option>{fam}</select>'
        '<label for="f-tool">Tool</label><select id="f-tool">'
        f'<option value="">all</option>{tool_options}</select>'
        '<label for="f-search">Search</label>'
        '<input id="f-search" type="search" placeholder="text in findings">'
        '<span id="shown-count" class="count" aria-live="polite"></span></form>'
    )


_TOOLS = [
    Column("tool", "tool"), Column("description", "description (escaped)"),
    Column("roles", "roles"), Column("declared", "declared"), Column("actual", "actual"),
    Column("undeclared", "undeclared"), Column("verdict", "code verdict"),
    Column("probe", "lab probe"),
]  # fmt: skip


def _tools_table(server: dict[str, Any]) -> str:
    rows = [
        [
            name_html(t["name"]),
            f'<span class="mono">{_description(t.get("description"))}</span>'
            if t.get("description") else EMPTY,
            EMPTY if not t["roles"] else _caps(t["roles"]),
            _caps(t["declared"]), _caps(t["actual"]), _caps(t["undeclared"]),
            h(t["verdict"] or EMPTY),
            h(t["probe"]["verdict"]) if t.get("probe") else EMPTY,
        ]
        for t in server["tools"]
    ]  # fmt: skip
    deferred = " deferred" if len(server["tools"]) > _EAGER_ROWS else ""
    return table(_TOOLS, rows, css_class=f"tools{deferred}")


_RUN_END = re.compile(r"(?:\\U[0-9a-f]{8}|\\u[0-9a-f]{4})+")
_MAX_RUN_KEPT = 20_000  # characters of a hidden run kept past the cut, to decode it whole


def _description(text: str | None, limit: int = 400) -> str:
    if not text:
        return EMPTY
    if len(text) > limit:
        cut = limit - 1
        run = _RUN_END.search(text, max(0, cut - 10), cut + _MAX_RUN_KEPT)
        if run is not None and run.start() <= cut < run.end():
            cut = run.end()  # do not cut a hidden run in two: it is shown decoded
        text = text[:cut] + ("…" if cut < len(text) else "")
    return text_html(text)


def _pin_table(server: dict[str, Any]) -> str:
    pin = server.get("pin")
    if not pin or not pin["changes"]:
        return ""
    rows = "".join(
        f'<tr><th scope="row">{name_html(c["tool"])}</th><td>{h(c["change"])}</td>'
        f"<td>{h(', '.join(c['fields']) or '–')}</td>"
        f"<td>{_hint_moves(c.get('hints') or [])}</td>"
        f"<td>{'yes' if c['widening'] else 'no'}</td></tr>"
        for c in pin["changes"]
    )
    return (
        f'<h3>Pin drift: {h(pin["state"])}</h3><table><thead><tr><th scope="col">tool</th>'
        '<th scope="col">change</th><th scope="col">fields changed</th>'
        '<th scope="col">hints (pinned → now)</th>'
        f'<th scope="col">widens privilege</th></tr></thead><tbody>{rows}</tbody></table>'
    )


def _hint_value(value: bool | None) -> str:
    return "absent" if value is None else str(value).lower()


def _hint_moves(moves: list[dict[str, Any]]) -> str:
    """`readOnlyHint: absent → true (widening)`, one per line; booleans only, no scanned text."""
    if not moves:
        return "–"
    return "<br>".join(
        f"<code>{h(m['hint'])}</code>: {h(_hint_value(m['before']))} → {h(_hint_value(m['after']))}"
        f" ({h(m['kind'])})"
        for m in moves
    )


def _violations(server: dict[str, Any]) -> str:
    out = []
    for t in server["tools"]:
        if t["verdict"] != "VIOLATION":
            continue
        for cap in t["undeclared"] or []:
            for w in t["witnesses"].get(cap, [])[:3]:
                out.append(call_path(t["name"], cap, w))
    return f"<h3>Call paths to undeclared capabilities</h3>{''.join(out)}" if out else ""


def render(doc: dict[str, Any]) -> str:
    css, js = _assets()
    csp = (
        f"default-src 'none'; style-src 'sha256-{_sha256(css)}'; script-src 'sha256-{_sha256(js)}';"
        " img-src data:; base-uri 'none'; form-action 'none'"
    )
    graph, nodes, edges = flow_graph(doc["servers"])
    servers = []
    rendered = 0  # findings so far on the page: the first few hundred render eagerly
    whys = [grade_reasons(s) for s in doc["servers"]]
    for s, why in zip(doc["servers"], whys, strict=True):
        cards = []
        for group in group_findings(s["findings"]):
            cards.append(card(group, deferred=rendered >= _EAGER_FINDINGS))
            rendered += len(group)
        findings = "".join(cards) or "<p>No findings.</p>"
        errors = "".join(f"<li>{h(e)}</li>" for e in s.get("errors", []))
        anchor = _anchor(s["id"])
        why_html = f'<p class="why">Why this grade: {h(why)}</p>' if why else ""
        servers.append(
            f'<section aria-labelledby="srv-{anchor}-h"><h2 id="srv-{anchor}-h">'
            f'<a id="srv-{anchor}"></a>Server {name_html(s["id"])} — grade '
            f"{s['grade'] or EMPTY}</h2>"
            f"{why_html}"
            f"{'<p><strong>Incomplete scan:</strong></p><ul>' + errors + '</ul>' if errors else ''}"
            f"<h3>Tools</h3>{_tools_table(s)}{_pin_table(s)}{_violations(s)}"
            f"<h3>Findings ({len(s['findings'])})</h3>{findings}</section>"
        )
    counts = ", ".join(f"{n} {k}" for k, n in doc["summary"]["findings"].items()) or "none"
    graph_section = (
        f'<section aria-labelledby="flows-h"><h2 id="flows-h">Toxic-flow graph</h2>'
        f'<p class="count">{nodes} role nodes, {edges} edges; dashed edges cross servers.</p>'
        f"{graph}</section>"
        if graph
        else ""
    )
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>toolwitness report</title><style>{css}</style></head><body>"
        '<a class="skip" href="#main">Skip to findings</a><header><h1>toolwitness report</h1>'
        f'<p class="count">toolwitness {h(doc["toolwitness_version"])} · '
        f"{doc['summary']['servers']} servers · {doc['summary']['tools']} tools · "
        f"{doc['summary']['flagged_tools']} flagged · findings: {h(counts)}</p></header>"
        f'<main id="main"><section aria-labelledby="summary-h"><h2 id="summary-h">Summary</h2>'
        f"{_summary(doc, whys)}</section>{_filters(doc)}{graph_section}{''.join(servers)}</main>"
        f"<script>{js}</script></body></html>\n"
    )


class HtmlFormat:
    def __init__(self, options: ReportOptions) -> None:
        self.options = options

    def format(self, result: ScanResult) -> str:
        return render(report_document(result, self.options.redact))

"""One self-contained HTML page: no network requests, a strict Content-Security-Policy that admits
only our own inline style and script (by hash), and every attacker string escaped and inert.

Rendered from the JSON report document, so `toolwitness report saved.json` and `--format html`
produce the same page.
"""

from __future__ import annotations

import base64
import hashlib
from functools import lru_cache
from importlib import resources
from typing import Any

from toolwitness.report.html_svg import call_path, flow_graph, h
from toolwitness.report.interface import ReportOptions
from toolwitness.report.json_format import report_document
from toolwitness.result import ScanResult

SEVERITIES = ("critical", "high", "medium", "low", "info")
# Past these counts, rendering is deferred until scrolled to (CSS content-visibility).
_EAGER_FINDINGS = 300
_EAGER_ROWS = 200


@lru_cache(maxsize=1)
def _assets() -> tuple[str, str]:
    folder = resources.files("toolwitness.data").joinpath("html")
    return folder.joinpath("report.css").read_text("utf-8"), folder.joinpath("report.js").read_text(
        "utf-8"
    )


def _sha256(text: str) -> str:
    return base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")


def _caps(values: list[str] | None) -> str:
    return "–" if values is None else (", ".join(h(v) for v in values) or "none")


def _summary(doc: dict[str, Any]) -> str:
    rows = []
    for s in doc["servers"]:
        grade = s["grade"] or "–"
        vector = "".join(
            f"<li><code>{h(p['rule_id'])}</code> −{p['penalty']:g}</li>" for p in s["score_vector"]
        )
        pin = s["pin"]["state"] if s.get("pin") else "–"
        flagged = len(
            {f["tool"] for f in s["findings"] if f["tool"] and f["severity"] in SEVERITIES[:3]}
        )
        rows.append(
            f'<tr><th scope="row"><a href="#srv-{_anchor(s["id"])}">{h(s["id"])}</a></th>'
            f"<td>{h(', '.join(s['coverage']))}</td>"
            f"<td>{s['score'] if s['score'] is not None else '–'}</td>"
            f'<td class="grade grade-{grade}">{grade}</td><td>{len(s["tools"])}</td>'
            f"<td>{flagged}</td>"
            f"<td>{len(s['findings'])}</td><td>{h(pin)}</td>"
            f"<td>{'<ul>' + vector + '</ul>' if vector else '–'}</td></tr>"
        )
    return (
        '<table class="summary"><caption class="count">'
        "Servers, trust scores and the itemised penalty vector"
        '</caption><thead><tr><th scope="col">server</th><th scope="col">coverage</th>'
        '<th scope="col">score</th><th scope="col">grade</th><th scope="col">tools</th>'
        '<th scope="col">flagged</th><th scope="col">findings</th><th scope="col">pin</th>'
        f'<th scope="col">penalties</th></tr></thead><tbody>{"".join(rows)}</tbody></table>'
    )


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
    tool_options = "".join(f'<option value="{h(t)}">{h(t)}</option>' for t in tools)
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


def _finding(f: dict[str, Any], deferred: bool = False) -> str:
    evidence = f'<pre class="evidence mono">{h(f["evidence"])}</pre>' if f["evidence"] else ""
    witnesses = "".join(
        "<li><code>"
        + h(":".join(str(w[k]) for k in ("file", "line") if w.get(k) is not None) or w["kind"])
        + "</code> "
        + h(" ".join(str(w[k]) for k in ("symbol", "detail") if w.get(k)))
        + "</li>"
        for w in f["witnesses"][:10]
    )
    return (
        f'<article class="finding s-{f["severity"]}{" deferred" if deferred else ""}" '
        f'data-severity="{f["severity"]}" '
        f'data-family="{h(f["rule_id"].split("-")[1])}" data-tool="{h(f["tool"] or "")}">'
        f'<h4><span class="sev sev-{f["severity"]}">{f["severity"]}</span> '
        f"<code>{h(f['rule_id'])}</code> {h(f['title'])}</h4>"
        f"<p>Tool <code>{h(f['tool'] or '(server)')}</code> at <code>{h(f['location'])}</code> "
        f"— confidence {h(f['confidence'])}. {h(f['message'])}</p>{evidence}"
        f"{'<ul>' + witnesses + '</ul>' if witnesses else ''}</article>"
    )


def _tools_table(server: dict[str, Any]) -> str:
    rows = []
    for t in server["tools"]:
        probe = t["probe"]["verdict"] if t.get("probe") else "–"
        rows.append(
            f'<tr><th scope="row"><code>{h(t["name"])}</code></th>'
            f'<td class="mono">{_description(t.get("description"))}</td>'
            f"<td>{_caps(t['roles'])}</td>"
            f"<td>{_caps(t['declared'])}</td><td>{_caps(t['actual'])}</td>"
            f"<td>{_caps(t['undeclared'])}</td><td>{h(t['verdict'] or '–')}</td>"
            f"<td>{h(probe)}</td></tr>"
        )
    return (
        f'<table class="tools{" deferred" if len(server["tools"]) > _EAGER_ROWS else ""}">'
        '<thead><tr><th scope="col">tool</th><th scope="col">description (escaped)</th>'
        '<th scope="col">roles</th>'
        '<th scope="col">declared</th><th scope="col">actual</th><th scope="col">undeclared</th>'
        '<th scope="col">code verdict</th><th scope="col">lab probe</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _description(text: str | None, limit: int = 400) -> str:
    if not text:
        return "–"
    return h(text if len(text) <= limit else text[: limit - 1] + "…")


def _pin_table(server: dict[str, Any]) -> str:
    pin = server.get("pin")
    if not pin or not pin["changes"]:
        return ""
    rows = "".join(
        f'<tr><th scope="row"><code>{h(c["tool"])}</code></th><td>{h(c["change"])}</td>'
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
    for s in doc["servers"]:
        findings = "".join(
            _finding(f, deferred=rendered + i >= _EAGER_FINDINGS)
            for i, f in enumerate(s["findings"])
        )
        rendered += len(s["findings"])
        findings = findings or "<p>No findings.</p>"
        errors = "".join(f"<li>{h(e)}</li>" for e in s.get("errors", []))
        anchor = _anchor(s["id"])
        servers.append(
            f'<section aria-labelledby="srv-{anchor}-h"><h2 id="srv-{anchor}-h">'
            f'<a id="srv-{anchor}"></a>Server <code>{h(s["id"])}</code> — grade '
            f"{s['grade'] or '–'}</h2>"
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
        f"{_summary(doc)}</section>{_filters(doc)}{graph_section}{''.join(servers)}</main>"
        f"<script>{js}</script></body></html>\n"
    )


class HtmlFormat:
    def __init__(self, options: ReportOptions) -> None:
        self.options = options

    def format(self, result: ScanResult) -> str:
        return render(report_document(result, self.options.redact))

"""Pictures for the HTML report, drawn as inline SVG by toolwitness itself (no browser library):
the toxic-flow graph and, per code violation, the call path from handler to sink."""

from __future__ import annotations

from html import escape
from typing import Any

from toolwitness.report.html_text import MARK, ascii_escaped, h, is_plain, name_text
from toolwitness.textnorm import escape_display

FLOW_ROLES = ("untrusted-input", "sensitive-source", "external-sink")
_COLUMN_TITLES = ("untrusted input", "sensitive source", "external sink")
_MAX_NODES_PER_COLUMN = 80
_MAX_EDGES = 600
_NODE_W, _NODE_H, _GAP, _COL_GAP, _TOP = 250, 26, 8, 90, 40


__all__ = ["call_path", "flow_graph", "h"]


def _label(text: str, limit: int = 36) -> str:
    # A name that is not plain ASCII is drawn marked and escaped: `⚠ web/re\u0430d_file`.
    shown = escape_display(text) if is_plain(text) else f"{MARK} {ascii_escaped(text)}"
    return shown if len(shown) <= limit else shown[: limit - 1] + "…"


def _arrow_defs() -> str:
    return (
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
        'markerHeight="7" orient="auto-start-reverse"><path d="M 0 0 L 10 5 L 0 10 z" '
        'fill="#555"/></marker></defs>'
    )


def flow_graph(servers: list[dict[str, Any]]) -> tuple[str, int, int]:
    """SVG of tools by flow role with edges input→source→sink; returns (svg, nodes, edges)."""
    columns: list[list[tuple[str, str]]] = [[], [], []]
    for server in servers:
        for tool in server["tools"]:
            for i, role in enumerate(FLOW_ROLES):
                if role in tool.get("roles", []) and len(columns[i]) < _MAX_NODES_PER_COLUMN:
                    columns[i].append((server["id"], tool["name"]))
    if not any(columns[0]) and not any(columns[1]) and not any(columns[2]):
        return "", 0, 0
    pos: dict[tuple[int, str, str], tuple[int, int]] = {}
    parts: list[str] = []
    for col, nodes in enumerate(columns):
        x = 20 + col * (_NODE_W + _COL_GAP)
        parts.append(
            f'<text x="{x}" y="24" font-weight="bold">{_COLUMN_TITLES[col]} ({len(nodes)})</text>'
        )
        for row, (server_id, tool) in enumerate(nodes):
            y = _TOP + row * (_NODE_H + _GAP)
            pos[(col, server_id, tool)] = (x, y)
            key = h(name_text(f"{server_id}/{tool}"))
            parts.append(
                f'<g class="node" data-server="{h(server_id)}" data-tool="{h(tool)}" '
                f'data-role="{FLOW_ROLES[col]}"><title>{key} — {FLOW_ROLES[col]}</title>'
                f'<rect class="role-{FLOW_ROLES[col]}" x="{x}" y="{y}" width="{_NODE_W}" '
                f'height="{_NODE_H}" rx="4"/><text x="{x + 6}" y="{y + 17}">'
                f"{escape(_label(f'{server_id}/{tool}'))}</text></g>"
            )
    edges = 0
    for col in (0, 1):
        for (c, s1, t1), (x1, y1) in pos.items():
            if c != col:
                continue
            for (c2, s2, t2), (x2, y2) in pos.items():
                if c2 != col + 1 or edges >= _MAX_EDGES:
                    continue
                cross = s1 != s2
                a, b = (x1 + _NODE_W, y1 + _NODE_H // 2), (x2, y2 + _NODE_H // 2)
                mid = (a[0] + b[0]) // 2
                parts.append(
                    f'<path class="edge{" cross" if cross else ""}" '
                    f'data-from="{h(f"{s1}/{t1}")}" data-to="{h(f"{s2}/{t2}")}" '
                    f'data-from-role="{FLOW_ROLES[col]}" data-to-role="{FLOW_ROLES[col + 1]}" '
                    f'd="M {a[0]} {a[1]} C {mid} {a[1]}, {mid} {b[1]}, {b[0]} {b[1]}"/>'
                )
                edges += 1
    height = _TOP + max(len(c) for c in columns) * (_NODE_H + _GAP) + 20
    width = 40 + 3 * _NODE_W + 2 * _COL_GAP
    svg = (
        f'<svg id="flow-graph" role="img" aria-labelledby="flow-graph-title" '
        f'viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'xmlns="http://www.w3.org/2000/svg"><title id="flow-graph-title">Toxic-flow graph: '
        f"tools by role, edges from untrusted input to sensitive source to external sink"
        f"</title>{_arrow_defs()}{''.join(parts)}</svg>"
    )
    return svg, sum(len(c) for c in columns), edges


def call_path(tool: str, capability: str, witness: dict[str, Any]) -> str:
    """SVG of one witness's call path: handler → … → sink, file:line on every hop we know."""
    hops = [str(p) for p in witness.get("path", [])][:12]
    where = f"{witness.get('file', '?')}:{witness.get('line', '?')}"
    sink = f"{witness.get('symbol') or capability} @ {where}"
    labels = [*hops, sink] if hops[-1:] != [sink] else hops
    width, box_h, gap = 620, 26, 16
    parts = []
    for i, label in enumerate(labels):
        y = 10 + i * (box_h + gap)
        is_sink = i == len(labels) - 1
        parts.append(
            f'<g class="hop{" sink" if is_sink else ""}" data-hop="{i}"><rect class="hop'
            f'{" sink" if is_sink else ""}" x="10" y="{y}" width="{width - 20}" height="{box_h}" '
            f'rx="4"/><text x="18" y="{y + 17}">{escape(_label(label, 90))}</text></g>'
        )
        if not is_sink:
            x = width // 2
            parts.append(f'<path class="edge" d="M {x} {y + box_h} L {x} {y + box_h + gap}"/>')
    height = 20 + len(labels) * (box_h + gap)
    return (
        f'<svg class="call-path" role="img" data-tool="{h(tool)}" data-capability="{h(capability)}"'
        f' viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'xmlns="http://www.w3.org/2000/svg"><title>{h(name_text(tool))} reaches '
        f"{h(capability)} at {h(where)}</title>{_arrow_defs()}{''.join(parts)}</svg>"
    )

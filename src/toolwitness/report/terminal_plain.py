"""The terminal report as plain text, without rich: the same bytes rich prints when the report is
neither coloured nor wrapped (a pipe, a file, CI logs — the usual case for a large scan).

rich lays out every line and table cell as styled segments: ~0.4 ms per tool row, seconds for
a few thousand tools. Uncoloured and unwrapped, what it prints is simple: each line's text as
is, and the tools table in the HEAVY_HEAD box with one space of padding inside (none at the
table's left and right edges), columns as wide as their widest cell in terminal cells. This
module prints exactly that, mirroring `terminal._server_block` line for line;
`tests/test_terminal_plain.py` holds the two equal on the corpus, the fixtures, generated
catalogs and random text. A table wider than rich's unwrapped width (which rich would shrink)
returns None, and the caller lets rich render the report.
"""

from __future__ import annotations

from collections.abc import Callable

from toolwitness.findings import Finding, Severity
from toolwitness.report.evidence import shown_evidence
from toolwitness.result import ServerResult
from toolwitness.textnorm import escape_display

Row = tuple[str, ...]


def server_lines(
    server: ServerResult, redact: bool, why: str, worst: Callable[[list[Finding]], Severity | None]
) -> list[str] | None:
    """The lines of one server's block (`terminal._server_block`), or None for rich."""
    grade = "–" if server.grade is None else f"{server.grade} ({server.score})"
    head = f"Server {escape_display(server.id)}"
    head += f"   grade {grade}   {len(server.tools)} tools   {len(server.findings)} findings"
    if server.suppressed:
        head += f"   {len(server.suppressed)} suppressed"
    if server.pin is not None:
        head += f"   pin {server.pin.state}"
    lines = [head]
    if why:
        lines.append(escape_display("  why: " + why))
    if server.incomplete:
        lines.append(escape_display("INCOMPLETE: " + "; ".join(server.errors)))
    lines.extend(escape_display("note: " + note) for note in server.surface.notes)
    by_tool: dict[str | None, list[Finding]] = {}
    for f in server.findings:
        by_tool.setdefault(f.tool, []).append(f)
    if server.tools:
        table = _tools_table(server, by_tool, worst)
        if table is None:
            return None
        lines.extend(table)
    for tool_name in sorted(by_tool, key=lambda n: (n is not None, n or "")):
        label = "(server)" if tool_name is None else tool_name
        lines += ["", escape_display(f"▸ {label}")]
        for f in by_tool[tool_name]:
            lines.append(
                f"  {f.severity.value.upper():8} {f.rule_id} {escape_display(f.title)}"
                f"  [{f.confidence.value}]"
            )
            lines.append(escape_display(f"      at {f.location}: {f.message}"))
            evidence = shown_evidence(f, redact)
            if evidence:
                lines.append("      evidence: " + evidence)
            for w in f.witnesses[:5]:
                where = f"{w.file}:{w.line}" if w.file and w.line else (w.file or w.kind)
                detail = " ".join(x for x in (w.symbol, w.detail) if x)
                lines.append(escape_display(f"      witness: {where} {detail}".rstrip()))
    for s in server.suppressed:
        where = f"{s.finding.rule_id} on {s.finding.tool or '(server)'}"
        lines.append(escape_display(f"  suppressed {where}: {s.justification}"))
    return lines


def _tools_table(
    server: ServerResult,
    by_tool: dict[str | None, list[Finding]],
    worst: Callable[[list[Finding]], Severity | None],
) -> list[str] | None:
    probed = any(t.probe for t in server.tools)
    header: Row = ("tool", "worst", "findings", "verdict", *(("lab",) if probed else ()), "digest")
    rows: list[Row] = []
    for tool in server.tools:
        found = by_tool.get(tool.name, [])
        worst_one = worst(found)
        lab = (str(tool.probe["verdict"]) if tool.probe else "–",) if probed else ()
        rows.append((
            escape_display(tool.name), worst_one.value if worst_one else "–", str(len(found)),
            tool.verdict or "–", *lab, tool.digest[7:19],
        ))  # fmt: skip
    return box_table(header, rows, right_aligned=frozenset({2}))


def box_table(header: Row, rows: list[Row], right_aligned: frozenset[int]) -> list[str] | None:
    """rich's `Table(show_lines=False, pad_edge=False)` in the HEAVY_HEAD box, unstyled."""
    measure = _cell_width_function([header, *rows])
    widths = [max(measure(row[i]) for row in (header, *rows)) for i in range(len(header))]
    last = len(header) - 1
    pads = [(0 if i == 0 else 1, 0 if i == last else 1) for i in range(len(header))]
    spans = [w + left + right for w, (left, right) in zip(widths, pads, strict=True)]
    if sum(spans) + len(spans) + 1 > UNWRAPPED:
        return None

    def line(row: Row, edge: str) -> str:
        cells = []
        for i, text in enumerate(row):
            fill = " " * (widths[i] - measure(text))
            body = fill + text if i in right_aligned else text + fill
            cells.append(" " * pads[i][0] + body + " " * pads[i][1])
        return edge + edge.join(cells) + edge

    return [
        "┏" + "┳".join("━" * n for n in spans) + "┓",
        line(header, "┃"),
        "┡" + "╇".join("━" * n for n in spans) + "┩",
        *(line(row, "│") for row in rows),
        "└" + "┴".join("─" * n for n in spans) + "┘",
    ]


UNWRAPPED = 100_000  # the console width the report is laid out in when nothing wraps


def _cell_width_function(rows: list[Row]) -> Callable[[str], int]:
    """`len` while every cell is ASCII (one terminal cell per character); otherwise rich's own
    cell widths (wide East Asian characters take two cells, combining marks none)."""
    if all(text.isascii() for row in rows for text in row):
        return len
    from rich.cells import cell_len

    return cell_len

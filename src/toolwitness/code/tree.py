"""`toolwitness code --graph TOOL`: the call tree from a tool's handler to every sink it reaches.

Text only; every name from the scanned code is escaped before it reaches a terminal.
"""

from __future__ import annotations

from toolwitness.code import lattice
from toolwitness.code.graph import CallGraph, DispatchContext, SinkHit
from toolwitness.code.verify import ToolVerdict
from toolwitness.textnorm import escape_display

_Node = dict[str, "_Node"]


def render_tool_tree(verdict: ToolVerdict, hits: list[SinkHit]) -> str:
    spec = verdict.spec
    lines = [
        f"tool {escape_display(spec.name)}  ({escape_display(spec.file)}:{spec.line}, "
        f"{spec.shape})  verdict {verdict.verdict}",
        f"  declared: {', '.join(lattice.display(verdict.declaration.leaves)) or '-'}",
        f"  actual:   {', '.join(lattice.ordered(verdict.actual)) or '-'}",
    ]
    if verdict.undeclared:
        lines.append(f"  undeclared: {', '.join(lattice.ordered(verdict.undeclared))}")
    for reason in verdict.reasons:
        lines.append(f"  unresolved: {escape_display(reason)}")
    root: _Node = {}
    for hit in sorted(hits, key=lambda h: (h.path, h.line, h.column, h.leaf)):
        node = root
        for label in hit.path:
            node = node.setdefault(label, {})
        sink = f"{hit.symbol}  [{hit.leaf} via {hit.sink}]  {hit.file}:{hit.line}:{hit.column}"
        node.setdefault("\0" + sink, {})
    if not root:
        lines.append("  (no sink reached)")
    lines.extend(_draw(root, "  "))
    return "\n".join(lines) + "\n"


def _draw(node: _Node, prefix: str) -> list[str]:
    out: list[str] = []
    items = list(node.items())
    for index, (label, child) in enumerate(items):
        last = index == len(items) - 1
        shown = label[1:] if label.startswith("\0") else label
        out.append(f"{prefix}{'└─ ' if last else '├─ '}{escape_display(shown)}")
        out.extend(_draw(child, prefix + ("   " if last else "│  ")))
    return out


def all_hits(verdict: ToolVerdict, graph: CallGraph, names: frozenset[str]) -> list[SinkHit]:
    """Every sink hit of the tool (not only the few witnesses a report keeps)."""
    ctx = DispatchContext(verdict.spec.name if verdict.spec.dispatch else None, names)
    reach = graph.reach(verdict.spec.handlers, ctx, per_leaf=10_000)
    return [hit for hits in reach.hits.values() for hit in hits]

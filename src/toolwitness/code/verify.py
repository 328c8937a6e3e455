"""Per-tool verdicts: OK, VIOLATION (undeclared leaves with witnesses) or UNANALYZABLE.

`P_actual` is the set of leaves the handler reaches; `P_declared` comes from `declared.declare`.
A VIOLATION names every undeclared leaf with at least one witness (file, line, column, symbol,
call path). A tool whose code path could not be fully resolved is UNANALYZABLE with its
reasons unless a witnessed violation was found anyway; it is never OK. Severity follows what the
client trusts: a leaf the annotations rule out (TW-CODE-001) is high; a leaf only the
description misses (TW-CODE-002) is medium.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from toolwitness.code import lattice
from toolwitness.code.declared import Declaration, DeclaredFrom, declare
from toolwitness.code.graph import CallGraph, DispatchContext, Reach, SinkHit
from toolwitness.code.registrations import ToolSpec
from toolwitness.findings import Finding, Witness
from toolwitness.rules import RuleRegistry

OK = "OK"
VIOLATION = "VIOLATION"
UNANALYZABLE = "UNANALYZABLE"


@dataclass
class ToolVerdict:
    spec: ToolSpec
    declaration: Declaration
    reach: Reach
    verdict: str
    reasons: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def actual(self) -> frozenset[str]:
        return self.reach.leaves

    @property
    def undeclared(self) -> frozenset[str]:
        return lattice.minus(self.actual, self.declaration.leaves)

    def witnesses(self) -> dict[str, tuple[Witness, ...]]:
        return {
            leaf: tuple(to_witness(hit) for hit in self.reach.hits[leaf])
            for leaf in lattice.ordered(self.actual)
        }


def to_witness(hit: SinkHit) -> Witness:
    return Witness(
        kind="source",
        file=hit.file,
        line=hit.line,
        column=hit.column - 1,  # Witness columns are 0-based code points (SARIF adds 1)
        symbol=hit.symbol,
        path=(*hit.path, hit.sink),
        detail=f"{hit.leaf} via {hit.sink}",
    )


def verify_tools(
    specs: list[ToolSpec], graph: CallGraph, mode: DeclaredFrom = DeclaredFrom.BOTH
) -> list[ToolVerdict]:
    names = frozenset(s.name for s in specs)
    verdicts: list[ToolVerdict] = []
    for spec in specs:
        declaration = declare(spec.name, spec.description, spec.annotations, mode)
        ctx = DispatchContext(spec.name if spec.dispatch else None, names)
        try:
            reach = graph.reach(spec.handlers, ctx) if spec.handlers else Reach()
        except RecursionError:  # fail closed: an analysis that did not finish is not OK
            reach = Reach(reasons=["the code nests deeper than the analysis follows"])
        reasons = sorted(set(spec.problems) | set(reach.reasons))
        if lattice.minus(reach.leaves, declaration.leaves):
            verdict = VIOLATION  # a witnessed violation stands even if some path was unresolved
        elif reasons:
            verdict = UNANALYZABLE
        else:
            verdict = OK
        verdicts.append(ToolVerdict(spec, declaration, reach, verdict, reasons))
    return verdicts


def findings_for(verdict: ToolVerdict, rules: RuleRegistry) -> list[Finding]:
    """TW-CODE-001 for leaves the annotations rule out, -002 for the rest, -003 if unanalysed."""
    out: list[Finding] = []
    location = f"code:{verdict.spec.file}:{verdict.spec.line}"
    undeclared = verdict.undeclared
    prohibited = undeclared & verdict.declaration.prohibited
    for rule_id, leaves in (("TW-CODE-001", prohibited), ("TW-CODE-002", undeclared - prohibited)):
        if not leaves:
            continue
        witnesses = tuple(
            to_witness(hit) for leaf in lattice.ordered(leaves) for hit in verdict.reach.hits[leaf]
        )
        first = witnesses[0]
        shown = ", ".join(lattice.ordered(leaves))
        out.append(
            rules.finding(
                rule_id,
                tool=verdict.name,
                location=location,
                message=f"handler reaches {shown} (first at {first.file}:{first.line})",
                evidence=" -> ".join(first.path),
                witnesses=witnesses,
            )
        )
    if verdict.reasons:
        out.append(
            rules.finding(
                "TW-CODE-003",
                tool=verdict.name,
                location=location,
                message="code path not fully resolved: " + "; ".join(verdict.reasons[:5]),
            )
        )
    return out

"""Per-tool verdicts: OK, VIOLATION (undeclared leaves with witnesses) or UNANALYZABLE.

`P_actual` is the set of leaves the handler reaches; `P_declared` comes from `declared.declare`.
A VIOLATION names every undeclared leaf with at least one witness (file, line, column, symbol,
call path). A tool whose code path could not be fully resolved is UNANALYZABLE with its
reasons unless a witnessed violation was found anyway; it is never OK. Severity follows what the
client trusts: a leaf the annotations rule out (TW-CODE-001) is high; a leaf only the
description misses (TW-CODE-002) is medium.
"""

from __future__ import annotations

from toolwitness.code import lattice
from toolwitness.code.declared import Declaration, DeclaredFrom, declare, is_credential_name
from toolwitness.code.graph import CallGraph, DispatchContext, Reach, SinkHit
from toolwitness.code.specs import ToolSpec
from toolwitness.findings import Finding, Witness
from toolwitness.plainclass import field, plainclass
from toolwitness.rules import RuleRegistry

OK = "OK"
VIOLATION = "VIOLATION"
UNANALYZABLE = "UNANALYZABLE"


@plainclass
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
    def authenticated(self) -> frozenset[str]:
        """The credentials the tool reads only to authenticate its declared network call."""
        return credentials_for_network(self.reach, self.declaration.leaves)

    @property
    def undeclared(self) -> frozenset[str]:
        missing = lattice.minus(self.actual, self.declaration.leaves)
        return missing - {"ENV"} if self.authenticated else missing

    def witnesses(self) -> dict[str, tuple[Witness, ...]]:
        authenticated = self.authenticated
        return {
            leaf: tuple(to_witness(hit, authenticated) for hit in self.reach.hits[leaf])
            for leaf in lattice.ordered(self.actual)
        }


def credentials_for_network(reach: Reach, declared: frozenset[str]) -> frozenset[str]:
    """Leaf convention (docs/capabilities.md): reading named credentials (`GITHUB_TOKEN`) is
    part of a declared network call it authenticates; reading, dumping or enumerating the
    environment otherwise is ENV. Empty unless every ENV read is such a credential."""
    hits = reach.hits.get("ENV", [])
    if not hits or "NETWORK_OUTBOUND" not in reach.leaves or "NETWORK_OUTBOUND" not in declared:
        return frozenset()
    keys = {hit.key for hit in hits}
    if None in keys or len(keys) > _MAX_CREDENTIALS:
        return frozenset()
    named = frozenset(k for k in keys if k is not None)
    return named if all(is_credential_name(k) for k in named) else frozenset()


_MAX_CREDENTIALS = 3


def to_witness(hit: SinkHit, authenticated: frozenset[str] = frozenset()) -> Witness:
    detail = f"{hit.leaf} via {hit.sink}"
    if hit.leaf == "ENV" and hit.key in authenticated:
        detail += f" (credential {hit.key}, read to authenticate the declared network call)"
    return Witness(
        kind="source",
        file=hit.file,
        line=hit.line,
        column=hit.column - 1,  # Witness columns are 0-based code points (SARIF adds 1)
        symbol=hit.symbol,
        path=(*hit.path, hit.sink),
        detail=detail,
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
        undeclared = lattice.minus(reach.leaves, declaration.leaves)
        if credentials_for_network(reach, declaration.leaves):
            undeclared -= {"ENV"}
        if undeclared:
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

"""TW-FLOW-001..007: toxic flows -- untrusted input, private data and egress an agent can chain.

A *hop* is one tool playing one role. The lethal trifecta needs three hops: untrusted-input ->
sensitive-source -> external-sink. Inside one tool it is confirmed (one call does all three);
across a server's tools or across servers it is strong (the model must chain the calls). Each
finding lists the hops as witnesses of kind "field": which tool, which role, which words.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from toolwitness.checks.interface import CheckContext, register_fleet_check, server_check
from toolwitness.checks.roles.derive import ToolRoles, surface_roles
from toolwitness.findings import Confidence, Finding, Severity, Witness
from toolwitness.model import ServerSurface
from toolwitness.plainclass import plainclass

TRIFECTA = ("untrusted-input", "sensitive-source", "external-sink")
ACTIONS = ("code-exec", "destructive")
_STRONG = ("name", "parameter", "builtin")  # a built-in's role is documented
_TRIFECTA_SET = frozenset(TRIFECTA)
_HOP_ROLES = frozenset((*TRIFECTA, *ACTIONS))
# TW-FLOW-001/004 need sensitive-source, 006 needs untrusted-input.
_FLOW_ROLES = frozenset({"sensitive-source", "untrusted-input"})


@plainclass(frozen=True)
class Hop:
    server: str
    roles: ToolRoles
    role: str

    @property
    def strong(self) -> bool:
        return _strong(self.roles, self.role)

    def witness(self, show_server: bool = False) -> Witness:
        signals = sorted(
            self.roles.evidence(self.role), key=lambda s: (s.source not in _STRONG, s.location)
        )
        first = signals[0]
        where = f"server {self.server}: " if show_server else ""
        return Witness(
            kind="field",
            symbol=self.roles.tool,
            path=(first.location,),
            detail=f"{where}{self.role} via {first.term}",
        )


def _strong(roles: ToolRoles, role: str) -> bool:
    return any(s.source in _STRONG for s in roles.evidence(role))


def best_hop(server: str, candidates: Sequence[ToolRoles], role: str) -> Hop | None:
    """The tool that plays `role` on the strongest evidence, then the first by position.
    `candidates` come in position order (as `surface_roles` gives them), so the first strong
    player is the answer and, with none strong, the first player."""
    first = None
    for r in candidates:
        if r.evidence(role):
            if _strong(r, role):
                return Hop(server, r, role)
            first = first or r
    return None if first is None else Hop(server, first, role)


def _grade(hops: Sequence[Hop]) -> tuple[Severity | None, Confidence | None]:
    """Rule defaults when every hop rests on a name or parameter; weaker when prose carries one."""
    return (None, None) if all(h.strong for h in hops) else (Severity.HIGH, Confidence.HEURISTIC)


def _single_tool(
    roles: ToolRoles, present: frozenset[str], server: str, ctx: CheckContext
) -> Iterator[Finding]:
    """`present` is the tool's roles: `roles.has(r)` (any source) is `r in present`."""
    if present.isdisjoint(_FLOW_ROLES):
        return  # every finding below needs one of these roles
    loc = f"tools[{roles.index}]"
    if all(r in present for r in TRIFECTA):
        hops = [Hop(server, roles, r) for r in TRIFECTA]
        strong = all(h.strong for h in hops)
        yield ctx.rules.finding(
            "TW-FLOW-001",
            tool=roles.tool,
            location=loc,
            message="one tool takes untrusted input, reads private data and can send data out",
            evidence=" -> ".join(TRIFECTA),
            witnesses=tuple(h.witness() for h in hops),
            confidence=None if strong else Confidence.STRONG,
        )
        return
    if "sensitive-source" in present and "external-sink" in present:
        secret = "credential-access" in present
        role = "credential-access" if secret else "sensitive-source"
        hops = [Hop(server, roles, role), Hop(server, roles, "external-sink")]
        # A tool whose name says it is about credentials (a password manager's share, a secret
        # scanner's report) moves them by design: reported, not called harvesting.
        harvest = secret and not roles.has("credential-access", sources=("name",))
        what = "credentials" if secret else "private data"
        yield ctx.rules.finding(
            "TW-FLOW-004",
            tool=roles.tool,
            location=loc,
            message=f"reads {what} and sends data out"
            + ("" if harvest or not secret else " (credentials are what its name says it handles)"),
            evidence=f"{role} -> external-sink",
            witnesses=tuple(h.witness() for h in hops),
            severity=Severity.HIGH if harvest else None,
            confidence=Confidence.STRONG if harvest else None,
        )
    action = next((a for a in ACTIONS if a in present), None)
    if "untrusted-input" in present and action:
        hops = [Hop(server, roles, "untrusted-input"), Hop(server, roles, action)]
        yield ctx.rules.finding(
            "TW-FLOW-006",
            tool=roles.tool,
            location=loc,
            message=f"one tool takes untrusted input and acts on it ({action})",
            evidence=f"untrusted-input -> {action}",
            witnesses=tuple(h.witness() for h in hops),
        )


def _across_tools(
    players: dict[str, list[ToolRoles]], server: str, ctx: CheckContext
) -> Iterator[Finding]:
    """`players[role]`: the tools that play `role`, in position order."""
    hops = [best_hop(server, players[role], role) for role in TRIFECTA]
    if all(h is not None for h in hops):
        chain = [h for h in hops if h is not None]
        severity, confidence = _grade(chain)
        yield ctx.rules.finding(
            "TW-FLOW-002",
            tool=None,
            location="tools",
            message=f"the server's tools complete the lethal trifecta: {_names(chain)}",
            evidence=" -> ".join(f"{h.roles.tool} ({h.role})" for h in chain),
            witnesses=tuple(h.witness() for h in chain),
            severity=severity,
            confidence=confidence,
        )
        return
    source, sink = hops[1], hops[2]
    if source and sink and source.roles.tool != sink.roles.tool:
        yield ctx.rules.finding(
            "TW-FLOW-005",
            tool=None,
            location="tools",
            message=f"a private-data reader and an external sink: {_names([source, sink])}",
            evidence=f"{source.roles.tool} (sensitive-source) -> {sink.roles.tool} (external-sink)",
            witnesses=(source.witness(), sink.witness()),
        )
    untrusted = hops[0]
    for action in ACTIONS:
        target = best_hop(server, players[action], action)
        if untrusted and target and target.roles.tool != untrusted.roles.tool:
            yield ctx.rules.finding(
                "TW-FLOW-007",
                tool=None,
                location="tools",
                message=f"untrusted content can steer an action: {_names([untrusted, target])}",
                evidence=f"{untrusted.roles.tool} (untrusted-input) -> "
                f"{target.roles.tool} ({action})",
                witnesses=(untrusted.witness(), target.witness()),
                severity=Severity.MEDIUM if action == "code-exec" else None,
            )
            break


def _names(hops: Sequence[Hop]) -> str:
    return " -> ".join(f"{h.role}" for h in hops)


@server_check(
    "flow.server",
    ["TW-FLOW-001", "TW-FLOW-002", "TW-FLOW-004", "TW-FLOW-005", "TW-FLOW-006", "TW-FLOW-007"],
)
def server_flows(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    players: dict[str, list[ToolRoles]] = {role: [] for role in _HOP_ROLES}
    complete = False  # one tool completes the chain itself (TW-FLOW-001): no server-wide finding
    for roles in surface_roles(surface):
        present = frozenset(roles.roles)
        yield from _single_tool(roles, present, surface.id, ctx)
        for role in present & _HOP_ROLES:
            players[role].append(roles)
        complete = complete or present >= _TRIFECTA_SET
    if not complete:
        yield from _across_tools(players, surface.id, ctx)


class CrossServerTrifecta:
    """TW-FLOW-003: the chain completed only by combining servers, reported on each contributor."""

    name = "flow.fleet-trifecta"
    rule_ids = frozenset({"TW-FLOW-003"})

    def run_all(
        self, surfaces: Sequence[ServerSurface], ctx: CheckContext
    ) -> dict[str, list[Finding]]:
        out: dict[str, list[Finding]] = {}
        if len(surfaces) < 2:
            return out
        roles_of = {s.id: surface_roles(s) for s in surfaces}
        order = sorted(roles_of)
        for sid in order:
            own = [best_hop(sid, roles_of[sid], role) for role in TRIFECTA]
            if all(own) or not any(own):
                continue  # complete on its own (TW-FLOW-002) or not part of the chain
            chain: list[Hop] = []
            for role, mine in zip(TRIFECTA, own, strict=True):
                hop = mine or next(
                    (h for o in order if o != sid and (h := best_hop(o, roles_of[o], role))), None
                )
                if hop is None:
                    break
                chain.append(hop)
            if len(chain) < len(TRIFECTA):
                continue
            others = sorted({h.server for h in chain if h.server != sid})
            severity, confidence = _grade(chain)
            out.setdefault(sid, []).append(
                ctx.rules.finding(
                    "TW-FLOW-003",
                    tool=None,
                    location="tools",
                    message=f"with {len(others)} other server(s) it completes the lethal trifecta",
                    evidence=" -> ".join(f"{h.server}:{h.roles.tool} ({h.role})" for h in chain),
                    witnesses=tuple(h.witness(show_server=True) for h in chain),
                    severity=severity,
                    confidence=confidence,
                )
            )
        return out


register_fleet_check(CrossServerTrifecta())

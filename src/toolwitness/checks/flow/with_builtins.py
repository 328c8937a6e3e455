"""TW-FLOW-008: the lethal trifecta completed by a client's built-in tools.

Only with `--include-builtins CLIENT` (`CheckContext.options["include_builtins"]`). For each
server that plays part of the chain but does not complete it, the missing hops are taken from the
client's own tools; the finding names every hop and says which ones are built-ins. A built-in the
client asks the user about before running (its `approval`) makes the finding heuristic: the
prompt is a check a human may still make.
"""

from __future__ import annotations

from collections.abc import Iterator

from toolwitness.checks.flow.builtins import BuiltinClient, requested
from toolwitness.checks.flow.toxic import TRIFECTA, Hop, best_hop
from toolwitness.checks.interface import CheckContext, server_check
from toolwitness.checks.roles.derive import surface_roles
from toolwitness.findings import Confidence, Finding
from toolwitness.model import ServerSurface

_TRIFECTA_SET = frozenset(TRIFECTA)


def _builtin_hop(client: BuiltinClient, role: str) -> Hop | None:
    """The client's tool for `role`, one it runs without asking first when there is one."""
    players = [t for t in client.tools if t.evidence(role)]
    players.sort(key=lambda t: t.tool in client.approval)
    return Hop(client.name, players[0], role) if players else None


def _chain(client: BuiltinClient, own: list[Hop | None]) -> list[Hop] | None:
    chain: list[Hop] = []
    for role, mine in zip(TRIFECTA, own, strict=True):
        hop = mine or _builtin_hop(client, role)
        if hop is None:
            return None
        chain.append(hop)
    return chain


@server_check("flow.builtins", ["TW-FLOW-008"])
def builtin_flows(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    clients = requested(ctx.options)
    if not clients:
        return
    every = surface_roles(surface)
    if any(frozenset(r.roles) >= _TRIFECTA_SET for r in every):
        return  # one tool completes it (TW-FLOW-001)
    own = [best_hop(surface.id, every, role) for role in TRIFECTA]
    if all(own) or not any(own):
        return  # complete without the client (TW-FLOW-002), or no part of the chain
    for client in clients:
        chain = _chain(client, own)
        if chain is None:
            continue
        builtin = [h for h in chain if h.server == client.name]
        asks = sorted(
            h.roles.tool.split(":", 1)[1] for h in builtin if h.roles.tool in client.approval
        )
        hops = " -> ".join(
            f"{h.roles.tool.split(':', 1)[1]} ({h.role}, built-in)" if h in builtin
            else f"{h.roles.tool} ({h.role})"
            for h in chain
        )  # fmt: skip
        yield ctx.rules.finding(
            "TW-FLOW-008",
            tool=None,
            location="tools",
            message=f"with {client.name}'s built-in tools the lethal trifecta is complete: {hops}"
            + (f" ({', '.join(asks)} asks the user first)" if asks else ""),
            evidence=f"{client.id}: {hops}; source {client.source} (checked {client.checked})",
            witnesses=tuple(h.witness() for h in chain),
            confidence=Confidence.HEURISTIC if asks else None,
        )

"""TW-FLOW-010..012: tool names that collide across scanned servers.

Exact collisions group by name. Homoglyph disguises group by confusable skeleton (UTS #39 data
from the confusable-homoglyphs package, via `unicode.script.skeleton`). Near misses use a
symmetric-deletion index (every name with up to two characters deleted) so candidate pairs are
found without comparing every pair; each candidate is confirmed with rapidfuzz's
Damerau-Levenshtein distance.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterator, Sequence

from toolwitness.checks.interface import CheckContext, register_fleet_check
from toolwitness.checks.unicode.script import skeleton
from toolwitness.findings import Finding, Witness
from toolwitness.model import ServerSurface
from toolwitness.plainclass import plainclass
from toolwitness.textnorm import nfc

NEAR_MIN_LENGTH = 5
LONG_NAME = 10  # names this long may be two edits apart; shorter ones one
_MAX_NAME = 64  # longer names skip the near-miss index (its size grows with length²)


@plainclass(frozen=True)
class NamedTool:
    server: str
    index: int
    name: str

    @property
    def location(self) -> str:
        return f"tools[{self.index}].name"

    def witness(self) -> Witness:
        return Witness(
            kind="field", symbol=self.name, path=(self.location,), detail=f"server {self.server}"
        )


def _deletions(name: str) -> set[str]:
    once = {name[:i] + name[i + 1 :] for i in range(len(name))}
    twice = {v[:i] + v[i + 1 :] for v in once for i in range(len(v))}
    return {name} | once | twice


def near_pairs(tools: Sequence[NamedTool]) -> Iterator[tuple[NamedTool, NamedTool, int]]:
    """Pairs from different servers within the distance budget (exact names excluded)."""
    from rapidfuzz.distance import DamerauLevenshtein  # two servers or more only (run_all)

    index: dict[str, list[int]] = defaultdict(list)
    keys = [t.name.lower() for t in tools]
    for i, key in enumerate(keys):
        if NEAR_MIN_LENGTH <= len(key) <= _MAX_NAME:
            for variant in _deletions(key):
                index[variant].append(i)
    seen: set[tuple[int, int]] = set()
    for members in index.values():
        for a, b in itertools.combinations(sorted(set(members)), 2):
            if (a, b) in seen or tools[a].server == tools[b].server or keys[a] == keys[b]:
                continue
            seen.add((a, b))
            budget = 2 if min(len(keys[a]), len(keys[b])) >= LONG_NAME else 1
            distance = DamerauLevenshtein.distance(keys[a], keys[b], score_cutoff=budget)
            if distance <= budget:
                yield tools[a], tools[b], distance


def _groups(tools: Sequence[NamedTool], key: object) -> list[list[NamedTool]]:
    groups: dict[str, list[NamedTool]] = defaultdict(list)
    for tool in tools:
        groups[key(tool)].append(tool)  # type: ignore[operator]
    return [g for _, g in sorted(groups.items()) if len({t.server for t in g}) > 1]


def _exact(tools: Sequence[NamedTool], ctx: CheckContext) -> Iterator[tuple[str, Finding]]:
    for group in _groups(tools, lambda t: t.name):
        for tool in group:
            others = [o for o in group if o.server != tool.server]
            servers = sorted({o.server for o in others})
            yield (
                tool.server,
                ctx.rules.finding(
                    "TW-FLOW-010",
                    tool=tool.name,
                    location=tool.location,
                    message=f"{len(servers)} other server(s) expose this exact name",
                    evidence=", ".join(servers),
                    witnesses=(tool.witness(), *(o.witness() for o in others[:4])),
                ),
            )


def _confusable(tools: Sequence[NamedTool], ctx: CheckContext) -> Iterator[tuple[str, Finding]]:
    for group in _groups(tools, lambda t: skeleton(nfc(t.name)).lower()):
        for tool in group:
            if skeleton(nfc(tool.name)) == tool.name:
                continue  # the plain-ASCII original is the victim, not the disguise
            victims = [o for o in group if o.name != tool.name and o.server != tool.server]
            if victims:
                yield (
                    tool.server,
                    ctx.rules.finding(
                        "TW-FLOW-011",
                        tool=tool.name,
                        location=tool.location,
                        message="looks identical to another server's tool, with other characters",
                        evidence=f"{tool.name} imitates {victims[0].name}",
                        witnesses=(tool.witness(), *(v.witness() for v in victims[:4])),
                    ),
                )


def _near(tools: Sequence[NamedTool], ctx: CheckContext) -> Iterator[tuple[str, Finding]]:
    for a, b, distance in near_pairs(tools):
        if skeleton(nfc(a.name)).lower() == skeleton(nfc(b.name)).lower():
            continue  # a homoglyph pair is reported as TW-FLOW-011
        for tool, other in ((a, b), (b, a)):
            yield (
                tool.server,
                ctx.rules.finding(
                    "TW-FLOW-012",
                    tool=tool.name,
                    location=tool.location,
                    message=f"{distance} edit(s) from a tool name on another scanned server",
                    evidence=f"{tool.name} ~ {other.name}",
                    witnesses=(tool.witness(), other.witness()),
                ),
            )


class NameCollisions:
    name = "flow.name-collisions"
    rule_ids = frozenset({"TW-FLOW-010", "TW-FLOW-011", "TW-FLOW-012"})

    def run_all(
        self, surfaces: Sequence[ServerSurface], ctx: CheckContext
    ) -> dict[str, list[Finding]]:
        if len(surfaces) < 2:
            return {}
        tools = [NamedTool(s.id, i, t.name) for s in surfaces for i, t in enumerate(s.tools)]
        out: dict[str, list[Finding]] = defaultdict(list)
        for found in (_exact(tools, ctx), _confusable(tools, ctx), _near(tools, ctx)):
            for server, finding in found:
                out[server].append(finding)
        return dict(out)


register_fleet_check(NameCollisions())

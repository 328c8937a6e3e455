"""Roles, TW-CAP, TW-FLOW and the score over a generated catalog; figures and a same-run ratio.

The catalog is deterministic (seeded): names from verb x object, one-to-three sentence
descriptions with negations, and parameters of every shape (url, path, command, sql, ...).
Baseline in the same run: `digest_surface` (canonical JSON + SHA-256 of every tool), a pass
every scan pays, so the ratio says what the role analysis costs relative to hashing.

Usage: python benchmarks/bench_roles_flow.py [--tools 10000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
from typing import Any

from timing import best

from toolwitness.acquire.catalog import surface_from_document
from toolwitness.acquire.limits import InputLimits
from toolwitness.checks.capability import annotations as capability
from toolwitness.checks.flow import toxic as flow
from toolwitness.checks.interface import CheckContext
from toolwitness.checks.roles import derive as roles
from toolwitness.checks.roles import prose as role_prose
from toolwitness.checks.roles import text as role_text
from toolwitness.integrity.canonical import digest_surface
from toolwitness.model import ServerSurface
from toolwitness.rules import builtin_registry
from toolwitness.score import score_findings

VERBS = ["get", "list", "read", "create", "update", "delete", "send", "fetch", "run", "search"]
OBJECTS = ["file", "issue", "email", "secret", "record", "page", "command", "note", "user", "table"]
SENTENCES = [
    "{V}s the {o} identified by its id.",
    "Returns the matching {o}s as JSON.",
    "It does not delete or modify anything.",
    "Use with caution: it can overwrite an existing {o}.",
    "Results are paginated; pass the cursor to continue.",
    "Never reads credentials or environment variables.",
]
PARAMS: list[tuple[str, dict[str, Any]]] = [
    ("url", {"type": "string", "format": "uri", "description": "Address to fetch"}),
    ("path", {"type": "string", "description": "File path"}),
    ("command", {"type": "string", "description": "Shell command"}),
    ("sql", {"type": "string"}),
    ("to", {"type": "string", "description": "Recipient address"}),
    ("limit", {"type": "integer", "minimum": 1}),
    ("query", {"type": "string", "description": "Search terms"}),
]


def make_catalog(n: int, seed: int = 7) -> ServerSurface:
    rng = random.Random(seed)
    tools = []
    for i in range(n):
        verb, obj = rng.choice(VERBS), rng.choice(OBJECTS)
        text = " ".join(
            s.format(V=verb.capitalize(), o=obj) for s in rng.sample(SENTENCES, rng.randint(1, 3))
        )
        props = dict(rng.sample(PARAMS, rng.randint(0, 3)))
        tool: dict[str, Any] = {
            "name": f"{verb}_{obj}_{i}",
            "description": text,
            "inputSchema": {"type": "object", "properties": props},
        }
        if rng.random() < 0.5:
            tool["annotations"] = {"readOnlyHint": rng.random() < 0.5, "openWorldHint": False}
        tools.append(tool)
    limits = InputLimits(max_tools=max(n, 1))
    return surface_from_document(
        {"tools": tools}, server_id="bench", source="generated", limits=limits
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tools", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    surface = make_catalog(args.tools)
    ctx = CheckContext(rules=builtin_registry())

    def cold() -> None:  # every run starts without cached text analyses
        role_text._default_clauses.cache_clear()
        role_prose._default_analysis.cache_clear()
        roles.surface_roles.clear()

    def derive() -> object:
        cold()
        vocab = roles.vocabulary()
        return [roles.derive_roles(t, i, vocab) for i, t in enumerate(surface.tools)]

    def checks() -> object:
        cold()
        found = [
            *capability.annotation_contradictions(surface, ctx),
            *capability.unconstrained_parameters(surface, ctx),
            *flow.server_flows(surface, ctx),
        ]
        return score_findings(found)

    def digests() -> object:
        digest_surface.clear()  # time the hashing, not the memo
        return digest_surface(surface)

    base = best(digests, args.repeat)
    t_roles = best(derive, args.repeat)
    t_all = best(checks, args.repeat)
    n = len(surface.tools)
    print(f"tools: {n} (generated, seed 7), best of {args.repeat}")
    print(f"baseline digest_surface:        {base:7.3f} s  {n / base:9.0f} tools/s")
    print(f"role derivation:                {t_roles:7.3f} s  {n / t_roles:9.0f} tools/s")
    print(f"roles + CAP + FLOW + score:     {t_all:7.3f} s  {n / t_all:9.0f} tools/s")
    print(f"ratio (roles+checks / digest):  {t_all / base:7.2f}x")
    median = statistics.median(len(t.description or "") for t in surface.tools)
    print(f"median description length:      {median:.0f} chars")


if __name__ == "__main__":
    main()

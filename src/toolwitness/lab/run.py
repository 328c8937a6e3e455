"""The lab as a pipeline stage: probe servers (stdio in the sandbox, URLs by protocol) and fold
the verdicts into the scan result (`ToolResult.probe`, TW-LAB findings).

Servers are probed one at a time (each probe spawns the server twice, under a tracer), and a
server that fails in the lab gets a TW-LAB-006 finding; the other servers are still probed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from toolwitness.acquire.sandbox_witness import SandboxLog
from toolwitness.errors import InputError
from toolwitness.findings import Finding
from toolwitness.lab.http_witness import HttpLabOptions, probe_http
from toolwitness.lab.isolated import ProbeLimits, probe_isolated
from toolwitness.lab.probe import LabOptions, ServerProbe, probe_server
from toolwitness.model import ServerSpec
from toolwitness.result import ServerResult, ToolResult
from toolwitness.rules import RuleRegistry

_HTTP = ("http", "streamable-http", "streamablehttp", "streamable_http")


@dataclass(frozen=True)
class LabSettings:
    stdio: LabOptions = field(default_factory=LabOptions)
    http: HttpLabOptions = field(default_factory=HttpLabOptions)
    limits: ProbeLimits = field(default_factory=ProbeLimits)
    isolated: bool = True  # stdio probes in a limited child process (isolated.py)


def probe_spec(spec: ServerSpec, settings: LabSettings, rules: RuleRegistry) -> ServerProbe:
    kind = spec.transport.kind.lower()
    if kind == "stdio":
        if settings.isolated:
            return probe_isolated(spec, settings.stdio, settings.limits)
        return probe_server(spec, settings.stdio, rules)
    if kind in _HTTP:
        return probe_http(spec, settings.http, rules)
    return ServerProbe(spec.name, error=f"the lab does not probe {kind!r} servers")


def run_lab(
    specs: Sequence[ServerSpec], settings: LabSettings, rules: RuleRegistry
) -> dict[str, ServerProbe]:
    out: dict[str, ServerProbe] = {}
    for spec in specs:
        if not spec.enabled:
            continue
        try:
            out[spec.name] = probe_spec(spec, settings, rules)
        except InputError as exc:
            if "bubblewrap" in exc.message or "strace" in exc.message:
                raise  # the lab itself cannot run: say so once, for every server
            out[spec.name] = ServerProbe(spec.name, error=exc.message)
    return out


def sandbox_probes(log: SandboxLog) -> dict[str, ServerProbe]:
    """What `scan --live --sandbox`'s witness saw per server, as tool-less probes."""
    return {
        server: ServerProbe(server, escapes=list(attempts), escape_error=log.errors.get(server))
        for server, attempts in sorted(log.attempts.items())
    }


def with_sandbox_witness(
    probes: Mapping[str, ServerProbe], log: SandboxLog
) -> dict[str, ServerProbe]:
    """The lab's probes with the live listing's escapes added (a server probed in the lab
    and listed in the sandbox reports each attempt once)."""
    out = dict(probes)
    for server, seen in sandbox_probes(log).items():
        probe = out.get(server)
        if probe is None:
            out[server] = seen
            continue
        known = {(a.kind, a.target) for a in probe.escapes}
        merged = [*probe.escapes, *(a for a in seen.escapes if (a.kind, a.target) not in known)]
        error = probe.escape_error or seen.escape_error
        out[server] = replace(probe, escapes=merged, escape_error=error)
    return out


def probe_findings(probe: ServerProbe, rules: RuleRegistry) -> list[Finding]:
    found = probe.findings(rules)
    if probe.error is not None:
        found.append(
            rules.finding(
                "TW-LAB-006", tool=None, location="lab",
                message=f"the lab could not probe this server: {probe.error}",
            )
        )  # fmt: skip
    return found


_CAPABILITY = {
    "filesystem": "WRITE_FS", "write": "WRITE_FS", "mkdir": "WRITE_FS", "link": "WRITE_FS",
    "unlink": "WRITE_FS", "rename": "WRITE_FS", "exec": "EXEC_PROCESS",
    "connect": "NETWORK_OUTBOUND", "canary-read": "READ_FS", "hidden-read": "READ_FS",
}  # fmt: skip
_EFFECTS = ("WRITE", "EXEC", "NETWORK")  # what a read-only probe can refute


def observed_capabilities(probe: dict[str, Any]) -> list[str]:
    """The code lattice's names for what the lab saw (a file written is WRITE_FS, ...)."""
    found = set()
    for item in probe.get("evidence", {}).get("observed", []):
        key = item.get("kind") if item.get("witness") == "syscalls" else item.get("witness")
        if key in _CAPABILITY:
            found.add(_CAPABILITY[key])
    return sorted(found)


def agreement(tool: ToolResult, probe: dict[str, Any]) -> dict[str, Any] | None:
    """How code verification's prediction (`tool.actual`) and the lab's observation compare."""
    if tool.verdict is None:
        return None
    predicted = sorted(tool.actual or ())
    observed = observed_capabilities(probe)
    out: dict[str, Any] = {"verdict": tool.verdict, "predicted": predicted, "observed": observed}
    if probe["verdict"] not in ("confirmed", "refuted"):
        out["agreement"] = "not comparable (the lab has no verdict)"
        return out
    unpredicted = [c for c in observed if c not in predicted]
    untriggered = [c for c in predicted if c.startswith(_EFFECTS) and c not in observed]
    if unpredicted:
        out["agreement"] = (
            f"disagree: the lab saw {', '.join(unpredicted)}, which code did not predict"
        )
    elif untriggered and probe["verdict"] == "refuted":
        effects = ", ".join(untriggered)
        out["agreement"] = (
            f"disagree: code predicts {effects}, which the lab's calls did not trigger"
        )
    else:
        out["agreement"] = "agree"
    return out


def _tool_probe(tool: ToolResult, probe: dict[str, Any]) -> dict[str, Any]:
    compared = agreement(tool, probe)
    if compared is None:
        return probe
    return {**probe, "evidence": {**probe.get("evidence", {}), "code_verification": compared}}


def attach_probe(result: ServerResult, probe: ServerProbe | None) -> ServerResult:
    if probe is None:
        return result
    tools = tuple(
        t.model_copy(update={"probe": _tool_probe(t, probe.tools[t.name].to_json())})
        if t.name in probe.tools
        else t
        for t in result.tools
    )
    return result.model_copy(update={"tools": tools})


def attach_probes(
    results: Sequence[ServerResult], probes: Mapping[str, ServerProbe]
) -> list[ServerResult]:
    return [attach_probe(r, probes.get(r.id)) for r in results]


def lab_specs(specs: Sequence[ServerSpec]) -> list[ServerSpec]:
    """The specs renamed to the server ids the scan gives them (as live acquisition does)."""
    from toolwitness.acquire.targets import static_surfaces

    static = static_surfaces(specs, online=False)
    return [s.model_copy(update={"name": f.id}) for s, f in zip(specs, static, strict=True)]

"""`toolwitness probe` and `scan --lab`: the behavioural lab on the command line.

toolwitness probe -- python server.py     call the read-only tools of a stdio server in the
                                          sandbox (bubblewrap + strace), control run subtracted
toolwitness probe https://host/mcp --remote-dir /srv/data
                                          the HTTP protocol witness (absent -> present)
toolwitness scan --lab --stdio "npx -y pkg"  a live scan plus the lab, verdicts in tools[].probe
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from toolwitness.commands import live as live_commands
from toolwitness.commands import live_opts
from toolwitness.errors import UsageError
from toolwitness.findings import Severity
from toolwitness.model import ServerSpec, ServerSurface
from toolwitness.pipeline import ScanOptions, exit_code, scan_surfaces
from toolwitness.report.interface import OutputFormat, ReportOptions, formatter_for
from toolwitness.result import ScanResult
from toolwitness.rules import load_registry

if TYPE_CHECKING:  # the lab (and the MCP SDK under it) loads only when a lab runs
    from toolwitness.lab.probe import ServerProbe
    from toolwitness.lab.run import LabSettings
    from toolwitness.stage import Stage

LabFlag = Annotated[
    bool,
    typer.Option(
        "--lab", help="Also call read-only tools in the sandboxed lab (needs bwrap, strace)."
    ),
]
AllToolsFlag = Annotated[
    bool, typer.Option("--all-tools", help="Lab: call every tool, not only read-only ones.")
]
CallTimeoutOpt = Annotated[
    float, typer.Option("--call-timeout", help="Lab: seconds for one tool call.", min=0.5)
]
RepoOpt = Annotated[
    Path | None,
    typer.Option(
        "--repo",
        help="Copy this repository or folder into the lab ({repo} in the server's arguments "
        "names the copy; repo parameters get it). The original is never touched.",
    ),
]
LabTimeoutOpt = Annotated[
    float,
    typer.Option(
        "--lab-timeout", help="Wall (and CPU) seconds for one server's whole probe.", min=10
    ),
]
LabMemoryOpt = Annotated[
    int,
    typer.Option(
        "--lab-memory-mib",
        help="Address-space limit of the lab's analysis process (and the server).",
        min=64,
    ),
]
RemoteDirOpt = Annotated[
    str,
    typer.Option("--remote-dir", help="HTTP lab: a directory the remote server may read."),
]


def lab_settings(
    flags: live_commands.LiveFlags,
    *,
    all_tools: bool,
    call_timeout: float,
    remote_dir: str = "/tmp",  # noqa: S108 - a path on the remote server
    seed: str | None = None,
    trace: bool = True,
    url_headers: dict[str, dict[str, str]] | None = None,
    repo: Path | None = None,
    lab_timeout: float = 1800.0,
    lab_memory_mib: int = 4096,
) -> LabSettings:
    from toolwitness.lab.http_witness import HttpLabOptions
    from toolwitness.lab.isolated import ProbeLimits
    from toolwitness.lab.probe import LabOptions
    from toolwitness.lab.run import LabSettings

    if repo is not None:
        from toolwitness.lab.planner import check_repository

        check_repository(str(repo))
    return LabSettings(
        stdio=LabOptions(
            call_timeout=call_timeout, start_timeout=flags.timeout, all_tools=all_tools,
            allow_commands=frozenset(flags.allow_commands), seed=seed, trace=trace,
            repo=str(repo.resolve()) if repo is not None else None,
        ),
        limits=ProbeLimits(timeout=lab_timeout, memory_mib=lab_memory_mib),
        http=HttpLabOptions(
            remote_dir=remote_dir, call_timeout=call_timeout, all_tools=all_tools,
            allow_hosts=frozenset(h.lower() for h in flags.allow_hosts),
            url_headers=url_headers or {}, seed=seed,
        ),
    )  # fmt: skip


def probe_command(
    target: Annotated[
        list[str],
        typer.Argument(help="A server URL, or (after --) the stdio command line to run."),
    ],
    fmt: Annotated[OutputFormat, typer.Option("--format", "-f", help="Report format.")] = (
        OutputFormat.TERMINAL
    ),
    output: Annotated[
        str | None, typer.Option("--output", "-o", help="Write the report here.")
    ] = None,
    all_tools: AllToolsFlag = False,
    call_timeout: CallTimeoutOpt = 15.0,
    remote_dir: RemoteDirOpt = "/tmp",  # noqa: S108
    allow_command: live_opts.AllowCommandOpt = None,
    allow_host: live_opts.AllowHostOpt = None,
    header: live_opts.HeaderOpt = None,
    bearer: live_opts.BearerOpt = None,
    timeout: live_opts.TimeoutOpt = 60.0,
    seed: Annotated[
        str | None, typer.Option("--seed", help="Fixed nonce seed (reproducible names).")
    ] = None,
    no_syscalls: Annotated[
        bool, typer.Option("--no-syscalls", help="Run without strace (filesystem witness only).")
    ] = False,
    source: Annotated[
        Path | None,
        typer.Option(
            "--source", help="The server's source: compare code verification with the lab."
        ),
    ] = None,
    repo: RepoOpt = None,
    lab_timeout: LabTimeoutOpt = 1800.0,
    lab_memory_mib: LabMemoryOpt = 4096,
    fail_on: Annotated[
        Severity | None, typer.Option(help="Exit 1 if a finding is at or above this severity.")
    ] = None,
    debug: Annotated[bool, typer.Option(help="Show tracebacks for internal errors.")] = False,
) -> None:
    """Call a server's read-only tools in a sandboxed lab and report what they really did."""
    from toolwitness.cli_support import emit as _emit
    from toolwitness.cli_support import guard as _guard

    with _guard(debug):
        if seed is not None and (not seed.isalnum() or len(seed) > 32):
            raise UsageError("--seed must be letters and digits (at most 32)")
        flags = live_commands.LiveFlags(
            live=True, allow_commands=tuple(allow_command or ()),
            allow_hosts=tuple(allow_host or ()), headers=tuple(header or ()), bearer=bearer,
            timeout=timeout,
        )  # fmt: skip
        if len(target) == 1 and live_commands.is_url(target[0]):
            spec = live_commands.url_spec(target[0])
            url_headers = {target[0]: live_commands.request_headers(flags)}
        else:
            url_headers = {}
            spec = live_commands.command_spec(target)
        settings = lab_settings(
            flags, all_tools=all_tools, call_timeout=call_timeout, remote_dir=remote_dir,
            seed=seed, trace=not no_syscalls, url_headers=url_headers, repo=repo,
            lab_timeout=lab_timeout, lab_memory_mib=lab_memory_mib,
        )  # fmt: skip
        if source is not None and not source.is_dir():
            raise UsageError(f"--source {source}: not a directory")
        from toolwitness.lab.run import probe_spec

        rules = load_registry([])
        probe = probe_spec(spec, settings, rules)
        if probe.surface is None:
            result = failed_probe_result(spec, probe)
        else:
            result = lab_scan_result(probe.surface, probe)
        if source is not None:
            result = with_code_verdicts(result, probe, source)
        color = output is None and sys.stdout.isatty() and "NO_COLOR" not in os.environ
        _emit(
            formatter_for(fmt, ReportOptions(color=color)).format(result),
            Path(output) if output else None,
        )
        raise typer.Exit(exit_code(result, fail_on=fail_on))


def failed_probe_result(spec: ServerSpec, probe: ServerProbe) -> ScanResult:
    """The report of a probe that never listed the tools: the config-only surface, the reason
    as the server's error (an incomplete scan, exit 3) and a TW-LAB-006 finding."""
    from toolwitness.acquire.targets import static_surfaces
    from toolwitness.lab.probe import ServerProbe
    from toolwitness.pipeline import ConnectionFailures

    (surface,) = static_surfaces([spec], online=False)
    why = probe.error or "the server did not list its tools"
    failures: dict[str, tuple[str, ...]] = {surface.id: (f"lab: {why}",)}
    named = ServerProbe(surface.id, error=probe.error)
    return lab_scan_result(surface, named, ConnectionFailures(failures))


def lab_scan_result(surface: ServerSurface, probe: ServerProbe, *first: Stage) -> ScanResult:
    """One server's report: the metadata checks and the lab's findings and verdicts."""
    from toolwitness.lab.stage import LabStage
    from toolwitness.pipeline import MetadataChecks

    options = ScanOptions()
    stages: list[Stage] = [*first, MetadataChecks(options), LabStage({surface.id: probe})]
    return scan_surfaces([surface], options, stages)


_CODE_FIELDS = (
    "declared", "actual", "undeclared", "verdict", "verdict_reason", "witnesses", "registration",
)  # fmt: skip


def with_code_verdicts(result: ScanResult, probe: ServerProbe, source: Path) -> ScanResult:
    """Code verification's verdicts on the same tools, and how they compare with the lab's."""
    from toolwitness.code.analyse import analyse_directory
    from toolwitness.lab.run import attach_probe
    from toolwitness.pipeline import code_scan_result

    analysed = code_scan_result(analyse_directory(source))
    coded = {t.name: t for s in analysed.servers for t in s.tools}
    server = result.servers[0]
    tools = tuple(
        t.model_copy(update={k: getattr(coded[t.name], k) for k in _CODE_FIELDS})
        if t.name in coded
        else t
        for t in server.tools
    )
    # The code's TW-CODE findings count in the grade like every other finding (docs/scoring.md).
    from toolwitness.findings import sort_findings
    from toolwitness.score import rescored

    code = [f for s in analysed.servers for f in s.findings if f.family == "CODE"]
    findings = tuple(sort_findings([*server.findings, *code]))
    server = rescored(server.model_copy(update={"tools": tools, "findings": findings}))
    return ScanResult(servers=(attach_probe(server, probe),))


def register(app: typer.Typer) -> None:
    app.command("probe")(probe_command)

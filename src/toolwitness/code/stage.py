"""Code verification as a pipeline stage: TW-CODE findings and each tool's verdict on its row.

`scan --code` analyses every server it can find code for (`code.in_scan`) in a child process
under the analysis limits (`code.isolate`) and hands back one small `CodeOutcome` per server;
`toolwitness code` does the same for its one tree. An analysis that hit a limit is an error of
that server's scan (exit 3), with the limit named.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from toolwitness.code.analyse import CodeAnalysis, CodeOptions, code_findings, with_verdict
from toolwitness.code.in_scan import ServerCode, analyse_server, config_only
from toolwitness.code.isolate import LimitExceeded, run_limited
from toolwitness.findings import Finding
from toolwitness.model import Coverage, ServerSurface, Tool
from toolwitness.plainclass import field, plainclass
from toolwitness.result import ServerResult
from toolwitness.rules import RuleRegistry
from toolwitness.stage import Contribution

__all__ = ["CodeOutcome", "CodeStage", "analyse_servers", "outcome_of", "surface_with_code"]

_ROW_FIELDS = (
    "declared",
    "actual",
    "undeclared",
    "verdict",
    "verdict_reason",
    "witnesses",
    "registration",
)


@plainclass(frozen=True)
class CodeOutcome:
    """What one server's code verification contributes (small and picklable)."""

    note: str
    coverage: Coverage | None = None  # how the code was acquired, when it was analysed
    tools: tuple[Tool, ...] | None = None  # a config-only server: the tools its code registers
    findings: tuple[Finding, ...] = ()
    rows: dict[str, dict[str, Any]] = field(default_factory=dict)  # verdict fields per tool
    incomplete: str | None = None  # why the coverage is incomplete
    error: str | None = None  # the analysis stopped (a limit): the scan is incomplete


def outcome_of(code: ServerCode, surface: ServerSurface | None, rules: RuleRegistry) -> CodeOutcome:
    analysis = code.analysis
    if analysis is None:
        return CodeOutcome(code.note)
    covered = analysis.code_coverage()
    return CodeOutcome(
        code.note,
        analysis.coverage,
        analysis.surface().tools if surface is None or config_only(surface) else None,
        tuple(code_findings(analysis, rules)),
        _rows(analysis),
        None if covered.complete else f"{covered.summary()}: {covered.reason()}",
    )


def _rows(analysis: CodeAnalysis) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for verdict in analysis.verdicts:
        probe = with_verdict(_BLANK, verdict)
        out[verdict.name] = {name: getattr(probe, name) for name in _ROW_FIELDS}
    return out


def analyse_servers(
    surfaces: Sequence[ServerSurface],
    workdir: Path,
    options: CodeOptions,
    rules: RuleRegistry,
) -> dict[str, CodeOutcome]:
    """Every server's outcome, each computed in its own child under the limits; a limit hit is
    that server's error (its scan is incomplete), the others go on."""
    out: dict[str, CodeOutcome] = {}
    for index, surface in enumerate(surfaces):
        folder = workdir / str(index)  # each download unpacks into its own empty folder
        folder.mkdir(parents=True, exist_ok=True)

        def work(surface: ServerSurface = surface, folder: Path = folder) -> CodeOutcome:
            return outcome_of(analyse_server(surface, folder, options), surface, rules)

        try:
            out[surface.id] = run_limited(work, options.child)
        except LimitExceeded as exc:
            out[surface.id] = CodeOutcome(f"--code: not verified: {exc}", error=str(exc))
    return out


def surface_with_code(surface: ServerSurface, code: CodeOutcome) -> ServerSurface:
    """The surface to check: a config-only server takes the tools its code registers."""
    notes = (*surface.notes, code.note)
    if code.coverage is None:
        return surface.model_copy(update={"notes": notes})
    coverage = tuple(dict.fromkeys((*surface.coverage, code.coverage)))
    if code.tools is None or not config_only(surface):
        return surface.model_copy(update={"notes": notes, "coverage": coverage})
    return surface.model_copy(update={"notes": notes, "coverage": coverage, "tools": code.tools})


class CodeStage:
    name = "code"

    def __init__(self, code: Mapping[str, CodeOutcome], *, allow_partial: bool = False) -> None:
        self.code = code
        self.allow_partial = allow_partial  # incomplete coverage: a finding, not exit 3

    def contribute(
        self, surfaces: Sequence[ServerSurface], rules: RuleRegistry
    ) -> dict[str, Contribution]:
        out: dict[str, Contribution] = {}
        for surface in surfaces:
            code = self.code.get(surface.id)
            if code is None:
                continue
            errors: tuple[str, ...] = ()
            if code.error is not None:
                errors = (code.error,)
            elif code.incomplete is not None and not self.allow_partial:
                errors = (f"{code.incomplete} (--allow-partial reports it as a finding only)",)
            out[surface.id] = Contribution(code.findings, errors, _Verdicts(code))
        return out


class _Verdicts:
    def __init__(self, code: CodeOutcome) -> None:
        self.code = code

    def __call__(self, result: ServerResult) -> ServerResult:
        if not self.code.rows:
            return result
        tools = tuple(
            t.model_copy(update=self.code.rows[t.name]) if t.name in self.code.rows else t
            for t in result.tools
        )
        return result.model_copy(update={"tools": tools})


def _blank() -> Any:
    from toolwitness.result import ToolResult

    return ToolResult.model_construct(name="", digest="", field_digests={})


_BLANK = _blank()

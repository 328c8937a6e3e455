"""Code verification as a pipeline stage: TW-CODE findings and each tool's verdict on its row.

`scan --code` analyses every server it can find code for (`code.in_scan`) and hands the
analyses to the pipeline through this stage; `toolwitness code` does the same for its one tree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from toolwitness.code.analyse import CodeAnalysis
from toolwitness.code.in_scan import (
    ServerCode,
    analyse_servers,
    attach_verdicts,
    server_code_findings,
    surface_with_code,
)
from toolwitness.model import ServerSurface
from toolwitness.result import ServerResult
from toolwitness.rules import RuleRegistry
from toolwitness.stage import Contribution

__all__ = ["CodeStage", "analyse_servers", "single_analysis", "surface_with_code"]


class CodeStage:
    name = "code"

    def __init__(self, code: Mapping[str, ServerCode], *, allow_partial: bool = False) -> None:
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
            found = tuple(server_code_findings(code, rules))
            errors: tuple[str, ...] = ()
            covered = code.analysis.code_coverage() if code.analysis is not None else None
            if covered is not None and not covered.complete and not self.allow_partial:
                errors = (
                    f"{covered.summary()}: {covered.reason()} (--allow-partial to report "
                    "it as a finding only)",
                )
            out[surface.id] = Contribution(found, errors, _Verdicts(code))
        return out


def single_analysis(analysis: CodeAnalysis) -> dict[str, ServerCode]:
    return {analysis.server_id: ServerCode(analysis, "")}


class _Verdicts:
    def __init__(self, code: ServerCode) -> None:
        self.code = code

    def __call__(self, result: ServerResult) -> ServerResult:
        return attach_verdicts(result, self.code)

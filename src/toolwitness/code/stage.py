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
from toolwitness.findings import Finding, sort_findings
from toolwitness.model import ServerSurface
from toolwitness.result import ServerResult
from toolwitness.rules import RuleRegistry
from toolwitness.stage import Contribution

__all__ = ["CodeStage", "analyse_servers", "single_analysis", "surface_with_code"]


class CodeStage:
    name = "code"

    def __init__(self, code: Mapping[str, ServerCode], *, scored: bool = True) -> None:
        self.code = code
        self.scored = scored  # False: findings are reported but not part of the score

    def contribute(
        self, surfaces: Sequence[ServerSurface], rules: RuleRegistry
    ) -> dict[str, Contribution]:
        out: dict[str, Contribution] = {}
        for surface in surfaces:
            code = self.code.get(surface.id)
            if code is None:
                continue
            found = tuple(server_code_findings(code, rules))
            if self.scored:
                out[surface.id] = Contribution(found, attach=_Verdicts(code))
            else:
                out[surface.id] = Contribution(attach=_Verdicts(code, found))
        return out


def single_analysis(analysis: CodeAnalysis) -> dict[str, ServerCode]:
    return {analysis.server_id: ServerCode(analysis, "")}


class _Verdicts:
    def __init__(self, code: ServerCode, unscored: tuple[Finding, ...] = ()) -> None:
        self.code = code
        self.unscored = unscored

    def __call__(self, result: ServerResult) -> ServerResult:
        result = attach_verdicts(result, self.code)
        if not self.unscored:
            return result
        findings = tuple(sort_findings([*result.findings, *self.unscored]))
        return result.model_copy(update={"findings": findings})

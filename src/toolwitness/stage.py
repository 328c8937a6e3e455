"""The one interface through which the pipeline composes a stage's results into a scan.

A *stage* (the metadata checks, the lab, code verification, the lockfile) looks at the surfaces
being scanned and hands back, per server id, a `Contribution`: findings to score, errors that make
the scan incomplete, and a last step that fills the stage's own fields of the result row
(verdicts, probes, the pin). The pipeline knows nothing else about any stage, so adding one adds
no parameter to it, and every stage module imports only this layer (never `pipeline`).

    class LabStage:
        name = "lab"
        def contribute(self, surfaces, rules) -> dict[str, Contribution]: ...

Stages run in the order given; findings are sorted on a total key afterwards, errors keep the
stage order. A stage never mutates a surface or another stage's output.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

from toolwitness.findings import Finding
from toolwitness.model import ServerSurface
from toolwitness.plainclass import plainclass
from toolwitness.result import ServerResult
from toolwitness.rules import RuleRegistry

__all__ = ["Contribution", "Stage", "keep"]


def keep(result: ServerResult) -> ServerResult:
    return result


@plainclass(frozen=True)
class Contribution:
    """What one stage adds to one server's result."""

    findings: tuple[Finding, ...] = ()
    errors: tuple[str, ...] = ()  # non-empty: the scan of this server is incomplete (exit 3)
    attach: Callable[[ServerResult], ServerResult] = keep  # the stage's fields on the row


class Stage(Protocol):
    name: str

    def contribute(
        self, surfaces: Sequence[ServerSurface], rules: RuleRegistry
    ) -> Mapping[str, Contribution]:
        """Contributions keyed by server id; a server a stage has nothing for is left out."""
        ...

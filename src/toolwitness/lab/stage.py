"""The lab as a pipeline stage: each probe's findings, and its result on every tool row."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial

from toolwitness.lab.probe import ServerProbe
from toolwitness.lab.run import attach_probe, probe_findings
from toolwitness.model import ServerSurface
from toolwitness.rules import RuleRegistry
from toolwitness.stage import Contribution


class LabStage:
    name = "lab"

    def __init__(self, probes: Mapping[str, ServerProbe]) -> None:
        self.probes = probes

    def contribute(
        self, surfaces: Sequence[ServerSurface], rules: RuleRegistry
    ) -> dict[str, Contribution]:
        return {
            s.id: Contribution(
                tuple(probe_findings(self.probes[s.id], rules)),
                attach=partial(attach_probe, probe=self.probes[s.id]),
            )
            for s in surfaces
            if s.id in self.probes
        }

"""The formatter protocol and the format registry (an enum, checked exhaustive by a test)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Protocol

from toolwitness.acquire.limits import InputLimits
from toolwitness.result import ScanResult


class OutputFormat(StrEnum):
    TERMINAL = "terminal"
    JSON = "json"
    SARIF = "sarif"
    CSV = "csv"
    MARKDOWN = "markdown"
    HTML = "html"


@dataclass(frozen=True)
class ReportOptions:
    redact: bool = False
    color: bool = False
    # Terminal width: None follows the terminal when stdout is one and does not wrap otherwise.
    width: int | None = None
    # SARIF: uris are relative to this; None finds the repository root above the first target.
    source_root: Path | None = None
    # SARIF re-reads the scanned JSON files for line numbers with the scan's own bounds.
    limits: InputLimits = field(default_factory=InputLimits)


class Formatter(Protocol):
    def format(self, result: ScanResult) -> str: ...


def formatter_for(fmt: OutputFormat, options: ReportOptions) -> Formatter:
    from toolwitness.report.csv_format import CsvFormat
    from toolwitness.report.html import HtmlFormat
    from toolwitness.report.json_format import JsonFormat
    from toolwitness.report.markdown import MarkdownFormat
    from toolwitness.report.sarif import SarifFormat
    from toolwitness.report.terminal import TerminalFormat

    registry: dict[OutputFormat, Formatter] = {
        OutputFormat.TERMINAL: TerminalFormat(options),
        OutputFormat.JSON: JsonFormat(options),
        OutputFormat.SARIF: SarifFormat(options),
        OutputFormat.CSV: CsvFormat(options),
        OutputFormat.MARKDOWN: MarkdownFormat(options),
        OutputFormat.HTML: HtmlFormat(options),
    }
    return registry[fmt]

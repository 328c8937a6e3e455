"""The formatter protocol and the format registry (an enum, checked exhaustive by a test)."""

from __future__ import annotations

from enum import StrEnum
from importlib import import_module
from pathlib import Path
from typing import Protocol

from toolwitness.acquire.limits import InputLimits
from toolwitness.plainclass import field, plainclass
from toolwitness.result import ScanResult


class OutputFormat(StrEnum):
    TERMINAL = "terminal"
    JSON = "json"
    SARIF = "sarif"
    CSV = "csv"
    MARKDOWN = "markdown"
    HTML = "html"


@plainclass(frozen=True)
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
    # Only the asked-for format's module loads: a JSON or SARIF report never imports rich.
    module, name = _FORMATTERS[fmt]
    formatter: Formatter = getattr(import_module(module), name)(options)
    return formatter


_FORMATTERS: dict[OutputFormat, tuple[str, str]] = {
    OutputFormat.TERMINAL: ("toolwitness.report.terminal", "TerminalFormat"),
    OutputFormat.JSON: ("toolwitness.report.json_format", "JsonFormat"),
    OutputFormat.SARIF: ("toolwitness.report.sarif", "SarifFormat"),
    OutputFormat.CSV: ("toolwitness.report.csv_format", "CsvFormat"),
    OutputFormat.MARKDOWN: ("toolwitness.report.markdown", "MarkdownFormat"),
    OutputFormat.HTML: ("toolwitness.report.html", "HtmlFormat"),
}

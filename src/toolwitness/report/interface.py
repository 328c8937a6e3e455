"""The formatter protocol and the format registry (an enum, checked exhaustive by a test)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from importlib import import_module
from typing import Protocol

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
    width: int = 120


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

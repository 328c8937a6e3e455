"""CSV: one row per finding. Cells a spreadsheet would evaluate (= + - @ tab CR) are neutralised."""

from __future__ import annotations

import csv
import io

from toolwitness.report.evidence import shown_evidence
from toolwitness.report.interface import ReportOptions
from toolwitness.result import ScanResult
from toolwitness.textnorm import escape_display

COLUMNS = (
    "server",
    "tool",
    "rule_id",
    "severity",
    "confidence",
    "title",
    "location",
    "message",
    "evidence",
)
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def neutralise(cell: str) -> str:
    """Prefix a quote so a spreadsheet shows the text instead of evaluating it."""
    return "'" + cell if cell.startswith(_FORMULA_START) else cell


class CsvFormat:
    def __init__(self, options: ReportOptions) -> None:
        self.options = options

    def format(self, result: ScanResult) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(COLUMNS)
        for server in result.servers:
            for f in server.findings:
                row = [
                    server.id,
                    f.tool or "",
                    f.rule_id,
                    f.severity.value,
                    f.confidence.value,
                    f.title,
                    f.location,
                    f.message,
                    shown_evidence(f, self.options.redact) or "",
                ]
                writer.writerow([neutralise(escape_display(cell)) for cell in row])
        return out.getvalue()

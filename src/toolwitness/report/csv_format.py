"""CSV: one row per finding. Cells a spreadsheet would evaluate (= + - @ tab CR, after any leading
blanks) are neutralised."""

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
# Formula triggers, with their full-width forms (some spreadsheets fold them to ASCII).
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def neutralise(cell: str) -> str:
    """Prefix a quote so a spreadsheet shows the text instead of evaluating it. Spreadsheets skip
    leading blanks (spaces, no-break spaces) before a formula, so the test is on the first
    character that is not whitespace."""
    if cell.startswith(_FORMULA_START) or cell.lstrip().startswith(_FORMULA_START):
        return "'" + cell
    return cell


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

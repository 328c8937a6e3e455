"""`toolwitness report RESULT.json -o report.html`: render a saved JSON report as the HTML page.

The saved report is hostile input like any other file: strict bounded JSON, then validated
against the shipped report schema before a single field is rendered.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import jsonschema
import typer

from toolwitness.acquire.hostile_json import parse_json_bytes
from toolwitness.acquire.limits import MIB, InputLimits
from toolwitness.datafiles import data_files
from toolwitness.errors import InputError
from toolwitness.files import read_regular
from toolwitness.report.html import render

_MAX_REPORT_MIB = 64


def load_report(path: Path) -> dict[str, Any]:
    limits = InputLimits(max_file_bytes=_MAX_REPORT_MIB * MIB, max_depth=32)
    data = read_regular(path, limits.max_file_bytes, what="report")
    doc = parse_json_bytes(data, str(path), limits)
    schema = json.loads(
        data_files().joinpath("report.schema.json").read_text("utf-8")
    )
    error = jsonschema.exceptions.best_match(
        jsonschema.Draft202012Validator(schema).iter_errors(doc)
    )
    if error is not None:
        where = "$" + "".join(f"[{p!r}]" for p in error.absolute_path)
        raise InputError(
            f"not a toolwitness.report/1 document: {error.message[:200]}",
            source=str(path),
            path=where,
        )
    result: dict[str, Any] = doc
    return result


def report_command(
    report: Annotated[Path, typer.Argument(help="A JSON report saved with --format json.")],
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Write the HTML page here.")
    ] = None,
) -> None:
    """Render a saved JSON report as one self-contained HTML page."""
    from toolwitness.cli_support import emit as _emit
    from toolwitness.cli_support import guard as _guard

    with _guard():
        _emit(render(load_report(report)), output)


def register(app: typer.Typer) -> None:
    app.command("report")(report_command)

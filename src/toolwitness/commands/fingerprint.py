"""`toolwitness fingerprint`: canonical digests per server, per tool and per field."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from toolwitness.acquire.catalog import load_catalog_targets
from toolwitness.acquire.limits import MIB, InputLimits
from toolwitness.cli_formats import DataFormat
from toolwitness.cli_support import emit, guard
from toolwitness.commands.rules import FormatOpt, JsonAlias, OutputOpt
from toolwitness.commands.scan_inputs import stdin_targets
from toolwitness.integrity.canonical import SurfaceDigests, digest_surface
from toolwitness.textnorm import escape_display


def fingerprint_command(
    targets: Annotated[
        list[str], typer.Argument(help="Catalog files or directories, - for standard input.")
    ],
    fmt: FormatOpt = DataFormat.TEXT,
    output: OutputOpt = None,
    as_json: JsonAlias = False,
    max_tools: Annotated[
        int, typer.Option(help="Reject a catalog with more tools than this.", min=1)
    ] = 5000,
    max_file_mib: Annotated[
        int, typer.Option(help="Reject input files larger than this many MiB.", min=1)
    ] = 10,
) -> None:
    """Print canonical digests: per server, per tool and per field."""
    with guard():
        limits = InputLimits(max_tools=max_tools, max_file_bytes=max_file_mib * MIB)
        words, from_stdin = stdin_targets(list(targets), limits)
        surfaces = (load_catalog_targets([Path(w) for w in words], limits) if words else [])
        surfaces += from_stdin
        digests = [digest_surface(s) for s in surfaces]
        docs = [fingerprint_document(s.id, d) for s, d in zip(surfaces, digests, strict=True)]
        if as_json or fmt is DataFormat.JSON:
            emit(json.dumps(docs, indent=2, ensure_ascii=True) + "\n", output)
            return
        lines = []
        for surface, doc, digest in zip(surfaces, docs, digests, strict=True):
            lines.append(f"{escape_display(surface.id)}  {doc['surface_digest']}")
            for tool in digest.tools:
                lines.append(f"  {escape_display(tool.name)}  {tool.digest}")
                lines.extend(f"    {field:<13} {value}" for field, value in tool.fields.items())
        emit("\n".join(lines) + "\n", output)


def fingerprint_document(server_id: str, digests: SurfaceDigests) -> dict[str, object]:
    return {
        "server": server_id,
        "surface_digest": digests.surface,
        "tools": [{"name": t.name, "digest": t.digest, "fields": t.fields} for t in digests.tools],
    }


def register(app: typer.Typer) -> None:
    app.command("fingerprint")(fingerprint_command)

"""What `scan` reads besides files: a catalog on standard input (`-`), and the code options."""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolwitness.acquire.catalog import surface_from_document
from toolwitness.acquire.hostile_json import parse_json_bytes
from toolwitness.acquire.limits import InputLimits
from toolwitness.cli_support import read_stdin
from toolwitness.errors import UsageError
from toolwitness.model import ServerSurface

if TYPE_CHECKING:
    from toolwitness.code.analyse import CodeOptions

STDIN = "-"
STDIN_SOURCE = "<stdin>"


def stdin_targets(words: list[str], limits: InputLimits) -> tuple[list[str], list[ServerSurface]]:
    """`-` among the targets: one catalog or snapshot read from standard input, bounded like a
    file (size, depth, strings, tools)."""
    if STDIN not in words:
        return words, []
    if words.count(STDIN) > 1:
        raise UsageError("- (standard input) can be given once")
    data = read_stdin(limits.max_file_bytes)
    doc = parse_json_bytes(data, STDIN_SOURCE, limits)
    surface = surface_from_document(doc, server_id="stdin", source=STDIN_SOURCE, limits=limits)
    return [w for w in words if w != STDIN], [surface]


def code_options(
    declared_from: str,
    *,
    allow_partial: bool = False,
    child: tuple[float, int, int] = (300.0, 2048, 300),
) -> CodeOptions:
    """`child` is (wall seconds, memory MiB, CPU seconds) of each server's analysis child,
    checked as `toolwitness code` checks its own (exit 2 when out of range)."""
    from toolwitness.code.analyse import CodeOptions
    from toolwitness.code.declared import DeclaredFrom
    from toolwitness.commands.code_run import child_limits

    return CodeOptions(
        declared_from=DeclaredFrom(declared_from),
        allow_partial=allow_partial,
        child=child_limits(*child),
    )

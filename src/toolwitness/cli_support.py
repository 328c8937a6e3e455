"""What every command shares, kept light so a command can load without the whole scanner:
one-line escaped errors with their exit code (never a traceback), writing output, notes on
stderr, reading standard input bounded, and whether a report is for a terminal.

Nothing here imports typer: a catalog scan on the command line's fast path (`cli_fast`) runs
without it. An error leaves as `SystemExit(code)`, which typer passes through unchanged."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, TextIO

from toolwitness.errors import EXIT_INPUT, EXIT_INTERNAL, InputError, ToolwitnessError, UsageError
from toolwitness.textnorm import escape_display

if TYPE_CHECKING:
    import typer

PROG = "toolwitness"
STDOUT = "-"


def die(message: str, code: int) -> NoReturn:
    sys.stderr.write(f"{PROG}: {escape_display(message)}\n")
    raise SystemExit(code)


def note(message: str, *, quiet: bool = False) -> None:
    """An informational line on stderr (`--quiet` drops it; errors are never dropped)."""
    if not quiet:
        sys.stderr.write(f"{PROG}: {escape_display(message)}\n")


@contextmanager
def guard(debug: bool = False) -> Iterator[None]:
    """Every error leaves as a one-line message and its exit code, never a traceback."""
    try:
        yield
    except ToolwitnessError as exc:
        die(exc.message, exc.exit_code)
    except KeyboardInterrupt:
        die("interrupted", EXIT_INTERNAL)
    except Exception as exc:
        if debug or _is_typer_exit(exc):
            raise
        die(f"internal error: {type(exc).__name__}: {exc} (rerun with --debug)", EXIT_INTERNAL)


def _is_typer_exit(exc: Exception) -> bool:
    """typer's Exit and Abort (a command's own `raise typer.Exit(code)`) pass through. Without
    typer loaded, no exception can be one of them."""
    typer = sys.modules.get("typer")
    return typer is not None and isinstance(exc, (typer.Exit, typer.Abort))


# A long ASCII report is written a slice at a time: a text stream encodes what it is given
# whole, so one write of a 12.5 MB report (5,000 poisoned tools) held a 12.5 MB copy of it as
# bytes beside the text. ASCII encodes to the same bytes cut anywhere, and in any encoding a
# stream may have, so the output is the same; other text is written whole, as before (an
# encoding error then leaves nothing half-written).
_EMIT_SLICE = 1 << 20


def _write(stream: TextIO, text: str) -> None:
    if len(text) <= _EMIT_SLICE or not text.isascii():
        stream.write(text)
        return
    for start in range(0, len(text), _EMIT_SLICE):
        stream.write(text[start : start + _EMIT_SLICE])


def emit(text: str, output: Path | None) -> None:
    """Write to `output`, or to standard output when it is None or `-`."""
    if output is None or str(output) == STDOUT:
        _write(sys.stdout, text)
        sys.stdout.flush()
        return
    try:
        with output.open("w", encoding="utf-8") as stream:  # what `Path.write_text` does
            _write(stream, text)
    except OSError as exc:
        raise UsageError(f"cannot write {output}: {exc.strerror}") from None


def wants_color(output: Path | None) -> bool:
    """Colour only for a person at a terminal (and never with NO_COLOR); files and pipes get
    the plain, reproducible text."""
    to_terminal = (output is None or str(output) == STDOUT) and sys.stdout.isatty()
    return to_terminal and "NO_COLOR" not in os.environ


def read_stdin(limit: int) -> bytes:
    """Standard input as bytes, refused (not truncated) past `limit` bytes."""
    stream = sys.stdin
    if stream is None:
        raise UsageError("- reads standard input, but there is none")
    if stream.isatty():
        raise UsageError(
            "- reads standard input, which is a terminal: pipe a catalog in "
            "(cat tools.json | toolwitness scan -)"
        )
    data = stream.buffer.read(limit + 1)
    if len(data) > limit:
        raise InputError(f"over the {limit}-byte limit (--max-file-mib)", source="<stdin>")
    return data


def run_app(app: typer.Typer, argv: list[str] | None) -> int:
    """Run a typer app and return its exit code (click's usage errors exit 2)."""
    try:
        app(args=argv, prog_name=PROG, standalone_mode=True)
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else EXIT_INPUT)
    return 0

"""What every command shares, kept light so a command can load without the whole scanner:
one-line escaped errors with their exit code (never a traceback), and writing output."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import NoReturn

import typer

from toolwitness.errors import EXIT_INPUT, EXIT_INTERNAL, ToolwitnessError, UsageError
from toolwitness.textnorm import escape_display


def die(message: str, code: int) -> NoReturn:
    sys.stderr.write(f"toolwitness: {escape_display(message)}\n")
    raise typer.Exit(code)


@contextmanager
def guard(debug: bool = False) -> Iterator[None]:
    """Every error leaves as a one-line message and its exit code, never a traceback."""
    try:
        yield
    except ToolwitnessError as exc:
        die(exc.message, exc.exit_code)
    except KeyboardInterrupt:
        die("interrupted", EXIT_INTERNAL)
    except (typer.Exit, typer.Abort):
        raise
    except Exception as exc:
        if debug:
            raise
        die(f"internal error: {type(exc).__name__}: {exc} (rerun with --debug)", EXIT_INTERNAL)


def emit(text: str, output: Path | None) -> None:
    if output is None:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {output}: {exc.strerror}") from None


def run_app(app: typer.Typer, argv: list[str] | None) -> int:
    """Run a typer app and return its exit code (click's usage errors exit 2)."""
    try:
        app(args=argv, standalone_mode=True)
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else EXIT_INPUT)
    return 0

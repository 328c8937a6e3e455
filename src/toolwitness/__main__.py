"""`python -m toolwitness` and the console script."""

from __future__ import annotations

import sys


def _gateway(argv: list[str]) -> int:
    """The gateway starts in front of a server on every client launch: load only what it needs,
    not the scanner (MCP SDK, tree-sitter, every check)."""
    import typer

    from toolwitness.cli_support import run_app
    from toolwitness.commands import integrity

    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    integrity.register(app)
    return run_app(app, argv)


def run() -> None:
    argv = sys.argv[1:]
    if argv[:1] == ["gateway"]:
        sys.exit(_gateway(argv))
    from toolwitness.cli import main

    sys.exit(main())


if __name__ == "__main__":
    run()

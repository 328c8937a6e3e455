"""`python -m toolwitness` and the console script."""

from __future__ import annotations

import sys


def _gateway(argv: list[str]) -> int:
    """The gateway starts in front of a server on every client launch: load only what it needs,
    not the scanner (MCP SDK, tree-sitter, every check)."""
    import typer

    from toolwitness.commands import integrity

    app = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    integrity.register(app)
    try:
        app(args=argv, standalone_mode=True)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    return 0


def run() -> None:
    argv = sys.argv[1:]
    if argv[:1] == ["gateway"]:
        sys.exit(_gateway(argv))
    from toolwitness.cli import main

    sys.exit(main())


if __name__ == "__main__":
    run()

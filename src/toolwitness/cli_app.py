"""The `toolwitness` typer app: the root options, then one subcommand loaded on first use.

The subcommands are listed in `toolwitness.commands.COMMANDS` (one line each) and imported only
when they run (`cli_lazy`). Defaults for `scan` and `code` come from `.toolwitness.toml` or
`[tool.toolwitness]` in pyproject.toml (`cli_config`); the command line wins. `cli.main` runs
this app for every command line the fast path (`cli_fast`) does not take.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from toolwitness._version import __version__
from toolwitness.cli import collector_for
from toolwitness.cli_formats import normalize_token
from toolwitness.cli_lazy import LazyGroup
from toolwitness.cli_support import guard

app = typer.Typer(
    name="toolwitness",
    cls=LazyGroup,
    help="Verify MCP servers: every finding names a concrete witness.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=True,
    context_settings={
        "help_option_names": ["-h", "--help"],
        "token_normalize_func": normalize_token,  # one format name set for every command
    },
)


def _print_version(value: bool) -> None:
    if value:
        sys.stdout.write(f"toolwitness {__version__}\n")
        raise typer.Exit(0)


@app.callback()
def root(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version", "-V", is_eager=True, callback=_print_version,
            help="Print the version and exit.",
        ),
    ] = False,
    config: Annotated[
        Path | None,
        typer.Option(
            "--config", metavar="<path>",
            help="Take scan/code defaults from this TOML file (else .toolwitness.toml or "
            "\\[tool.toolwitness] in pyproject.toml, searched upward).",
        ),
    ] = None,
    no_config: Annotated[
        bool, typer.Option("--no-config", help="Use no config file.", metavar="")
    ] = False,
) -> None:
    """Verify MCP servers: every finding names a concrete witness."""
    collector_for(ctx.invoked_subcommand)
    with guard():
        defaults = _config_defaults(ctx.invoked_subcommand, config, no_config)
        if defaults:
            ctx.default_map = defaults


def _config_defaults(
    command_name: str | None, explicit: Path | None, skip: bool
) -> dict[str, dict[str, object]]:
    from toolwitness.cli_config import SECTIONS, TOP_LEVEL_COMMAND, find_config, read_config
    from toolwitness.errors import UsageError

    if skip and explicit is not None:
        raise UsageError("--config and --no-config exclude each other")
    if skip or command_name is None or command_name not in (TOP_LEVEL_COMMAND, *SECTIONS):
        return {}
    config = read_config(explicit) if explicit is not None else find_config(Path.cwd())
    if config is None:
        return {}
    from toolwitness.cli_config import default_map
    from toolwitness.cli_lazy import load_command, not_from_config

    command = load_command(command_name)
    refused = not_from_config(command_name)
    return {command_name: default_map(config, command_name, command, refused)}

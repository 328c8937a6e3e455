"""Subcommands loaded on first use, and the presentation every command shares.

`LazyGroup` lists the commands of `toolwitness.commands.COMMANDS` and imports a command's module
only when that command runs or shows its own help; `toolwitness --help` prints the table's
summaries without importing any command. Each loaded command gets the same presentation:
options sorted into the help panels its module names (`HELP_PANELS`), no `<bool>` beside flags,
readable value names, and the report format inferred from `-o`'s extension (`cli_formats`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from enum import Enum
from functools import cache
from importlib import import_module
from typing import Any

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup

from toolwitness.cli_formats import inferred_format, normalize_token
from toolwitness.cli_support import die
from toolwitness.commands import COMMANDS
from toolwitness.errors import EXIT_INPUT, InternalError

_TYPE_NAMES = {"str": "text", "Path": "path", "int": "integer", "float": "number",
               "int range": "integer", "float range": "number"}  # fmt: skip
_LIST = re.compile(r"^<list\[(.+)\]>$")


class LazyGroup(TyperGroup):
    """A typer group whose commands come from the command table, imported when used."""

    _listing = False

    def list_commands(self, ctx: typer.Context) -> list[str]:  # type: ignore[override]
        return list(COMMANDS)

    def get_command(self, ctx: typer.Context, cmd_name: str) -> Any:  # type: ignore[override]
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        if self._listing:  # the group's own help needs each command's line, not its module
            return TyperCommand(cmd_name, help=entry.summary, rich_help_panel=entry.panel)
        return load_command(cmd_name)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        present_options(self, {})
        _plain_help_flag(self, ctx)
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


def load_command(name: str) -> Any:
    entry = COMMANDS[name]
    commands, _ = _module_commands(entry.module)
    if name not in commands:
        raise InternalError(f"{entry.module} does not register a command named {name!r}")
    return commands[name]


def not_from_config(name: str) -> frozenset[str]:
    """The parameter names of command `name` that a config file may not set."""
    command = load_command(name)
    _, panels = _module_commands(COMMANDS[name].module)
    return frozenset(
        p.name for p in command.params if p.name and getattr(p, "rich_help_panel", None) in panels
    )


@cache
def _module_commands(module_name: str) -> tuple[dict[str, Any], frozenset[str]]:
    module = import_module(module_name)
    scratch = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    module.register(scratch)
    group = typer.main.get_group(scratch)
    panels: Mapping[str, str] = getattr(module, "HELP_PANELS", {})
    for command in group.commands.values():
        present(command, panels)
    return dict(group.commands), frozenset(getattr(module, "NOT_FROM_CONFIG", ()))


def present(command: Any, panels: Mapping[str, str]) -> None:
    present_options(command, panels)
    original_help = command.format_help

    def format_help(ctx: typer.Context, formatter: Any) -> None:
        _plain_help_flag(command, ctx)
        original_help(ctx, formatter)

    command.format_help = format_help
    names = {p.name for p in command.params}
    if {"fmt", "output"} <= names:
        _infer_format_on_invoke(command)


def present_options(command: Any, panels: Mapping[str, str]) -> None:
    ctx = typer.Context(command)
    for param in command.params:
        if param.param_type_name != "option":
            continue
        if param.name in panels:
            param.rich_help_panel = panels[param.name]
        if param.metavar is None:
            param.metavar = _metavar(param, ctx)
        default = param.default
        if isinstance(default, Enum) and normalize_token(str(default.value)) != default.value:
            param.show_default = normalize_token(str(default.value))  # `text`, not `terminal`


def _plain_help_flag(command: Any, ctx: Any) -> None:
    """The help option exists only once a real context asks for it (it knows `-h`)."""
    option = command.get_help_option(ctx)
    if option is not None and option.metavar is None:
        option.metavar = ""


def _metavar(param: Any, ctx: typer.Context) -> str | None:
    """`--strict` rather than `--strict <bool>`; `<path>` rather than `<list[Path]>`."""
    if getattr(param, "is_flag", False):
        return ""
    shown = param.display_type(ctx) if hasattr(param, "display_type") else None
    if not isinstance(shown, str) or "|" in shown:  # choices stay listed as they are
        return None
    match = _LIST.match(shown)
    inner = match.group(1) if match else shown.strip("<>")
    return f"<{_TYPE_NAMES.get(inner, inner.lower())}>"


def _infer_format_on_invoke(command: Any) -> None:
    original = command.invoke

    def invoke(ctx: typer.Context) -> Any:
        source = ctx.get_parameter_source("fmt")
        member, error = inferred_format(
            ctx.params.get("fmt"), source.name if source is not None else None,
            ctx.params.get("output"),
        )  # fmt: skip
        if error is not None:
            die(error, EXIT_INPUT)
        if member is not None:
            ctx.params["fmt"] = member
        return original(ctx)

    command.invoke = invoke

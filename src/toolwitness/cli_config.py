"""Defaults for `scan` and `code`: `.toolwitness.toml`, or `[tool.toolwitness]` in pyproject.toml.

    [tool.toolwitness]             # defaults for `toolwitness scan` (.toolwitness.toml: top level)
    fail-on = "high"
    rules = ["policy/extra-rules.yaml"]
    baseline = "toolwitness-baseline.json"

    [tool.toolwitness.code]        # defaults for `toolwitness code` (in .toolwitness.toml: [code])
    declared-from = "annotations"

The file is searched upward from the current folder: the nearest folder holding
`.toolwitness.toml`, or a `pyproject.toml` with a `[tool.toolwitness]` table, wins
(`toolwitness --config FILE` names one, `--no-config` skips it). Keys are the command-line option
names without `--`; relative paths are relative to the file's folder; the command line wins.

The file is hostile input like any other: read bounded (regular files only) with the strict TOML
reader (numbers, depth and strings bounded as for client configs). An unknown key, a table for a
command that takes no config, or a value of the wrong type is an error naming the key (exit 2).
A config file never starts, connects to or calls a server: the live-server and lab options are
refused there, so a repository's config cannot run code on the machine that scans it.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from toolwitness.errors import InputError
from toolwitness.plainclass import plainclass

CONFIG_NAME = ".toolwitness.toml"
PYPROJECT = "pyproject.toml"
TOP_LEVEL_COMMAND = "scan"
SECTIONS = ("code",)  # commands with a table of their own
_MAX_BYTES = 1024 * 1024
_MAX_VALUE_ITEMS = 1000


@plainclass(frozen=True)
class ConfigFile:
    path: Path
    tables: dict[str, dict[str, Any]]  # command name -> its keys, as written
    present: bool = True  # False: a pyproject.toml without [tool.toolwitness]

    def where(self, command: str, key: str) -> str:
        prefix = "tool.toolwitness" if self.path.name == PYPROJECT else ""
        section = "" if command == TOP_LEVEL_COMMAND else command
        return ".".join(part for part in (prefix, section, key) if part)


def find_config(start: Path) -> ConfigFile | None:
    """The nearest `.toolwitness.toml`, or `pyproject.toml` with a toolwitness table, at or above
    `start`."""
    for folder in (start, *start.parents):
        # Present but not a regular file (a FIFO, a directory) is an error, not "no config".
        candidate = folder / CONFIG_NAME
        if os.path.lexists(candidate):
            return read_config(candidate)
        project = folder / PYPROJECT
        # A quick look before the strict parse: an unrelated (even broken) pyproject is not ours.
        if os.path.lexists(project) and b"toolwitness" in _read(project):
            config = read_config(project)
            if config.present:
                return config
    return None


def _read(path: Path) -> bytes:
    from toolwitness.files import read_regular

    return read_regular(path, _MAX_BYTES, what="config file")


def read_config(path: Path) -> ConfigFile:
    from toolwitness.acquire.config_syntax import parse_config_bytes
    from toolwitness.acquire.limits import InputLimits

    source = str(path)
    doc = parse_config_bytes(_read(path), "toml", source, InputLimits(max_file_bytes=_MAX_BYTES))
    if path.name == PYPROJECT:
        tool = doc.get("tool")
        if not isinstance(tool, dict) or "toolwitness" not in tool:
            return ConfigFile(path=path, tables={}, present=False)
        if not isinstance(tool["toolwitness"], dict):
            raise InputError("[tool.toolwitness] must be a table", source=source)
        doc = tool["toolwitness"]
    tables: dict[str, dict[str, Any]] = {TOP_LEVEL_COMMAND: {}}
    for key, value in doc.items():
        if isinstance(value, dict):
            if key not in SECTIONS:
                raise InputError(
                    f"unknown table {key!r}: the config sets defaults for scan (top level) "
                    f"and {', '.join(SECTIONS)}",
                    source=source,
                )
            tables[key] = value
        else:
            tables[TOP_LEVEL_COMMAND][key] = value
    return ConfigFile(path=path, tables=tables)


def default_map(
    config: ConfigFile, name: str, command: Any, refused: frozenset[str]
) -> dict[str, Any]:
    """Click's `default_map` for command `name`: every key checked against its options."""
    options = _options(command)
    source = str(config.path)
    out: dict[str, Any] = {}
    for key, value in config.tables.get(name, {}).items():
        where = config.where(name, key)
        param = options.get(key)
        if param is None:
            known = ", ".join(sorted(k for k, p in options.items() if p.name not in refused))
            raise InputError(f"unknown key {where!r} (keys for {name}: {known})", source=source)
        if param.name in refused:
            raise InputError(
                f"{where!r} starts, connects to or calls servers and cannot be set in a config "
                "file; pass it on the command line",
                source=source,
            )
        out[param.name] = _checked(param, value, command, where, config.path)
    return out


def _options(command: Any) -> dict[str, Any]:
    """Each visible option under its long name without `--` (`fail-on`)."""
    found: dict[str, Any] = {}
    for param in command.params:
        if param.param_type_name != "option" or getattr(param, "hidden", False):
            continue
        for opt in param.opts:
            if opt.startswith("--"):
                found[opt[2:]] = param
    return found


def _checked(param: Any, value: Any, command: Any, where: str, path: Path) -> Any:
    source = str(path)
    if param.multiple:
        if not isinstance(value, list) or len(value) > _MAX_VALUE_ITEMS:
            raise InputError(f"{where!r} must be a list", source=source)
        items = value
    elif getattr(param, "is_flag", False):
        if not isinstance(value, bool):
            raise InputError(f"{where!r} must be true or false", source=source)
        return value
    else:
        items = [value]
    if not all(isinstance(v, str | int | float) and not isinstance(v, bool) for v in items):
        raise InputError(f"{where!r} must be a string or a number", source=source)
    import typer  # only here: finding the config file is on the typer-free fast path (cli_fast)

    ctx = typer.Context(command)
    try:
        cast = param.process_value(ctx, list(items) if param.multiple else value)
    except (typer.BadParameter, ValueError, TypeError) as exc:
        message = exc.format_message() if isinstance(exc, typer.BadParameter) else str(exc)
        raise InputError(f"{where!r}: {message}", source=source) from None
    base = path.parent
    casts = list(cast) if param.multiple else [cast]
    resolved = [str(base / c) if isinstance(c, Path) and not c.is_absolute() else v
                for c, v in zip(casts, items, strict=True)]  # fmt: skip
    return resolved if param.multiple else resolved[0]

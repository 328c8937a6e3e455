"""Where discovery looks (`--home`, `--project`, `--no-project`) and what `scan --discover` adds
to its targets. No typer here, and the client-config readers load only with --discover: a plain
catalog scan on the command line's fast path (`cli_fast`) passes through `discover_targets`."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import TYPE_CHECKING

from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import UsageError

if TYPE_CHECKING:
    from toolwitness.acquire.locations import DiscoveryEnv
    from toolwitness.model import ServerSpec, ServerSurface


def discovery_env(
    home: Path | None, projects: list[Path] | None = None, *, no_project: bool = False
) -> DiscoveryEnv:
    for folder in [home, *(projects or [])]:
        if folder is not None and not folder.is_dir():
            label = "--home" if folder is home else "--project"
            raise UsageError(f"{label} {folder} is not a directory")
    folders = [(p.absolute(), "--project") for p in projects or []]
    if not no_project:
        with contextlib.suppress(OSError):  # the current folder was removed: nothing there
            folders.insert(0, (Path.cwd(), "current folder"))
    from toolwitness.acquire.locations import DiscoveryEnv

    return DiscoveryEnv.from_environ(
        home=home, projects=tuple(folders), recorded_projects=not no_project
    )


def discover_targets(
    discover_flag: bool,
    home: Path | None,
    project: list[Path] | None,
    limits: InputLimits,
    *,
    alone: bool,
    no_project: bool = False,
) -> list[ServerSpec | ServerSurface]:
    """What `scan --discover` adds to its targets: the specs, and one surface per file that
    could not be read (a TW-NET-008 finding each); nothing without --discover."""
    if not discover_flag:
        if home is not None or project or no_project:
            raise UsageError("--home, --project and --no-project apply with --discover")
        return []
    from toolwitness.acquire.config_problems import problem_surfaces
    from toolwitness.acquire.discovery import discover

    env = discovery_env(home, project, no_project=no_project)
    found = discover(env, limits)
    if not found.specs and not found.problems and alone:
        where = ", ".join([str(env.home), *(str(p) for p in env.projects)])
        raise UsageError(f"--discover found no MCP server in the client configs under {where}")
    return [*found.specs, *problem_surfaces(found.problems)]

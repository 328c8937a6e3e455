"""`scan --code`: code verification for every scanned server whose code can be found.

Where the code comes from, in order: the surface's `source_root` (a source directory); the
package a stdio command runs from a local install (`node …/dist/index.js`, `python …/server.py`:
the nearest folder above the script holding package.json or pyproject.toml); the package its
config names (`npx -y NAME@VERSION`, `uvx NAME==VERSION`), downloaded from the registry and
unpacked safely. Nothing found is a note, never a pass. A listed surface is verified as
advertised (`against_surface`); a server known only from its config entry is verified against the
tools its code registers, which then stand in for its surface.
"""

from __future__ import annotations

from pathlib import Path

from toolwitness.code.against import against_surface
from toolwitness.code.analyse import CodeAnalysis, CodeOptions, analyse_directory, analyse_target
from toolwitness.errors import ToolwitnessError
from toolwitness.model import Coverage, ServerSurface
from toolwitness.plainclass import plainclass

_SCRIPT_SUFFIXES = (".js", ".mjs", ".cjs", ".ts", ".mts", ".py")
_PROJECT_FILES = ("package.json", "pyproject.toml", "setup.py")
_MAX_CLIMB = 8  # folders above a script searched for its project file


@plainclass(frozen=True)
class CodeTarget:
    target: str  # a directory or a registry spec (npm:NAME@V, pypi:NAME==V)
    how: str  # our own words: where the code came from


@plainclass
class ServerCode:
    """The outcome for one server: an analysis, or why there is none."""

    analysis: CodeAnalysis | None
    note: str


def _project_of(script: Path) -> Path | None:
    folder = script.parent
    for _ in range(_MAX_CLIMB):
        if any((folder / name).is_file() for name in _PROJECT_FILES):
            return folder
        if folder.parent == folder:
            break
        folder = folder.parent
    return None


def _local_script(surface: ServerSurface) -> Path | None:
    transport = surface.transport
    if transport is None or transport.kind != "stdio":
        return None
    base = Path(transport.cwd) if transport.cwd else Path.cwd()
    for arg in transport.args:
        if arg.startswith("-") or not arg.endswith(_SCRIPT_SUFFIXES):
            continue
        path = Path(arg) if Path(arg).is_absolute() else base / arg
        if path.is_file():
            return path
    return None


def code_target(surface: ServerSurface) -> CodeTarget | str:
    """Where this server's code is, or (a string) why it cannot be found."""
    if surface.source_root and Path(surface.source_root).is_dir():
        return CodeTarget(surface.source_root, "its source directory")
    script = _local_script(surface)
    if script is not None:
        project = _project_of(script)
        if project is not None:
            return CodeTarget(str(project), "the local install its command runs")
    package = surface.package
    if package is not None and package.ecosystem in ("npm", "pypi"):
        if package.version is None:
            return "its package is not pinned to a version, so its code is not the code that runs"
        if package.ecosystem == "npm":
            return CodeTarget(f"npm:{package.name}@{package.version}", "the npm registry")
        return CodeTarget(f"pypi:{package.name}=={package.version}", "PyPI")
    return "no source directory, local install or pinned package is known for this server"


def analyse_server(surface: ServerSurface, workdir: Path, options: CodeOptions) -> ServerCode:
    found = code_target(surface)
    if isinstance(found, str):
        return ServerCode(None, f"--code: not verified: {found}")
    try:
        if found.target.startswith(("npm:", "pypi:")):
            analysis = analyse_target(found.target, workdir, options)
        else:
            analysis = analyse_directory(Path(found.target), options, surface.id, Coverage.SOURCE)
    except ToolwitnessError as exc:
        return ServerCode(None, f"--code: not verified: {found.how} could not be analysed: {exc}")
    found_in_code = len(analysis.tools)
    if config_only(surface):
        analysis.server_id = surface.id
    else:
        analysis = against_surface(analysis, surface, options.declared_from)
    return ServerCode(
        analysis, f"--code: analysed {found.how}; {found_in_code} tool registration(s) in the code"
    )


def config_only(surface: ServerSurface) -> bool:
    """Known only from a client config entry: nothing was listed, so the code says what it has."""
    return Coverage.CONFIG in surface.coverage and not surface.tools

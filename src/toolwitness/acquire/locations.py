"""Path templates (data/clients.yaml) → the concrete files to look at, under an injectable
environment (tests point HOME at a temporary folder; nothing reads the real one unless asked).

A template resolves to nothing when one of its variables is unset (`{PROGRAMDATA}` off
Windows), so every location from every platform is simply tried. A `*` component is a glob of
one directory level; matches are sorted and bounded, and an overflow is reported, not hidden.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path

from toolwitness.acquire.clients import BASE_VARIABLES, ClientTable

MAX_GLOB_FILES = 200  # matches read per glob template
_GLOB_SCAN = 10 * MAX_GLOB_FILES  # directory entries looked at before giving up on a glob


@dataclass(frozen=True)
class DiscoveryEnv:
    """The folders discovery resolves templates against, and the project folders to search."""

    home: Path
    appdata: Path
    xdg_config_home: Path
    codex_home: Path
    localappdata: Path | None = None
    copilot_home: Path | None = None
    programdata: Path | None = None
    programfiles: Path | None = None
    root: str = ""  # "" is the filesystem root: "{ROOT}/etc" is /etc
    projects: tuple[Path, ...] = ()  # searched for project files (the current folder, --project)
    recorded_projects: bool = False  # also the project folders clients record (~/.claude.json…)
    origins: Mapping[Path, str] = field(default_factory=dict)  # why each project is searched

    @classmethod
    def from_environ(
        cls,
        environ: Mapping[str, str] | None = None,
        *,
        home: Path | None = None,
        project: Path | None = None,
        projects: tuple[tuple[Path, str], ...] = (),
        recorded_projects: bool = False,
        root: str | None = None,
    ) -> DiscoveryEnv:
        """Values from `environ` (default: os.environ); an explicit `home` overrides HOME and
        re-derives every default beneath it unless the variable is set explicitly."""
        env = dict(os.environ) if environ is None else dict(environ)
        if home is not None and environ is None:
            env = {}  # --home: derive every location beneath it, not from the caller's variables
        base = home or Path(env.get("HOME") or env.get("USERPROFILE") or Path.home())

        def var(name: str, default: Path | None) -> Path | None:
            value = env.get(name)
            return Path(value) if value else default

        folders = list(projects)
        if project is not None:
            folders.insert(0, (project, "--project"))
        return cls(
            home=base,
            appdata=var("APPDATA", base / "AppData" / "Roaming") or base,
            xdg_config_home=var("XDG_CONFIG_HOME", base / ".config") or base,
            codex_home=var("CODEX_HOME", base / ".codex") or base,
            localappdata=var("LOCALAPPDATA", base / "AppData" / "Local"),
            copilot_home=var("COPILOT_HOME", base / ".copilot"),
            programdata=var("ProgramData", None) or var("PROGRAMDATA", None),
            programfiles=var("ProgramFiles", None) or var("PROGRAMFILES", None),
            root="" if root is None else root,
            projects=tuple(p for p, _ in folders),
            recorded_projects=recorded_projects,
            origins={p: why for p, why in folders},
        )

    def values(self, project: Path | None = None) -> dict[str, str | None]:
        def text(p: Path | None) -> str | None:
            return None if p is None else str(p)

        return {
            "HOME": str(self.home),
            "APPDATA": str(self.appdata),
            "LOCALAPPDATA": text(self.localappdata),
            "XDG_CONFIG_HOME": str(self.xdg_config_home),
            "CODEX_HOME": str(self.codex_home),
            "COPILOT_HOME": text(self.copilot_home),
            "PROGRAMDATA": text(self.programdata),
            "PROGRAMFILES": text(self.programfiles),
            "ROOT": self.root,
            "PROJECT": text(project),
        }

    def resolve(
        self, template: str, table: ClientTable, project: Path | None = None
    ) -> list[tuple[Path, tuple[str, ...]]]:
        """Every concrete path `template` names here, with the platforms it is documented for;
        a path whose variables are unset is left out."""
        values = self.values(project)
        out: list[tuple[Path, tuple[str, ...]]] = []
        for expanded, oses in table.expand(template):
            text: str | None = expanded
            for name in BASE_VARIABLES:
                token = "{" + name + "}"
                if text is not None and token in text:
                    value = values[name]
                    text = None if value is None else text.replace(token, value)
            if text is not None:
                out.append((Path(text), oses))
        return out


@dataclass(frozen=True)
class GlobResult:
    paths: tuple[Path, ...]
    overflow: int  # matches beyond MAX_GLOB_FILES that were not read (0: none)


def expand_glob(pattern: Path) -> GlobResult:
    """Files matching `pattern` (a `*` in any component, one directory level each), sorted."""
    parts = pattern.parts
    first = next(i for i, part in enumerate(parts) if "*" in part)
    base = Path(*parts[:first])
    if not base.is_dir():
        return GlobResult((), 0)
    relative = str(Path(*parts[first:]))
    try:
        seen = list(islice(base.glob(relative), _GLOB_SCAN + 1))
    except OSError:  # a folder that cannot be listed: nothing found there
        return GlobResult((), 0)
    matches = sorted(p for p in seen if _is_candidate(p))
    kept = tuple(matches[:MAX_GLOB_FILES])
    return GlobResult(kept, len(matches) - len(kept) + (1 if len(seen) > _GLOB_SCAN else 0))


def _is_candidate(path: Path) -> bool:
    """Anything but a directory: a FIFO or device is a candidate, so reading it names why not."""
    try:
        return not path.is_dir()
    except OSError:
        return True


def is_glob(path: Path) -> bool:
    return any("*" in part for part in path.parts)

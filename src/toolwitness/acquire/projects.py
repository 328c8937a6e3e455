"""Project folders the clients themselves record (data/clients.yaml `project_registries`).

A repository's `.mcp.json` or `.vscode/mcp.json` is the most likely way a hostile server
arrives, and the user's clients already know which repositories were opened: Claude Code keys
`~/.claude.json` `projects` by folder, Codex has `[projects."<folder>"]`, Gemini CLI keeps
`trustedFolders.json`, VS Code and its forks write each opened folder's `file://` URI into
`workspaceStorage/<hash>/workspace.json`. Those are hostile input too: only absolute paths of a
bounded length are taken, and the count is bounded.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from toolwitness.acquire.clients import ProjectRegistry

MAX_PROJECTS = 500  # project folders searched in one discovery
MAX_PATH_CHARS = 4096
_WINDOWS_DRIVE = re.compile(r"^/[A-Za-z]:[/\\]")


def recorded_folders(doc: Any, registry: ProjectRegistry) -> list[str]:
    """The folder paths one registry document records, as written (not yet checked)."""
    if not isinstance(doc, dict):
        return []
    if registry.folders == "keys":
        node = doc if registry.key == "" else doc.get(registry.key)
        return [str(k) for k in node] if isinstance(node, dict) else []
    value = doc.get(registry.key)
    path = path_from_file_uri(value) if isinstance(value, str) else None
    return [] if path is None else [path]


def path_from_file_uri(uri: str) -> str | None:
    """`file:///home/me/app` → `/home/me/app`; `file:///c%3A/src/app` → `c:/src/app`. Remote
    workspaces (`vscode-remote://…`) and other hosts are not folders on this machine."""
    if len(uri) > MAX_PATH_CHARS or not uri.lower().startswith("file://"):
        return None
    try:
        parts = urlsplit(uri)
    except ValueError:
        return None
    if parts.netloc not in ("", "localhost"):
        return None
    path = unquote(parts.path)
    return path[1:] if _WINDOWS_DRIVE.match(path) else path


def usable_folder(text: str) -> Path | None:
    """An absolute folder path of sane length, else None (a relative or foreign-platform path
    cannot name a folder here)."""
    if not text or len(text) > MAX_PATH_CHARS or "\x00" in text:
        return None
    path = Path(text)  # on POSIX `C:/git/app` is relative: a folder of another machine
    return path if path.is_absolute() else None

"""File paths as SARIF artifact locations: relative to a source root, never absolute.

GitHub code scanning reads a relative `uri` as relative to the repository root, so every file
inside the source root (`--source-root`, by default the repository found by walking up from the
target to `.git`) is given relative to `%SRCROOT%`. A file outside it (a home-folder client
config, an unpacked package) is given relative to a base of its own (`OUTSIDE1`, …) whose
description names it without an absolute path; a server with no file at all (a live URL) is named
under `SERVERS`. Each distinct path is resolved once per report (symlinks too: GitHub cannot
match a result to a symlink), not once per finding.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote

SRCROOT = "%SRCROOT%"
SERVERS = "SERVERS"


def find_source_root(targets: Sequence[Path]) -> Path:
    """The repository root above the first target (the folder holding `.git`), else the
    current folder."""
    for target in targets:
        start = Path(os.path.realpath(target))
        for folder in (start, *start.parents):
            if (folder / ".git").exists():
                return folder
        break
    return Path(os.path.realpath(Path.cwd()))


def _uri(relative: str) -> str:
    # ':' is escaped too, so no path can be read as a URI scheme (GitHub rejects those).
    return quote(relative, safe="/")


def _inside(path: str, root: str) -> str | None:
    if path == root:
        return ""
    prefix = root if root.endswith(os.sep) else root + os.sep
    return path[len(prefix) :] if path.startswith(prefix) else None


class ArtifactIndex:
    """Artifact locations for one report; remembers every base it hands out."""

    def __init__(self, source_root: Path) -> None:
        self.root = os.path.realpath(source_root)
        self.home = os.path.realpath(Path.home())
        self._resolved: dict[tuple[str, str | None], str] = {}
        self._artifacts: dict[tuple[str, str | None, str | None], dict[str, Any]] = {}
        self._outside: dict[str, tuple[str, str]] = {}  # folder → (base id, description)
        self.used_servers = False

    def _real(self, path: str, base: str | None) -> str:
        key = (path, base)
        found = self._resolved.get(key)
        if found is None:
            joined = path if base is None or os.path.isabs(path) else os.path.join(base, path)
            found = self._resolved[key] = os.path.realpath(joined)
        return found

    def file(self, path: str, base: str | None = None, label: str | None = None) -> dict[str, Any]:
        """The location of `path` (relative paths are relative to `base`, else the current
        folder); `label` describes `base` when it lies outside the source root."""
        key = (path, base, label)
        found = self._artifacts.get(key)
        if found is None:
            found = self._artifacts[key] = self._artifact(path, base, label)
        return dict(found)

    def _artifact(self, path: str, base: str | None, label: str | None) -> dict[str, Any]:
        real = self._real(path, base)
        relative = _inside(real, self.root)
        if relative is not None:
            return {"uri": _uri(Path(relative).as_posix() or "."), "uriBaseId": SRCROOT}
        folder = self._real(base, None) if base is not None else os.path.dirname(real)
        inner = _inside(real, folder)
        if inner is None:  # a witness that escapes its own base: name the file alone
            folder, inner = os.path.dirname(real), os.path.basename(real)
        base_id = self._outside_base(folder, label)
        return {"uri": _uri(Path(inner).as_posix() or "."), "uriBaseId": base_id}

    def _outside_base(self, folder: str, label: str | None) -> str:
        known = self._outside.get(folder)
        if known is None:
            under_home = _inside(folder, self.home)
            if label is not None:
                where = label
            elif under_home is not None:
                where = "~/" + Path(under_home).as_posix() if under_home else "~"
            else:
                where = f"a folder named {os.path.basename(folder) or '/'}"
            base_id = f"OUTSIDE{len(self._outside) + 1}"
            known = self._outside[folder] = (base_id, f"outside the source root: {where}")
        return known[0]

    def server(self, server_id: str) -> dict[str, Any]:
        """A server with no file (live URL, command line): the location names the server."""
        self.used_servers = True
        return {"uri": quote(server_id, safe=""), "uriBaseId": SERVERS}

    def original_uri_base_ids(self) -> dict[str, Any]:
        """`run.originalUriBaseIds`: every base used, described, none with an absolute URI."""
        bases: dict[str, Any] = {
            SRCROOT: {
                "description": {
                    "text": "The source root (--source-root; by default the repository root): "
                    "every %SRCROOT% uri is relative to it."
                }
            }
        }
        for base_id, description in sorted(self._outside.values()):
            bases[base_id] = {"description": {"text": description}}
        if self.used_servers:
            bases[SERVERS] = {
                "description": {
                    "text": "No file: a result here is about a server reached live; the uri is "
                    "the server's id."
                }
            }
        return bases

    def scrub(self, text: str) -> str:
        """Text with this machine's source root and home folder written relatively."""
        for prefix, replacement in ((self.root + os.sep, ""), (self.home + os.sep, "~/")):
            if prefix in text:
                text = text.replace(prefix, replacement)
        return text

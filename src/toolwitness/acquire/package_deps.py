"""A dependency's published artifact, for following the tools a package defines in it.

The version is the one the importing package's manifest declares (an exact pin or a range).
A folder of local artifacts is looked in first (`npm pack` file names, `SCOPE-NAME-VERSION.tgz`,
the highest version that satisfies the range); otherwise, when the registry may be asked,
`npm pack NAME@RANGE --ignore-scripts` with the integrity npm reports checked, as for a package
target (acquire/package.py). Either way the artifact is unpacked with the archive bounds and
never installed or run. Every failure is a `NotFollowed` with its reason (a gap the coverage
reports), never an exception: the rest of the analysis goes on.
"""

from __future__ import annotations

import re
import stat
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

from toolwitness.acquire.archive import ArchiveLimits, unpack_archive
from toolwitness.acquire.hostile_json import parse_json_bytes
from toolwitness.acquire.limits import InputLimits
from toolwitness.acquire.package import PackageSpec, _fetch_npm, package_root
from toolwitness.acquire.package_versions import compare, parse_version, satisfies
from toolwitness.errors import InputError, ToolwitnessError
from toolwitness.files import read_regular

_REGISTRY_RANGE = re.compile(r"^[0-9A-Za-z.^~<>=|*+ _-]{0,256}$")  # versions, ranges, tags
_MAX_ARTIFACTS = 4096  # files looked at in a local folder
_MAX_LISTED = 100_000  # names read from it
FETCH_TIMEOUT = 120.0


@dataclass(frozen=True)
class NotFollowed:
    """Why a dependency was not followed (the analysis reports it as a gap)."""

    reason: str


@dataclass(frozen=True)
class DependencySources:
    """Where dependency code may come from besides an install on disk."""

    artifacts: Path | None = None  # a folder of artifacts (npm pack .tgz), looked in first
    fetch: bool = False  # the registry may be asked (package targets: the user named a package)
    workdir: Path | None = None  # where artifacts are unpacked


# (package name, what its manifest declares, an empty folder) -> the package folder, or why not
Fetcher = Callable[[str, str, Path], "Path | NotFollowed"]


def read_manifest(folder: Path) -> dict[str, Any] | None:
    """A package.json read with the bounded reader (None if absent, not a file, or not JSON)."""
    path = folder / "package.json"
    try:
        info = path.lstat()
        if not stat.S_ISREG(info.st_mode):
            return None
        limits = InputLimits()
        doc = parse_json_bytes(read_regular(path, limits.max_file_bytes), str(path), limits)
    except (OSError, InputError):
        return None
    return doc if isinstance(doc, dict) else None


def dependency_fetcher(sources: DependencySources, limits: ArchiveLimits | None = None) -> Fetcher:
    def fetch(name: str, declared: str, dest: Path) -> Path | NotFollowed:
        if not _REGISTRY_RANGE.fullmatch(declared):
            return NotFollowed(f"{name} is declared as {declared!r}, not a registry version")
        local = _local_artifact(sources.artifacts, name, declared) if sources.artifacts else None
        if local is None and not sources.fetch:
            where = f" in {sources.artifacts}" if sources.artifacts else ""
            return NotFollowed(f"no artifact of {name}@{declared}{where} (registry not asked)")
        try:
            if local is None:
                (dest / "artifact").mkdir(parents=True, exist_ok=True)
                artifact = _fetch_npm(PackageSpec("npm", name, declared), dest / "artifact",
                                      FETCH_TIMEOUT).path  # fmt: skip
            else:
                artifact = local
            root = package_root(unpack_archive(artifact, dest / "tree", limits or ArchiveLimits()))
        except (ToolwitnessError, OSError) as exc:
            return NotFollowed(f"{name}@{declared} could not be fetched or unpacked: {exc}")
        manifest = read_manifest(root) or {}
        if manifest.get("name") != name:
            return NotFollowed(f"the artifact for {name} holds {manifest.get('name')!r}")
        return root

    return fetch


def _local_artifact(folder: Path, name: str, declared: str) -> Path | None:
    """The highest `SCOPE-NAME-VERSION.tgz` in the folder whose version satisfies the range."""
    stem = name.removeprefix("@").replace("/", "-") + "-"
    best: tuple[Path, str] | None = None
    try:  # names only, bounded before sorting: a huge folder costs a bounded listing
        entries = sorted(islice(folder.iterdir(), _MAX_LISTED))[:_MAX_ARTIFACTS]
    except OSError:
        return None
    for entry in entries:
        if not entry.name.startswith(stem) or not entry.name.endswith(".tgz"):
            continue
        version = entry.name[len(stem) : -len(".tgz")]
        parsed = parse_version(version)
        if parsed is None or not (declared == version or satisfies(version, declared)):
            continue
        if not entry.is_file() or entry.is_symlink():
            continue
        if best is None or compare(parsed, parse_version(best[1]) or parsed) > 0:
            best = (entry, version)
    return best[0] if best else None

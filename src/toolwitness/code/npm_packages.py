"""Where an npm package's code is: Node's `node_modules` lookup and package.json entry points.

Pure look-ups on folders already on disk (an install, or an artifact unpacked by the caller):
nothing is run. `exports` is read as Node reads it (subpaths, `*` patterns, the conditions
`node`, `require`, `import`, `module-sync`, `default` in the object's own order), then `main`,
`module` and `index.js`. A target that leaves the package folder, a link out of the search
boundary, or a file that is not a regular file is not followed (None, with the reason).
"""

from __future__ import annotations

import posixpath
import re
import stat
from pathlib import Path
from typing import Any

from toolwitness.acquire.package_deps import NotFollowed, read_manifest
from toolwitness.plainclass import plainclass

_NAME = re.compile(r"^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9._~-][a-z0-9._~-]*$", re.IGNORECASE)
_CONDITIONS = frozenset({"node", "require", "import", "module-sync", "default"})
_CODE_SUFFIXES = (".js", ".mjs", ".cjs", ".ts", ".mts", ".cts", ".jsx", ".tsx")
_MAX_CONDITION_DEPTH = 8
_MAX_CLIMB = 64  # folders walked up looking for node_modules


@plainclass(frozen=True)
class NpmPackage:
    name: str
    version: str | None
    real: Path  # its folder on disk
    manifest: dict[str, Any]  # package.json


def split_specifier(spec: str) -> tuple[str, str] | None:
    """`@scope/name/sub/path` -> ("@scope/name", "sub/path"); None if not a package name."""
    parts = spec.split("/")
    count = 2 if spec.startswith("@") else 1
    name = "/".join(parts[:count])
    if len(parts) < count or len(name) > 214 or not _NAME.fullmatch(name):
        return None
    return name, "/".join(parts[count:])


def find_installed(name: str, start: Path, boundary: Path) -> NpmPackage | NotFollowed:
    """Node's lookup: `node_modules/NAME` in `start` and each folder above it, up to and
    including `boundary`; a package folder that is a link must stay inside the boundary."""
    folder = start
    for _ in range(_MAX_CLIMB):
        if folder.name != "node_modules":
            candidate = folder / "node_modules" / name
            found = _package_at(candidate, name, boundary)
            if found is not None:
                return found
        if folder in (boundary, folder.parent):
            break
        folder = folder.parent
    return NotFollowed(f"no node_modules/{name} is installed where Node would look")


def _package_at(candidate: Path, name: str, boundary: Path) -> NpmPackage | None:
    try:
        info = candidate.lstat()
    except OSError:
        return None
    real = candidate
    if stat.S_ISLNK(info.st_mode):  # pnpm links every package: only inside the boundary
        try:
            real = candidate.resolve(strict=True)
        except (OSError, RuntimeError):
            return None
        if not real.is_relative_to(boundary.resolve()) or not real.is_dir():
            return None
    elif not stat.S_ISDIR(info.st_mode):
        return None
    manifest = read_manifest(real)
    if manifest is None:
        return None
    version = manifest.get("version")
    return NpmPackage(name, version if isinstance(version, str) else None, real, manifest)


def entry_file(package: NpmPackage, subpath: str) -> str | NotFollowed:
    """The file (relative to the package folder) an import of `name[/subpath]` loads."""
    exports = package.manifest.get("exports")
    if exports is not None:
        target = _exported(exports, subpath)
        if target is None:
            shown = f"'./{subpath}'" if subpath else "'.'"
            return NotFollowed(f"{shown} is not exported by {package.name}'s package.json")
        found = _existing(package.real, target, exact=True)
        return found or NotFollowed(f"{package.name} exports {target!r}, not a file in it")
    if subpath:
        found = _existing(package.real, subpath, exact=False)
        return found or NotFollowed(f"no file {subpath!r} in {package.name}")
    for field_name in ("main", "module"):
        value = package.manifest.get(field_name)
        if isinstance(value, str) and value:
            found = _existing(package.real, value, exact=False)
            if found is not None:
                return found
    found = _existing(package.real, "index", exact=False)
    return found or NotFollowed(f"{package.name} has no main file")


def _exported(exports: Any, subpath: str) -> str | None:
    wanted = "./" + subpath if subpath else "."
    if not isinstance(exports, dict) or not any(str(k).startswith(".") for k in exports):
        return _condition(exports, 0) if wanted == "." else None
    if wanted in exports:
        return _condition(exports[wanted], 0)
    best: tuple[str, str] | None = None  # (key, what * stands for), the longest prefix wins
    for key in exports:
        if key.count("*") != 1:
            continue
        prefix, suffix = key.split("*")
        fits = wanted.startswith(prefix) and wanted.endswith(suffix)
        longer = best is None or len(prefix) > len(best[0].split("*")[0])
        if fits and longer and len(wanted) >= len(prefix) + len(suffix):
            best = (key, wanted[len(prefix) : len(wanted) - len(suffix)])
    if best is None:
        return None
    target = _condition(exports[best[0]], 0)
    return target.replace("*", best[1]) if target is not None else None


def _condition(value: Any, depth: int) -> str | None:
    """The first target whose condition Node (required or imported) would take."""
    if depth > _MAX_CONDITION_DEPTH:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        for item in value[:16]:
            found = _condition(item, depth + 1)
            if found is not None:
                return found
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if key in _CONDITIONS:
                found = _condition(item, depth + 1)
                if found is not None:
                    return found
    return None


def _existing(folder: Path, target: str, *, exact: bool) -> str | None:
    """A regular file inside `folder` named by `target` (with Node's extension and index
    candidates unless `exact`); never through a link, never outside the folder."""
    rel = posixpath.normpath(target.removeprefix("./"))
    if rel.startswith(("../", "/")) or rel in ("..", ".") or "node_modules" in rel.split("/"):
        return None
    candidates = [rel]
    if not exact:
        candidates += [rel + suffix for suffix in _CODE_SUFFIXES]
        candidates += [f"{rel}/index{suffix}" for suffix in _CODE_SUFFIXES]
    for candidate in candidates:
        if candidate.endswith(_CODE_SUFFIXES) and _regular(folder, candidate):
            return candidate
    return None


def _regular(folder: Path, rel: str) -> bool:
    current = folder
    for part in rel.split("/"):
        current = current / part
        try:
            info = current.lstat()
        except OSError:
            return False
        if stat.S_ISLNK(info.st_mode):
            return False
    return stat.S_ISREG(info.st_mode)

"""Tools defined in dependencies: bare imports followed into the dependency's own code.

A bare import (`playwright-core/lib/coreBundle`, `from toolkit import register_all`) that is not
the runtime's own module, an MCP SDK or a library the sink catalog models is followed when the
analysis needs it: when the tree registers no tool itself (a thin wrapper: every such import of
the tree is followed), or when a registration that could not be read or a handler that could
not be resolved names a value imported from one. Its code is read from a `node_modules` (or
`site-packages`) folder Node (or Python) would look in — inside the tree, or above it when the
tree is itself an installed package — else from an artifact of the version the importing
package's manifest pins or declares (a local folder of artifacts, or the registry for package
targets), unpacked with the archive bounds. Never installed, imported or run.

Dependency files are analysed as part of the tree under keys `node_modules/NAME/…` (or
`site-packages/NAME/…`); only the files an import reaches are read (JavaScript: the entry file
and its relative imports). Bounded by packages, depth, files and bytes (`CodeLimits`); a bound
hit, a package that cannot be found, fetched or read is a gap note, never silence.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolwitness.acquire.package_deps import (
    DependencySources,
    Fetcher,
    NotFollowed,
    read_manifest,
)
from toolwitness.code.coverage import _matches, _sdk_modules
from toolwitness.code.dependency_imports import module_imports, referenced_imports
from toolwitness.code.npm_packages import NpmPackage, entry_file, find_installed, split_specifier
from toolwitness.code.project import Project, discover
from toolwitness.code.sinks import SinkCatalog
from toolwitness.code.specs import Extraction
from toolwitness.errors import InputError
from toolwitness.plainclass import field, plainclass


@plainclass
class _Package:
    name: str
    key: str  # its folder as module keys spell it
    real: Path  # its folder on disk
    boundary: Path  # how far up Node looks for its own dependencies
    depth: int
    manifest: dict[str, Any]


@plainclass
class Dependencies:
    project: Project
    catalog: SinkCatalog
    sources: DependencySources = field(default_factory=DependencySources)
    fetcher: Fetcher | None = None
    packages: dict[str, _Package] = field(default_factory=dict)  # by key
    notes: list[str] = field(default_factory=list)
    failed: dict[tuple[str, str], str] = field(default_factory=dict)  # (owner, spec) -> why
    files: int = 0
    bytes: int = 0
    wrapper_unfollowed: bool = False  # a thin wrapper's import could not be followed
    _tried: set[tuple[str, str]] = field(default_factory=set)
    _thin: bool = False  # following everything a tree with no registration imports

    def __post_init__(self) -> None:
        self.boundary = install_boundary(self.project.root)
        self.manifest = root_manifest(self.project.root) or {}

    # -- what to follow ----------------------------------------------------------------------
    def needs(self, extraction: Extraction, frontier: list[str]) -> list[tuple[str, str]]:
        """(importing module key, specifier) pairs to follow now."""
        project = self.project
        wanted: list[tuple[str, str]] = []
        self._thin = not any(m.registrations for m in project.modules.values())
        if self._thin:
            for key in frontier:  # a thin wrapper: the server is in what it imports
                module = project.modules[key]
                wanted += [(key, spec) for spec in sorted(module_imports(module))]
        else:
            places = {_place(note) for note in extraction.notes}
            places |= {(t.file, t.line) for t in extraction.tools if t.problems}
            for key, line in sorted(p for p in places if p is not None):
                holder = project.modules.get(key)
                for reg in holder.registrations if holder is not None else []:
                    if reg.line == line:
                        wanted += referenced_imports(project, reg)
        out: list[tuple[str, str]] = []
        for key, spec in dict.fromkeys(wanted):
            language = project.modules[key].language
            if self.followable(language, spec, key) and (key, spec) not in self._tried:
                out.append((key, spec))
        return out

    def followable(self, language: str, spec: str, from_key: str) -> bool:
        if language == "py":
            top = spec.split(".", 1)[0]
            if not top or top in sys.stdlib_module_names or spec.startswith("."):
                return False
            if self.project.resolve_py(from_key, spec, 0) is not None:
                return False
        elif spec.startswith((".", "/", "node:")) or ":" in spec:
            return False
        if _matches(spec, _sdk_modules()[language]):
            return False
        return not self.catalog.knows_module(language, spec)

    # -- following ---------------------------------------------------------------------------
    def follow(self, wanted: list[tuple[str, str]]) -> list[str]:
        """Load what each import reaches; returns the keys of the modules read."""
        loaded: list[str] = []
        for from_key, spec in wanted:
            self._tried.add((from_key, spec))
            language = self.project.modules[from_key].language
            owner = self.project.package_of(from_key)
            if (owner, spec) in self.project.links or (owner, spec) in self.failed:
                continue
            found: list[str] | NotFollowed | None
            if language == "py":
                found = self._python(owner, spec, from_key)
            else:
                found = self._javascript(owner, spec, from_key, loaded)
            if isinstance(found, NotFollowed):
                self.refuse(from_key, spec, found.reason)
            elif found is not None:
                loaded += found
        for key in loaded:
            self.project.index_module(self.project.modules[key])
        return loaded

    def refuse(self, from_key: str, spec: str, reason: str) -> None:
        self.failed[(self.project.package_of(from_key), spec)] = reason
        self.wrapper_unfollowed = self.wrapper_unfollowed or self._thin
        self.notes.append(f"{from_key}: dependency {spec!r} not followed: {reason}")

    def _javascript(
        self, owner: str, spec: str, from_key: str, loaded: list[str]
    ) -> list[str] | NotFollowed | None:
        parts = split_specifier(spec)
        if parts is None:
            return NotFollowed("not a package name")
        name, subpath = parts
        package = self._npm_package(owner, name, from_key)
        if isinstance(package, NotFollowed):
            return package
        entry = entry_file(NpmPackage(name, None, package.real, package.manifest), subpath)
        if isinstance(entry, NotFollowed):
            return entry
        keys = self._read_closure(package, entry)
        if isinstance(keys, NotFollowed):
            return keys
        self.project.links[(owner, spec)] = f"{package.key}/{entry}"
        return keys

    def _npm_package(self, owner: str, name: str, from_key: str) -> _Package | NotFollowed:
        owner_package = self.packages.get(owner)
        depth = owner_package.depth + 1 if owner_package else 1
        if depth > self.project.limits.max_dependency_depth:
            return NotFollowed(
                f"deeper than {self.project.limits.max_dependency_depth} dependency levels"
            )
        if owner_package is not None:
            start = owner_package.real / _dirname(from_key[len(owner) + 1 :])
            boundary, manifest = owner_package.boundary, owner_package.manifest
        else:
            start = self.project.root / _dirname(from_key)
            boundary, manifest = self.boundary, self.manifest
        installed = find_installed(name, start, boundary)
        if isinstance(installed, NpmPackage):
            return self._register(name, installed.real, boundary, depth, installed.manifest)
        for package in self.packages.values():  # fetched already (a cycle, or a shared one)
            if package.name == name and package.boundary == package.real:
                return package
        declared = declared_version(manifest, name)
        if declared is None:
            return NotFollowed(f"{installed.reason}, and no package.json here declares {name}")
        if self.fetcher is None:
            return NotFollowed(
                f"{installed.reason}; {name}@{declared} is declared but dependencies are fetched "
                "only for npm: targets or from --dependency-artifacts"
            )
        if len(self.packages) >= self.project.limits.max_dependency_packages:
            return NotFollowed(f"over {self.project.limits.max_dependency_packages} packages")
        assert self.sources.workdir is not None  # a fetcher is only given with a workdir
        dest = self.sources.workdir / f"dependency-{len(self.packages)}"
        fetched = self.fetcher(name, declared, dest)
        if isinstance(fetched, NotFollowed):
            return fetched
        fetched_manifest = read_manifest(fetched) or {}
        return self._register(name, fetched, fetched, depth, fetched_manifest)

    def _register(
        self, name: str, real: Path, boundary: Path, depth: int, manifest: dict[str, Any]
    ) -> _Package | NotFollowed:
        for package in self.packages.values():
            if package.real == real:
                return package
        if len(self.packages) >= self.project.limits.max_dependency_packages:
            return NotFollowed(f"over {self.project.limits.max_dependency_packages} packages")
        root = self.project.root.resolve()
        resolved = real.resolve()
        if resolved.is_relative_to(root) and resolved != root:
            key = resolved.relative_to(root).as_posix()
        else:
            key = f"node_modules/{name}"
            suffix = 2
            while key in self.packages:
                key = f"node_modules/{name}~{suffix}"
                suffix += 1
        package = _Package(name, key, real, boundary, depth, manifest)
        self.packages[key] = package
        self.project.package_keys.append(key)
        return package

    def _read_closure(self, package: _Package, entry: str) -> list[str] | NotFollowed:
        """The entry file and every file its relative imports reach, inside the package."""
        from toolwitness.code.dependency_imports import relative_targets

        limits = self.project.limits
        todo, seen, keys = [entry], {entry}, []
        while todo:
            rel = todo.pop()
            key = f"{package.key}/{rel}"
            if key in self.project.modules:
                continue
            path = package.real / rel
            size = _size(path)
            if self.files + 1 > limits.max_dependency_files:
                return NotFollowed(f"dependency code over {limits.max_dependency_files} files")
            if self.bytes + size > limits.max_dependency_bytes:
                return NotFollowed(f"dependency code over {limits.max_dependency_bytes} bytes")
            self.files += 1
            self.bytes += size
            module = self.project.add_file(key, path)
            keys.append(key)
            for target in relative_targets(module, package.real, rel):
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
        return keys

    def _python(self, owner: str, spec: str, from_key: str) -> list[str] | NotFollowed:
        top = spec.split(".", 1)[0]
        if top in self.project.py_roots:
            return []
        site = site_packages_of(self.project.root)
        folder = site / top if site is not None else None
        if (
            site is None
            or folder is None
            or not (folder / "__init__.py").is_file()
            or (folder.is_symlink())
        ):
            return NotFollowed(
                "Python dependencies are followed only from the site-packages folder the tree "
                "is installed in"
            )
        if len(self.packages) >= self.project.limits.max_dependency_packages:
            return NotFollowed(f"over {self.project.limits.max_dependency_packages} packages")
        key = f"site-packages/{top}"
        self.packages[key] = _Package(top, key, folder, site, 1, {})
        self.project.package_keys.append(key)
        self.project.py_roots[top] = "site-packages"
        keys: list[str] = []
        limits = self.project.limits
        try:
            for rel, path in discover(folder, limits):
                if not rel.endswith(".py"):
                    continue
                size = _size(path)
                if self.files + 1 > limits.max_dependency_files or (
                    self.bytes + size > limits.max_dependency_bytes
                ):
                    raise InputError("over the dependency file or byte bounds", source=top)
                self.files += 1
                self.bytes += size
                self.project.add_file(f"{key}/{rel}", path)
                keys.append(f"{key}/{rel}")
        except InputError as exc:  # a folder that cannot be listed, or too many files
            self.refuse(from_key, spec, f"read in part: {exc}")
        return keys


def follow_for(
    project: Project,
    catalog: SinkCatalog,
    sources: DependencySources,
    fetcher: Fetcher | None,
    extract_round: Callable[[], Extraction],
) -> tuple[Extraction, Dependencies]:
    """Extract, follow what the extraction needs, and again, up to the depth bound."""
    deps = Dependencies(project, catalog, sources, fetcher)
    extraction = extract_round()
    frontier = sorted(project.modules)
    depth = project.limits.max_dependency_depth
    for level in range(depth + 1):
        wanted = deps.needs(extraction, frontier)
        if not wanted:
            break
        if level == depth:  # still wanted past the bound: each is a gap
            for from_key, spec in wanted:
                deps.refuse(from_key, spec, f"deeper than {depth} dependency levels")
            break
        frontier = deps.follow(wanted)
        if not frontier:
            break
        extraction = extract_round()
    return extraction, deps


def install_boundary(root: Path) -> Path:
    """How far up Node looks: an installed package's whole install (the folder holding the
    outermost `node_modules` of its path), else the tree itself."""
    real = root.resolve()
    parts = real.parts
    if "node_modules" in parts:
        return Path(*parts[: parts.index("node_modules")])
    return real


def site_packages_of(root: Path) -> Path | None:
    real = root.resolve()
    for folder in (real, *real.parents):
        if folder.name in ("site-packages", "dist-packages"):
            return folder
    return None


def root_manifest(root: Path) -> dict[str, Any] | None:
    """The tree's package.json: in it, in `package/` (an npm tarball), or above a `dist/`."""
    for folder in (root, root / "package", root.resolve().parent):
        found = read_manifest(folder)
        if found is not None:
            return found
    return None


def declared_version(manifest: dict[str, Any], name: str) -> str | None:
    for section in ("dependencies", "optionalDependencies", "peerDependencies"):
        table = manifest.get(section)
        if isinstance(table, dict) and isinstance(table.get(name), str):
            return str(table[name])
    return None


def _size(path: Path) -> int:
    """0 for a file gone since it was found: reading it then fails and is a module error."""
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _dirname(key: str) -> str:
    return key.rsplit("/", 1)[0] if "/" in key else ""


def _place(note: str) -> tuple[str, int] | None:
    """`file:line: …` -> (file, line)."""
    head = note.split(": ", 1)[0]
    file, _, line = head.rpartition(":")
    return (file, int(line)) if file and line.isdigit() else None

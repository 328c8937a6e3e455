"""A source tree as modules: bounded file discovery, parsing, and import-specifier resolution."""

from __future__ import annotations

import os
import posixpath
import stat
from collections.abc import Iterator
from pathlib import Path

from toolwitness.code import ir
from toolwitness.errors import InputError
from toolwitness.files import read_regular
from toolwitness.plainclass import field, plainclass

JS_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
PY_SUFFIXES = (".py",)
# Directories that never hold the code a server runs (tests, dependencies, build caches).
SKIP_DIRS = frozenset(
    {
        "node_modules",
        "__tests__",
        "__mocks__",
        "test",
        "tests",
        ".git",
        "__pycache__",
        ".venv",
        "venv",
        "coverage",
        ".cache",
    }
)
_TS_FOR_JS = {".js": (".ts", ".tsx"), ".mjs": (".mts",), ".cjs": (".cts",), ".jsx": (".tsx",)}


@plainclass(frozen=True)
class CodeLimits:
    """Bounds of one analysis. Files over a per-file bound are not analysed (a gap the coverage
    reports), never a rejected run: bundles of several MiB are common in published packages."""

    max_files: int = 5_000
    max_file_bytes: int = 32 * 1024 * 1024  # one file read and parsed
    max_total_bytes: int = 200 * 1024 * 1024  # all files read
    max_file_nodes: int = 4_000_000  # syntax nodes of one file walked into the IR
    max_total_nodes: int = 20_000_000  # syntax nodes of the whole tree
    max_visited_functions: int = 50_000  # per tool
    max_resolution_depth: int = 40
    # Dependencies followed for tools and handlers they define (code/dependencies.py).
    max_dependency_packages: int = 32  # packages loaded from node_modules, site-packages or fetched
    max_dependency_depth: int = 3  # a dependency of a dependency of a dependency
    max_dependency_files: int = 2_000  # files read from all dependencies
    max_dependency_bytes: int = 64 * 1024 * 1024  # bytes read from all dependencies


@plainclass
class Project:
    root: Path
    modules: dict[str, ir.Module] = field(default_factory=dict)
    skipped: list[str] = field(default_factory=list)
    functions: dict[str, ir.Function] = field(default_factory=dict)
    classes: dict[str, ir.ClassDef] = field(default_factory=dict)
    scopes: dict[str, ir.Scope] = field(default_factory=dict)
    methods_by_name: dict[str, list[str]] = field(default_factory=dict)
    limits: CodeLimits = field(default_factory=CodeLimits)
    # Bare specifiers followed into dependency code: (package folder key of the importing
    # module, "" for the tree itself; specifier) -> module key (code/dependencies.py).
    links: dict[tuple[str, str], str] = field(default_factory=dict)
    package_keys: list[str] = field(default_factory=list)  # folder keys of loaded dependencies
    py_roots: dict[str, str] = field(default_factory=dict)  # Python top-level name -> key prefix
    _budget: _Budget | None = None

    def index(self) -> None:
        for module in self.modules.values():
            self.index_module(module)

    def index_module(self, module: ir.Module) -> None:
        self.functions.update(module.functions)
        self.classes.update(module.classes)
        self.scopes.update(module.scopes)
        for cls in module.classes.values():
            for name, fid in cls.methods.items():
                self.methods_by_name.setdefault(name, []).append(fid)

    def add_file(self, key: str, path: Path) -> ir.Module:
        """Read and parse one file into a module (bounded like every file of the tree); an
        unreadable or oversized file is a module with the reason as its error."""
        from toolwitness.code.frontends import js, python

        if self._budget is None:
            self._budget = _Budget(self.limits)
        budget = self._budget
        check_headroom()
        refused = budget.refuse_file(path)
        if refused is not None:
            module = self.modules[key] = _unread(key, refused)
            return module
        try:
            source = read_regular(path, self.limits.max_file_bytes, source=key, what="source file")
        except InputError as exc:  # changed under us, or unreadable: a gap, not a crash
            module = self.modules[key] = _unread(key, str(exc).removeprefix(f"{key}: "))
            return module
        budget.read(len(source))
        nodes = budget.nodes_left()
        if key.endswith(PY_SUFFIXES):
            module = python.parse_module(key, source, nodes)
        else:
            module = js.parse_module(key, source, nodes)
        budget.walked(module.nodes)
        self.modules[key] = module
        return module

    def package_of(self, key: str) -> str:
        """The dependency folder key holding a module key ("" for the tree itself)."""
        best = ""
        for prefix in self.package_keys:
            if key.startswith(prefix + "/") and len(prefix) > len(best):
                best = prefix
        return best

    def module_of(self, scope_or_func: str) -> ir.Module:
        return self.modules[scope_or_func.split(":", 1)[0]]

    # -- import specifiers -> module keys ----------------------------------------------------
    def resolve_js(self, from_key: str, spec: str) -> str | None:
        if not spec.startswith((".", "/")):
            return self.links.get((self.package_of(from_key), spec.removeprefix("node:")))
        base = posixpath.normpath(posixpath.join(posixpath.dirname(from_key), spec))
        candidates = [base]
        stem, ext = posixpath.splitext(base)
        candidates += [stem + alt for alt in _TS_FOR_JS.get(ext, ())]
        candidates += [base + suffix for suffix in JS_SUFFIXES]
        candidates += [posixpath.join(base, "index" + suffix) for suffix in JS_SUFFIXES]
        return next((c for c in candidates if c in self.modules), None)

    def resolve_py(self, from_key: str, module: str, level: int) -> str | None:
        parts = [p for p in module.split(".") if p]
        if level:
            package = posixpath.dirname(from_key).split("/") if "/" in from_key else []
            if level - 1 > len(package):
                return None
            base = package[: len(package) - (level - 1)]
            return self._py_candidate([*base, *parts])
        found = self._py_candidate(parts)
        if found is None and parts and parts[0] == self.root.name:
            found = self._py_candidate(parts[1:])
        return found

    def _py_candidate(self, parts: list[str]) -> str | None:
        prefix = self.py_roots.get(parts[0]) if parts else None
        stems = ["/".join(parts)]
        if prefix is not None:  # a top-level package followed into a dependency
            stems.append("/".join([prefix, *parts]))
        for stem in stems:
            for candidate in (f"{stem}.py", f"{stem}/__init__.py" if stem else "__init__.py"):
                if candidate in self.modules:
                    return candidate
        return None


def discover(root: Path, limits: CodeLimits) -> Iterator[tuple[str, Path]]:
    """Source files under `root` (sorted, bounded); symlinks are never followed and only
    regular files are yielded (a FIFO or device named `x.ts` is not source and never opened)."""
    count = 0
    stack = [root]
    while stack:
        directory = stack.pop()
        try:
            entries = sorted(directory.iterdir(), key=lambda p: p.name, reverse=True)
        except OSError as exc:
            raise InputError(
                f"cannot list directory: {exc.strerror}", source=str(directory)
            ) from None
        for entry in entries:
            try:
                info = entry.lstat()
            except OSError:
                continue
            if stat.S_ISLNK(info.st_mode):
                continue
            if stat.S_ISDIR(info.st_mode):
                if entry.name not in SKIP_DIRS and not entry.name.startswith("."):
                    stack.append(entry)
                continue
            name = entry.name
            if not name.endswith(JS_SUFFIXES + PY_SUFFIXES) or name.endswith(".d.ts"):
                continue
            if ".test." in name or ".spec." in name or name.startswith("test_"):
                continue
            if not stat.S_ISREG(info.st_mode):
                continue
            count += 1
            if count > limits.max_files:
                raise InputError(f"more than {limits.max_files} source files", source=str(root))
            yield entry.relative_to(root).as_posix(), entry


def load_project(root: Path, limits: CodeLimits | None = None) -> Project:
    limits = limits or CodeLimits()
    if not root.is_dir():
        raise InputError("not a directory", source=str(root))
    project = Project(root=root, limits=limits)
    for key, path in discover(root, limits):
        project.add_file(key, path)
    project.index()
    return project


# Under the child's address-space limit (`code.isolate`, RLIMIT_AS), memory running out inside a
# parse can leave CPython 3.11 spinning instead of raising: a MemoryError that unwinds into an
# exception handler must first allocate the frame's instruction offset as an int (over 256 in a
# large function, so not a cached one), and when that allocation fails too it retries the same
# handler forever, until the wall-time or CPU limit. So each file is read only while this much
# address space is left; otherwise the MemoryError is raised here, between files, and reported
# as the memory limit like any other. (A tree whose growth is per file, the usual case, then
# stops at this check; one file too large for the margin still meets RLIMIT_AS itself.)
HEADROOM_BYTES = 8 * 1024 * 1024


def check_headroom(margin: int = HEADROOM_BYTES) -> None:
    """MemoryError when the address space left under RLIMIT_AS is below `margin` (Linux, where
    /proc/self/statm gives the size in use; no limit or no /proc: nothing to check)."""
    import resource

    limit = resource.getrlimit(resource.RLIMIT_AS)[0]
    if limit == resource.RLIM_INFINITY:
        return
    try:
        with open("/proc/self/statm", "rb") as statm:
            pages = int(statm.read().split()[0])
    except (OSError, ValueError, IndexError):
        return
    if limit - pages * os.sysconf("SC_PAGE_SIZE") < margin:
        raise MemoryError("address space nearly exhausted")


class _Budget:
    """Bytes read and syntax nodes walked, for the tree and for each file."""

    def __init__(self, limits: CodeLimits) -> None:
        self.limits = limits
        self.bytes = 0
        self.nodes = 0

    def refuse_file(self, path: Path) -> str | None:
        try:
            size = path.stat().st_size
        except OSError as exc:
            return f"cannot read: {exc.strerror}"
        if size > self.limits.max_file_bytes:
            return f"file over {self.limits.max_file_bytes} bytes: not analysed"
        if self.bytes + size > self.limits.max_total_bytes:
            return f"source tree over {self.limits.max_total_bytes} bytes: not analysed"
        if self.nodes >= self.limits.max_total_nodes:
            return f"source tree over {self.limits.max_total_nodes} syntax nodes: not analysed"
        return None

    def read(self, size: int) -> None:
        self.bytes += size

    def nodes_left(self) -> int:
        return max(0, min(self.limits.max_file_nodes, self.limits.max_total_nodes - self.nodes))

    def walked(self, nodes: int) -> None:
        self.nodes += nodes


def _unread(key: str, reason: str) -> ir.Module:
    module = ir.Module(key=key, language="py" if key.endswith(PY_SUFFIXES) else "js")
    module.scopes[key] = ir.Scope(key, None)
    module.errors.append(reason)
    return module

"""Code verification as a library call: a source tree (or artifact, or package spec) -> verdicts.

    analysis = analyse_target("npm:@modelcontextprotocol/server-filesystem@2026.8.31", workdir)
    result = toolwitness.pipeline.code_scan_result(analysis)   # a ScanResult for any formatter

Nothing is installed, imported or executed: archives are unpacked by `acquire.archive` (bounded,
no traversal, no links out) and sources are parsed by the front-ends.
"""

from __future__ import annotations

from pathlib import Path

from toolwitness.acquire.hostile_json import parse_json_bytes
from toolwitness.acquire.limits import InputLimits
from toolwitness.acquire.package_deps import DependencySources, dependency_fetcher
from toolwitness.code import lattice
from toolwitness.code.coverage import NOT_IN_CODE, CodeCoverage, coverage_gaps, server_files
from toolwitness.code.declared import DeclaredFrom
from toolwitness.code.dependencies import follow_for
from toolwitness.code.graph import CallGraph
from toolwitness.code.isolate import ChildLimits
from toolwitness.code.project import CodeLimits, Project, load_project
from toolwitness.code.registrations import extract
from toolwitness.code.sinks import load_sink_catalog
from toolwitness.code.specs import Extraction, ToolSpec
from toolwitness.code.verify import UNANALYZABLE, ToolVerdict, findings_for, verify_tools
from toolwitness.errors import InputError, UsageError
from toolwitness.files import read_regular
from toolwitness.findings import Finding, Witness
from toolwitness.gcpause import gc_paused
from toolwitness.model import Coverage, ServerSurface, Tool
from toolwitness.plainclass import field, plainclass, replace
from toolwitness.result import ToolResult
from toolwitness.rules import RuleRegistry

ARCHIVE_SUFFIXES = (".tgz", ".tar.gz", ".tar", ".whl", ".zip")


@plainclass(frozen=True)
class CodeOptions:
    declared_from: DeclaredFrom = DeclaredFrom.BOTH
    limits: CodeLimits = field(default_factory=CodeLimits)
    allow_partial: bool = False  # incomplete coverage is a finding, not an incomplete scan
    child: ChildLimits = field(default_factory=ChildLimits)  # wall, memory, CPU of the child
    # Where dependency code may come from besides an install (code/dependencies.py).
    dependencies: DependencySources = field(default_factory=DependencySources)


@plainclass
class CodeAnalysis:
    server_id: str
    root: Path
    coverage: Coverage
    project: Project
    graph: CallGraph
    tools: list[ToolSpec]
    verdicts: list[ToolVerdict]
    notes: list[str]
    advertised: ServerSurface | None = None  # what the server advertises, when given
    gaps: list[str] = field(default_factory=list)  # registrations not read (code/coverage.py)
    # imports an MCP SDK or registers a request handler — or wraps a dependency that could not
    # be followed (a thin wrapper's server may be there: not knowing is not a pass)
    is_server: bool = False
    registered: int = 0  # tools the code registers (before matching an advertised list)

    def code_coverage(self) -> CodeCoverage:
        missing = tuple(v.name for v in self.verdicts if NOT_IN_CODE in v.spec.problems)
        verified = sum(1 for v in self.verdicts if v.verdict != UNANALYZABLE)
        listed = len(self.advertised.tools) if self.advertised is not None else None
        return CodeCoverage(
            self.is_server, self.registered, listed, verified, missing, tuple(self.gaps)
        )

    def verdict(self, name: str) -> ToolVerdict:
        for verdict in self.verdicts:
            if verdict.name == name:
                return verdict
        raise KeyError(name)

    def surface(self) -> ServerSurface:
        if self.advertised is not None:
            coverage = tuple(dict.fromkeys((*self.advertised.coverage, self.coverage)))
            return self.advertised.model_copy(
                update={
                    "source_root": str(self.root),
                    "coverage": coverage,
                    "notes": (*self.advertised.notes, *self.notes),
                }
            )
        tools = tuple(
            Tool(
                name=spec.name,
                title=spec.title,
                description=spec.description,
                inputSchema=spec.input_schema,
                annotations=spec.annotations,
            )
            for spec in self.tools
        )
        return ServerSurface(
            id=self.server_id,
            source=str(self.root),
            tools=tools,
            source_root=str(self.root),
            coverage=(self.coverage,),
            notes=tuple(self.notes),
        )


def analyse_directory(
    root: Path,
    options: CodeOptions | None = None,
    server_id: str | None = None,
    coverage: Coverage = Coverage.SOURCE,
) -> CodeAnalysis:
    options = options or CodeOptions()
    with gc_paused():
        return _analyse(root, options, server_id, coverage)


def _analyse(
    root: Path, options: CodeOptions, server_id: str | None, coverage: Coverage
) -> CodeAnalysis:
    project = load_project(root, options.limits)
    catalog = load_sink_catalog()
    graphs: list[CallGraph] = []

    def extract_round() -> Extraction:  # again after dependency code is added to the project
        graphs.append(CallGraph(project, catalog, options.limits))
        return extract(project, graphs[-1].resolver)

    sources = options.dependencies
    fetchable = (sources.fetch or sources.artifacts is not None) and sources.workdir is not None
    fetcher = dependency_fetcher(sources) if fetchable else None
    extraction, deps = follow_for(project, catalog, sources, fetcher, extract_round)
    graph = graphs[-1]
    specs = _merge_duplicates(extraction.tools)
    _name_anonymous_handlers(project, specs)
    verdicts = verify_tools(specs, graph, options.declared_from)
    registration_notes = [*extraction.notes, *deps.notes]
    notes = list(registration_notes)
    for key in sorted(project.modules):  # a file not fully read may hide a registration
        notes += [f"{key}: {error}" for error in project.modules[key].errors]
    files = server_files(project)
    gaps = coverage_gaps(project, registration_notes, files, found=len(specs))
    return CodeAnalysis(
        server_id or root.name,
        root,
        coverage,
        project,
        graph,
        specs,
        verdicts,
        notes,
        gaps=gaps,
        is_server=bool(files) or deps.wrapper_unfollowed,
        registered=len(specs),
    )


def analyse_target(target: str, workdir: Path, options: CodeOptions | None = None) -> CodeAnalysis:
    """A source directory, a .tgz/.whl/.zip artifact, or `npm:NAME@VERSION` / `pypi:NAME==V`."""
    if target.startswith(("npm:", "pypi:")):
        try:
            from toolwitness.acquire.package import fetch_and_unpack
        except ImportError:
            raise UsageError("package specs are not supported in this build") from None
        root = fetch_and_unpack(target, workdir / "target", None)
        fetching = _with_dependencies(options, workdir, fetch=True)
        return analyse_directory(root, fetching, target.split(":", 1)[1], Coverage.PACKAGE)
    path = Path(target)
    if path.is_dir():
        local = _with_dependencies(options, workdir, fetch=False)
        return analyse_directory(path, local, _server_name(path), Coverage.SOURCE)
    if path.is_file() and path.name.endswith(ARCHIVE_SUFFIXES):
        from toolwitness.acquire.archive import unpack_archive

        root = unpack_archive(path, workdir / "target")
        local = _with_dependencies(options, workdir, fetch=False)
        return analyse_directory(root, local, _server_name(root, path.name), Coverage.PACKAGE)
    if not path.exists():
        raise InputError("no such file or directory", source=target)
    raise InputError("not a source directory or a .tgz/.whl/.zip artifact", source=target)


def _with_dependencies(options: CodeOptions | None, workdir: Path, *, fetch: bool) -> CodeOptions:
    """Dependency artifacts unpack beside the target; the registry is asked only when the user
    named a package (a local tree or artifact stays offline)."""
    options = options or CodeOptions()
    sources = replace(options.dependencies, fetch=fetch, workdir=workdir / "dependencies")
    return replace(options, dependencies=sources)


def _server_name(root: Path, fallback: str | None = None) -> str:
    """`name@version` from the nearest package.json (the tree itself, its parent, or an npm
    tarball's `package/`), else the directory's name."""
    for folder in (root, root / "package", root.resolve().parent):
        manifest = folder / "package.json"
        if not manifest.is_file() or manifest.is_symlink():
            continue
        try:
            limits = InputLimits()  # bounded while reading: a 3 GB package.json is refused
            data = read_regular(manifest, limits.max_file_bytes, what="package.json")
            doc = parse_json_bytes(data, str(manifest), limits)
        except (InputError, OSError):
            continue
        name = doc.get("name") if isinstance(doc, dict) else None
        if isinstance(name, str):
            version = doc.get("version")
            return name + (f"@{version}" if isinstance(version, str) else "")
    return fallback or root.resolve().name


def _name_anonymous_handlers(project: Project, specs: list[ToolSpec]) -> None:
    """`<arrow function@42>` reads better in a call path as `edit_file handler`."""
    for spec in specs:
        for func_id in spec.handlers:
            fn = project.functions[func_id]
            if fn.name.startswith("<") and not spec.dispatch:
                fn.name = f"{spec.name} handler"


def _merge_duplicates(specs: list[ToolSpec]) -> list[ToolSpec]:
    """One spec per tool name; handlers of repeated registrations are all analysed."""
    merged: dict[str, ToolSpec] = {}
    for spec in specs:
        first = merged.get(spec.name)
        if first is None:
            merged[spec.name] = spec
            continue
        first.handlers += [h for h in spec.handlers if h not in first.handlers]
        first.problems += [p for p in spec.problems if p not in first.problems]
        first.dispatch = first.dispatch or spec.dispatch
    return [merged[name] for name in sorted(merged)]


def code_findings(analysis: CodeAnalysis, rules: RuleRegistry) -> list[Finding]:
    found = [f for v in analysis.verdicts for f in findings_for(v, rules)]
    covered = analysis.code_coverage()
    if not covered.complete:
        found.append(
            rules.finding(
                "TW-CODE-005",
                tool=None,
                location="code",
                message=f"{covered.summary()}: {covered.reason()}",
            )
        )
    for note in analysis.notes:
        found.append(
            rules.finding(
                "TW-CODE-004", tool=None, location=f"code:{note.split(': ', 1)[0]}", message=note
            )
        )
    return found


def with_verdict(tool: ToolResult, verdict: ToolVerdict | None) -> ToolResult:
    if verdict is None:
        return tool
    return tool.model_copy(
        update={
            "declared": lattice.display(verdict.declaration.leaves),
            "actual": lattice.ordered(verdict.actual),
            "undeclared": lattice.ordered(verdict.undeclared),
            "verdict": verdict.verdict,
            "verdict_reason": "; ".join(verdict.reasons) or None,
            "witnesses": verdict.witnesses(),
            "registration": Witness(
                kind="source",
                file=verdict.spec.file,
                line=verdict.spec.line,
                column=verdict.spec.column - 1,  # Witness columns are 0-based
            ),
        }
    )

"""Discovery that never gives up on the rest: every known location, each file read once, every
problem kept with its file and reason while the other files are still read.

`discover(env)` returns a `Discovery`: the specs, the problems (a file that could not be read or
parsed, an entry that is malformed, a glob or project list over its bound), where it looked
(each location found / absent / unreadable) and which project folders it searched and why.
Nothing is started and nothing is expanded from the real environment.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolwitness.acquire.clients import ClientFile, ClientTable, client_table
from toolwitness.acquire.config_formats import specs_from_document
from toolwitness.acquire.config_syntax import parse_config_bytes, read_bounded, syntax_for
from toolwitness.acquire.limits import InputLimits
from toolwitness.acquire.locations import MAX_GLOB_FILES, DiscoveryEnv, expand_glob, is_glob
from toolwitness.acquire.projects import MAX_PROJECTS, recorded_folders, usable_folder
from toolwitness.errors import InputError
from toolwitness.model import ServerSpec

OPAQUE_REASON = (
    "a script the client runs to configure itself; toolwitness never runs it, so the servers it"
    " adds are not listed"
)


@dataclass(frozen=True)
class ConfigProblem:
    """A file (or one entry in it) that could not be read: the servers there were not seen."""

    file: str
    reason: str
    client: str | None = None
    location: str | None = None  # the JSON path of a malformed entry; None for the whole file


@dataclass(frozen=True)
class LocationReport:
    path: str
    clients: tuple[str, ...]
    scope: str  # user | project | system
    state: str  # found | absent | unreadable
    servers: int = 0
    reason: str | None = None
    project: str | None = None  # the project folder, for a project file


@dataclass(frozen=True)
class ProjectReport:
    path: str
    origin: str  # "current folder", "--project", or the file that records it
    state: str  # searched | absent | skipped


@dataclass(frozen=True)
class Discovery:
    specs: tuple[ServerSpec, ...]
    problems: tuple[ConfigProblem, ...]
    locations: tuple[LocationReport, ...]
    projects: tuple[ProjectReport, ...]

    def files(self) -> list[str]:
        """Every file that exists (read, or refused with a reason)."""
        return [loc.path for loc in self.locations if loc.state != "absent"]


@dataclass
class _Report:
    path: str
    scope: str
    project: str | None
    clients: list[str] = field(default_factory=list)
    state: str = "absent"
    servers: int = 0
    reason: str | None = None


class _Discoverer:
    def __init__(self, env: DiscoveryEnv, limits: InputLimits, table: ClientTable) -> None:
        self.env, self.limits, self.table = env, limits, table
        self.reports: dict[str, _Report] = {}
        self.problems: list[ConfigProblem] = []
        self.specs: list[ServerSpec] = []
        self.docs: dict[str, tuple[Any, str | None]] = {}  # resolved path -> (doc, error)
        self.done: set[tuple[str, str, str]] = set()  # (resolved path, client, format)
        self.seen_entries: set[tuple[str, str]] = set()  # (resolved path, origin)

    def problem(self, problem: ConfigProblem) -> None:
        if problem not in self.problems:
            self.problems.append(problem)

    def visit(self, entry: ClientFile, project: Path | None = None) -> None:
        for path, _ in self.env.resolve(entry.path, self.table, project):
            if not is_glob(path):
                self.read(path, entry, project)
                continue
            result = expand_glob(path)
            if result.overflow:
                self.problem(
                    ConfigProblem(
                        str(path),
                        f"more than {MAX_GLOB_FILES} files match; the first {MAX_GLOB_FILES}"
                        " (sorted) were read, the rest were not",
                        entry.client,
                    )
                )
            if not result.paths:
                self._report(path, entry, project)  # the pattern itself, absent
            for match in result.paths:
                self.read(match, entry, project)

    def _report(self, path: Path, entry: ClientFile, project: Path | None) -> tuple[str, _Report]:
        key = _key(path)
        report = self.reports.get(key)
        if report is None:
            where = None if project is None else str(project)
            report = self.reports[key] = _Report(str(path), entry.scope, where)
        if entry.client not in report.clients:
            report.clients.append(entry.client)
        return key, report

    def read(self, path: Path, entry: ClientFile, project: Path | None) -> None:
        key, report = self._report(path, entry, project)
        if (key, entry.client, entry.format) in self.done:
            return
        self.done.add((key, entry.client, entry.format))
        doc, error = self.document(key, path, entry.syntax or syntax_for(path))
        if error == "absent":
            return
        if error is None and entry.format == "opaque":
            error = OPAQUE_REASON
        if error is not None:
            report.state, report.reason = "unreadable", error
            self.problem(ConfigProblem(str(path), error, report.clients[0]))
            return
        report.state = "found"
        self._walk(doc, path, key, entry, report)

    def document(self, key: str, path: Path, syntax: str) -> tuple[Any, str | None]:
        """The parsed file (cached: several clients read one file), or why it cannot be read."""
        if key not in self.docs:
            self.docs[key] = _parse(path, syntax, self.limits)
        return self.docs[key]

    def _walk(self, doc: Any, path: Path, key: str, entry: ClientFile, report: _Report) -> None:
        if doc is None and entry.syntax == "yaml":
            return  # an empty YAML file
        source = str(path)
        errors: list[InputError] = []
        try:
            found = specs_from_document(
                doc, entry.format, client=entry.client, source=source, limits=self.limits,
                problems=errors,
            )  # fmt: skip
        except InputError as exc:  # the server list itself is malformed: nothing read here
            found = []
            errors.append(exc)
        for error in errors:
            at = None if error.path in (None, "", "$") else error.path
            self.problem(ConfigProblem(source, error.reason, entry.client, at))
        for spec in found:
            origin = spec.origin or ""
            where = origin[len(source) :] if origin.startswith(source) else origin
            if (key, where) in self.seen_entries:
                continue  # the same entry read for a second client of this file
            self.seen_entries.add((key, where))
            self.specs.append(spec)
            report.servers += 1

    def recorded_projects(self) -> list[tuple[Path, str]]:
        out: list[tuple[Path, str]] = []
        for registry in self.table.registries:
            for path, _ in self.env.resolve(registry.path, self.table):
                files = expand_glob(path).paths if is_glob(path) else (path,)
                for file in files:
                    doc, error = self.document(_key(file), file, registry.syntax)
                    if error is None:
                        for text in recorded_folders(doc, registry):
                            folder = usable_folder(text)
                            if folder is not None:
                                out.append((folder, f"recorded in {file}"))
                    elif error != "absent" and not self._reported(file):
                        reason = f"{error} (it lists project folders; those were not searched)"
                        self.problem(ConfigProblem(str(file), reason, registry.client))
        return out

    def _reported(self, path: Path) -> bool:
        """Whether the file was already read as a client config (its problem is on record)."""
        report = self.reports.get(_key(path))
        return report is not None and report.state != "absent"


def _key(path: Path) -> str:
    """One identity per file, however it was reached (a symlink, `~` twice, `.` and a project)."""
    try:
        return os.path.realpath(path)
    except (OSError, ValueError):
        return os.path.abspath(path)


def _parse(path: Path, syntax: str, limits: InputLimits) -> tuple[Any, str | None]:
    try:
        os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return None, "absent"
    except OSError as exc:
        return None, f"cannot read: {exc.strerror or exc}"
    except ValueError as exc:  # an embedded NUL in a recorded folder name
        return None, f"cannot read: {exc}"
    if syntax == "shell":
        return None, None  # found; never read
    try:
        return parse_config_bytes(read_bounded(path, limits), syntax, str(path), limits), None
    except InputError as exc:
        return None, exc.reason


def discover(env: DiscoveryEnv, limits: InputLimits | None = None) -> Discovery:
    """Read every known location under `env`; never stop at a bad file."""
    limits = limits or InputLimits()
    table = client_table()
    run = _Discoverer(env, limits, table)
    files = table.files()
    for entry in files:
        if entry.scope != "project":
            run.visit(entry)
    folders = [(p, env.origins.get(p, "current folder")) for p in env.projects]
    if env.recorded_projects:
        folders += run.recorded_projects()
    projects: list[ProjectReport] = []
    searched: set[str] = set()
    for folder, origin in folders:
        key = _key(folder)
        if key in searched:
            continue
        searched.add(key)
        if len(searched) > MAX_PROJECTS:
            projects.append(ProjectReport(str(folder), origin, "skipped"))
            continue
        if not folder.is_dir():
            projects.append(ProjectReport(str(folder), origin, "absent"))
            continue
        projects.append(ProjectReport(str(folder), origin, "searched"))
        for entry in files:
            if entry.scope == "project":
                run.visit(entry, folder)
    skipped = sum(1 for p in projects if p.state == "skipped")
    if skipped:
        run.problem(
            ConfigProblem(
                "project folders",
                f"{skipped} more recorded project folders than the {MAX_PROJECTS} searched;"
                " their configs were not read",
            )
        )
    locations = tuple(
        LocationReport(r.path, tuple(r.clients), r.scope, r.state, r.servers, r.reason, r.project)
        for r in run.reports.values()
    )
    return Discovery(tuple(run.specs), tuple(run.problems), locations, tuple(projects))

"""Each finding's SARIF locations, worked out once per server: source witnesses (code), the line
and column of its JSON path in the catalog or client config that was read, the code's
registration of the tool, or — with no file at all — the server itself.

Every result gets at least one physical location: GitHub rejects a whole upload when one result
has only logical locations.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from toolwitness.acquire.json_positions import PathKey
from toolwitness.acquire.limits import InputLimits
from toolwitness.findings import Finding, Witness
from toolwitness.model import Coverage, ServerSurface
from toolwitness.report.sarif_anchors import (
    catalog_path,
    catalog_tool_paths,
    config_path,
    node_at,
    parse_location,
)
from toolwitness.report.sarif_artifacts import ArtifactIndex
from toolwitness.report.sarif_documents import FILE_START, JsonDocument, Region
from toolwitness.result import ServerResult

MAX_LOCATIONS = 10  # GitHub: "up to a maximum of 10"; only the first is annotated
_CODE_LOCATION = re.compile(r"code:(.+?)(?::(\d+))?")

Location = Callable[[], dict[str, Any]]  # built after every document knows what is wanted


def split_origin(origin: str) -> tuple[str | None, str | None]:
    """`<config file> at <JSON path>` (how a config entry names its origin) → (file, path).
    The file is the first prefix that is one, so a ' at ' inside a name does not split it."""
    start = 0
    while (cut := origin.find(" at ", start)) >= 0:
        if os.path.isfile(origin[:cut]):
            return origin[:cut], origin[cut + 4 :]
        start = cut + 1
    return (origin, None) if os.path.isfile(origin) else (None, None)


def server_file(surface: ServerSurface) -> tuple[str | None, PathKey | None]:
    """The file a server was read from, and for a config entry its JSON path in that file."""
    if not surface.source:
        return None, None
    if Coverage.CONFIG not in surface.coverage and os.path.isfile(surface.source):
        return surface.source, None  # a catalog or snapshot
    # A config entry, scanned statically or connected live: its place in the client config.
    file, where = split_origin(surface.source)
    return file, (parse_location(where or "$") if file is not None else None)


def _physical(artifact: dict[str, Any], region: dict[str, int]) -> dict[str, Any]:
    return {"physicalLocation": {"artifactLocation": artifact, "region": region}}


def _source_region(line: int, column: int | None, symbol: str | None) -> dict[str, int]:
    region = {"startLine": line}
    if column is not None:
        region["startColumn"] = column + 1
    region["endLine"] = line
    if column is not None and symbol and not any(c.isspace() for c in symbol):
        region["endColumn"] = column + 1 + len(symbol)  # the IR's symbol is the source text
    return region


class Locator:
    """Shared by every server of one report: artifacts and documents are resolved once."""

    def __init__(self, index: ArtifactIndex, limits: InputLimits) -> None:
        self.index = index
        self.limits = limits
        self._documents: dict[str, JsonDocument] = {}

    def document(self, path: str) -> JsonDocument:
        key = os.path.realpath(path)
        doc = self._documents.get(key)
        if doc is None:
            doc = self._documents[key] = JsonDocument.read(Path(path), self.limits)
        return doc

    def server(self, server: ServerResult) -> ServerLocator:
        return ServerLocator(self, server)


class ServerLocator:
    def __init__(self, locator: Locator, server: ServerResult) -> None:
        self.index = locator.index
        self.server = server
        surface = server.surface
        self.code_root = surface.source_root
        self.code_label = f"the code of server {self.index.scrub(server.id)}"
        self.file, self.entry = server_file(surface)
        self.doc: JsonDocument | None = None
        self.tool_paths: list[PathKey] = []
        self.registrations = {t.name: t.registration for t in server.tools if t.registration}
        # A server-level finding on code with no file of its own: the code's first registration.
        self.first_registration = min(
            self.registrations.values(), key=lambda w: (w.file or "", w.line or 0), default=None
        )
        if self.file is not None:
            self.doc = locator.document(self.file)
            self._check_unchanged(self.entry is not None)

    def _check_unchanged(self, config: bool) -> None:
        """Positions only from the file as it was scanned: same tools, or the entry still there."""
        doc = self.doc
        if doc is None or not doc.readable:
            return
        if config:
            found, node = node_at(doc.value, self.entry or ())
            if self.entry is None or not found or not isinstance(node, dict):
                doc.forget()
            return
        self.tool_paths = catalog_tool_paths(doc.value)
        names = []
        for path in self.tool_paths:
            found, tool = node_at(doc.value, path)
            names.append(tool.get("name") if found and isinstance(tool, dict) else None)
        if names != [t.name for t in self.server.surface.tools]:
            doc.forget()

    # --- one finding -------------------------------------------------------------------------
    def locations(self, finding: Finding) -> list[Location]:
        sources = [w for w in finding.witnesses if w.file and w.line]
        if sources:
            return [self._witness(w) for w in sources[:MAX_LOCATIONS]]
        code = _CODE_LOCATION.fullmatch(finding.location)
        if code is not None:
            line = int(code.group(2)) if code.group(2) else 1
            return [self._witness(Witness(kind="source", file=code.group(1), line=line))]
        registration = self.registrations.get(finding.tool or "") or self.first_registration
        if self.doc is None and registration is not None:
            return [self._witness(registration)]
        return [self._json(finding)]

    def _witness(self, w: Witness) -> Location:
        assert w.file is not None and w.line is not None
        artifact = self.index.file(w.file, self.code_root, self.code_label)
        region = _source_region(w.line, w.column, w.symbol)
        return lambda: _physical(artifact, region)

    def _json(self, finding: Finding) -> Location:
        if self.file is None:
            artifact = self.index.server(self.server.id)
            return lambda: _physical(artifact, FILE_START.to_json())
        artifact = self.index.file(self.file)
        doc = self.doc
        path = self._document_path(finding)
        if doc is None or path is None or not doc.readable:
            return lambda: _physical(artifact, FILE_START.to_json())
        doc.want(path)

        def build() -> dict[str, Any]:
            region: Region = doc.region(path)
            return _physical(artifact, region.to_json())

        return build

    def _document_path(self, finding: Finding) -> PathKey | None:
        doc = self.doc
        location = parse_location(finding.location)
        if doc is None or doc.value is None or location is None:
            return None
        if self.entry is not None:
            package = self.server.surface.package
            spec = (package.spec or package.name) if package is not None else None
            return config_path(doc.value, self.entry, location, spec)
        return catalog_path(doc.value, self.tool_paths, location)

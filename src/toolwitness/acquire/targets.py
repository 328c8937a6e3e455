"""What a scan target is: a tools catalog, a client config, or a directory of catalogs.

`resolve_targets` returns catalogs as surfaces and client-config entries as `ServerSpec`s, kept
apart so a live stage can connect the specs; `static_surfaces` turns specs into config-only
surfaces (coverage `config`, transport and package set, nothing listed) for the static checks.
The client-config machinery (`acquire.configs`: client tables, discovery) loads only when a
file is a client config.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from toolwitness.acquire.catalog import load_catalog_targets, surface_from_document
from toolwitness.acquire.config_formats import detect_format
from toolwitness.acquire.config_syntax import parse_config_bytes, read_bounded, syntax_for
from toolwitness.acquire.hostile_json import parse_json_bytes
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import InputError
from toolwitness.files import check_regular
from toolwitness.model import Coverage, ServerSpec, ServerSurface
from toolwitness.plainclass import plainclass

STATIC_NOTE = (
    "static scan of a client-config entry: the server was not started and nothing was listed"
    " (its tools, prompts and resources are unknown); connect it to list them"
)
OFFLINE_NOTE = (
    "offline: registry checks skipped (install scripts, repository, licence, publish age,"
    " version exists); pass --online to run them"
)
DISABLED_NOTE = "the client config switches this server off"
ONLINE_SKIPS = {
    "pypi": "online: PyPI publish age not checked (pip reports no upload times)",
    "docker": "online: registry checks cover npm and PyPI only; this image was not looked up",
}


@plainclass(frozen=True)
class ResolvedTargets:
    catalogs: tuple[ServerSurface, ...]
    specs: tuple[ServerSpec, ...]

    def surfaces(self, *, online: bool = False) -> list[ServerSurface]:
        return [*self.catalogs, *static_surfaces(self.specs, online=online)]


def resolve_targets(targets: Sequence[Path], limits: InputLimits | None = None) -> ResolvedTargets:
    limits = limits or InputLimits()
    catalogs: list[ServerSurface] = []
    specs: list[ServerSpec] = []
    for target in targets:
        if target.is_dir():
            catalogs.extend(load_catalog_targets([target], limits))
        elif target.is_file():
            found = _load_file(target, limits)
            if isinstance(found, ServerSurface):
                catalogs.append(found)
            else:
                specs.extend(found)
        else:  # missing, or a FIFO, device or socket: the reader names which
            check_regular(target)
    return ResolvedTargets(tuple(catalogs), tuple(specs))


def specs_from_config_document(
    doc: object, syntax: str, path: Path, limits: InputLimits
) -> list[ServerSpec] | None:
    """`configs.specs_from_config_document`, whose client tables and discovery load only for a
    document that is a client config: a tools catalog never needs them."""
    if detect_format(doc, syntax) is None:
        return None
    from toolwitness.acquire.configs import specs_from_config_document as specs_of

    return specs_of(doc, syntax, path, limits)


def _load_file(path: Path, limits: InputLimits) -> ServerSurface | list[ServerSpec]:
    source = str(path)
    syntax = syntax_for(path)
    data = read_bounded(path, limits)
    if syntax != "json":
        doc = parse_config_bytes(data, syntax, source, limits)
        specs = specs_from_config_document(doc, syntax, path, limits)
        if specs is None:
            raise InputError(f"not an MCP client config (read as {syntax})", source=source)
        return specs
    try:
        doc = parse_json_bytes(data, source, limits)
    except InputError as strict:
        if "not valid JSON" not in strict.reason:
            raise
        # Client configs (VS Code, Zed, opencode) allow comments; catalogs stay strict JSON.
        try:
            doc = parse_config_bytes(data, "jsonc", source, limits)
        except InputError:
            raise strict from None
        specs = specs_from_config_document(doc, "jsonc", path, limits)
        if specs is None:
            raise strict from None
        return specs
    specs = specs_from_config_document(doc, "json", path, limits)
    if specs is not None:
        return specs
    return surface_from_document(doc, server_id=path.stem, source=source, limits=limits)


def static_surfaces(specs: Sequence[ServerSpec], *, online: bool = False) -> list[ServerSurface]:
    """One config-only surface per spec; ids made distinct when two configs reuse a name."""
    ids = _distinct_ids(specs)
    out: list[ServerSurface] = []
    for spec, server_id in zip(specs, ids, strict=True):
        notes = [STATIC_NOTE]
        if spec.package is not None and not online:
            notes.append(OFFLINE_NOTE)
        elif spec.package is not None and spec.package.ecosystem in ONLINE_SKIPS:
            notes.append(ONLINE_SKIPS[spec.package.ecosystem])
        if not spec.enabled:
            notes.append(DISABLED_NOTE)
        out.append(
            ServerSurface(
                id=server_id,
                source=spec.origin,
                transport=spec.transport,
                package=spec.package,
                coverage=(Coverage.CONFIG,),
                notes=tuple(notes),
            )
        )
    return out


def _distinct_ids(specs: Sequence[ServerSpec]) -> list[str]:
    by_name: dict[str, int] = {}
    for spec in specs:
        by_name[spec.name] = by_name.get(spec.name, 0) + 1
    first = [s.name if by_name[s.name] == 1 else f"{s.name}@{s.client or 'config'}" for s in specs]
    counts: dict[str, int] = {}
    for candidate in first:
        counts[candidate] = counts.get(candidate, 0) + 1
    return [
        c if counts[c] == 1 else f"{s.name}@{s.origin}" for c, s in zip(first, specs, strict=True)
    ]

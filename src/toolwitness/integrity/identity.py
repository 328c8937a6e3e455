"""Who a server is, for the lockfile: the key its pin is stored under, never a file name alone.

A key comes from what identifies the server, in this order:

1. `--server-id ID`, given by the person running the scan or the gateway;
2. the server spec it was acquired from (a live scan or a snapshot of one): the client config
   entry's name, or for a server given on the command line the name derived from its launch
   spec (its package, its URL's host and path, or its command);
3. the `serverInfo.name` the server reports;
4. the server id a catalog document names (`{"id": ..., "tools": [...]}`).

A bare tools list saved to a file has none of these: its scan id is the file's name, and a
renamed copy would otherwise pass as a different, unpinned server. Such a surface has no key
until `--server-id` gives it one. Unpinned surfaces are compared with every pinned entry, so a
renamed or re-labelled copy of a pinned server is named (`Resemblance`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import PurePath

from toolwitness.integrity.canonical import digest_surface
from toolwitness.integrity.lock import Lockfile
from toolwitness.model import ServerSurface

SERVER_ID = "server-id"
SPEC = "spec"
SERVER_INFO = "serverInfo"
DOCUMENT = "document"
MAX_RESEMBLANCES = 3


@dataclass(frozen=True)
class Identity:
    key: str
    source: str  # server-id | spec | serverInfo | document


def _file_derived(surface: ServerSurface) -> set[str]:
    """The ids a catalog loader gives a file that names no server: its stem, or stem@path."""
    if surface.source is None:
        return set()
    stem = PurePath(surface.source).stem
    return {stem, f"{stem}@{surface.source}"}


def identify(surface: ServerSurface, explicit: str | None = None) -> Identity | None:
    """The lock key of `surface`, or None when nothing but a file name identifies it."""
    if explicit is not None:
        return Identity(explicit, SERVER_ID)
    if surface.transport is not None and surface.transport.kind != "file":
        return Identity(surface.id, SPEC)
    name = (surface.server_info or {}).get("name")
    if isinstance(name, str) and name.strip():
        return Identity(name, SERVER_INFO)
    if surface.id and surface.id not in _file_derived(surface):
        suffix = f"@{surface.source}"
        key = surface.id.removesuffix(suffix) if surface.source else surface.id
        return Identity(key or surface.id, DOCUMENT)
    return None


@dataclass(frozen=True)
class Resemblance:
    """A pinned entry an unpinned surface looks like."""

    key: str
    same_surface: bool
    shared_tools: int
    identical_tools: int
    pinned_tools: int

    def describe(self) -> str:
        if self.same_surface:
            return "the same surface digest"
        return (
            f"{self.shared_tools} of its {self.pinned_tools} pinned tool name(s),"
            f" {self.identical_tools} identical"
        )


def resemblances(
    surface: ServerSurface, lock: Lockfile, exclude: str | None = None
) -> list[Resemblance]:
    """Pinned entries that match `surface` by surface digest, or share at least half of the
    larger tool set's names (a renamed copy, a re-labelled server); best first, at most 3."""
    digests = digest_surface(surface)
    current = {t.name: t.digest for t in digests.tools}
    found: list[Resemblance] = []
    for key, entry in lock.servers.items():
        if key == exclude:
            continue
        shared = [name for name in entry.tools if name in current]
        same = entry.surface == digests.surface
        if not same and (not shared or 2 * len(shared) < max(len(current), len(entry.tools))):
            continue
        identical = sum(1 for name in shared if entry.tools[name].digest == current[name])
        found.append(Resemblance(key, same, len(shared), identical, len(entry.tools)))
    found.sort(key=lambda r: (not r.same_surface, -r.identical_tools, -r.shared_tools, r.key))
    return found[:MAX_RESEMBLANCES]

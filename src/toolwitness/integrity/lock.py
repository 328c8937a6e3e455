"""The lockfile `toolwitness.lock`: per server id, the digests and policy hints that were approved.

It holds digests, tool names, hint booleans, and the package name and version. It never holds
description text, schema bodies or any other text a server wrote, so reading a lock leaks nothing
and a poisoned description cannot ride along in a code review. Keys are server ids, so two servers
with same-named tools never collide.

Layout: sorted JSON, one line per tool, so a re-pin shows up in review as one changed line per
changed tool. Reading it is hostile-input parsing like any other file: strict JSON, bounded,
validated field by field.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from toolwitness import paths
from toolwitness.acquire.hostile_json import parse_json_bytes
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import InputError, UsageError
from toolwitness.files import read_regular
from toolwitness.integrity.canonical import HASHED_FIELDS, digest, digest_surface
from toolwitness.model import POLICY_HINTS, ServerSurface, Transport

LOCK_SCHEMA = "toolwitness.lock/1"
DEFAULT_LOCK_NAME = "toolwitness.lock"

Digest = Annotated[str, StringConstraints(pattern=r"^sha256:[0-9a-f]{64}$")]
Name = Annotated[str, StringConstraints(min_length=1)]  # lengths are bounded by the parser


class _Strict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class LockedTool(_Strict):
    digest: Digest
    fields: dict[str, Digest]
    hints: dict[str, bool] = Field(default_factory=dict)  # only hints that were set

    def hint(self, name: str) -> bool | None:
        return self.hints.get(name)


class LockedPackage(_Strict):
    ecosystem: Name
    name: Name
    version: Name | None = None


class LockedServer(_Strict):
    surface: Digest
    tools: dict[Name, LockedTool]
    spawn: Digest | None = None
    instructions: Digest | None = None
    package: LockedPackage | None = None


class Lockfile(_Strict):
    model_config = ConfigDict(frozen=True, extra="forbid", strict=True, populate_by_name=True)

    schema_: str = Field(alias="schema", default=LOCK_SCHEMA)
    servers: dict[Name, LockedServer] = Field(default_factory=dict)

    def entry(self, server_id: str) -> LockedServer | None:
        return self.servers.get(server_id)

    def with_entries(self, entries: dict[str, LockedServer]) -> Lockfile:
        return Lockfile(servers={**self.servers, **entries})


def spawn_digest(transport: Transport | None) -> str | None:
    """What was started or contacted; env and header values may be secrets, so only keys count."""
    if transport is None or transport.kind == "file":
        return None
    return digest(
        {
            "kind": transport.kind,
            "command": transport.command,
            "args": list(transport.args),
            "env": sorted(transport.env),
            "cwd": transport.cwd,
            "url": transport.url,
            "headers": sorted(transport.headers),
        }
    )


def entry_for(surface: ServerSurface) -> LockedServer:
    """The lock entry that pins `surface` as it is now."""
    digests = digest_surface(surface)
    tools: dict[str, LockedTool] = {}
    for tool, tool_digest in zip(surface.tools, digests.tools, strict=True):
        hints = {h: v for h in POLICY_HINTS if (v := tool.hint(h)) is not None}
        tools[tool.name] = LockedTool(
            digest=tool_digest.digest, fields=tool_digest.fields, hints=hints
        )
    package = None
    if surface.package is not None:
        package = LockedPackage(
            ecosystem=surface.package.ecosystem,
            name=surface.package.name,
            version=surface.package.version,
        )
    return LockedServer(
        surface=digests.surface,
        tools=tools,
        spawn=spawn_digest(surface.transport),
        instructions=None if surface.instructions is None else digest(surface.instructions),
        package=package,
    )


# --- reading -----------------------------------------------------------------------------------


def parse_lock(data: bytes, source: str, limits: InputLimits | None = None) -> Lockfile:
    doc = parse_json_bytes(data, source, limits or InputLimits())
    if not isinstance(doc, dict):
        raise InputError("a lockfile must be a JSON object", source=source)
    if doc.get("schema") != LOCK_SCHEMA:
        raise InputError(
            f"not a toolwitness lockfile (expected schema {LOCK_SCHEMA!r})", source=source
        )
    try:
        lock = Lockfile.model_validate(doc)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = paths.join(str(p) if not isinstance(p, int) else p for p in first["loc"])
        raise InputError(f"invalid lockfile: {first['msg']}", source=source, path=where) from None
    for server_id, server in lock.servers.items():
        for name, tool in server.tools.items():
            where = paths.join(("servers", server_id, "tools", name))
            unknown = sorted(set(tool.fields) - set(HASHED_FIELDS))
            if unknown or set(tool.fields) != set(HASHED_FIELDS):
                raise InputError(
                    f"invalid lockfile: fields must be exactly {', '.join(HASHED_FIELDS)}",
                    source=source,
                    path=where,
                )
            if set(tool.hints) - set(POLICY_HINTS):
                raise InputError(
                    f"invalid lockfile: hints may only be {', '.join(POLICY_HINTS)}",
                    source=source,
                    path=where,
                )
    return lock


def read_lock(
    path: Path, limits: InputLimits | None = None, *, missing_ok: bool = True
) -> Lockfile:
    """Read and validate a lockfile; a missing file is an empty lock when `missing_ok`."""
    limits = limits or InputLimits()
    if missing_ok and not os.path.lexists(path):
        return Lockfile()
    data = read_regular(path, limits.max_file_bytes, what="lockfile")
    return parse_lock(data, str(path), limits)


# --- writing -----------------------------------------------------------------------------------


def _line(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=True, separators=(", ", ": "))


def render_lock(lock: Lockfile) -> str:
    """Sorted JSON, one line per tool (and per server-level fact): clean review diffs."""
    out = ["{", f'  "schema": {_line(LOCK_SCHEMA)},', '  "servers": {']
    server_ids = sorted(lock.servers)
    for s_index, server_id in enumerate(server_ids):
        server = lock.servers[server_id]
        out.append(f"    {_line(server_id)}: {{")
        facts = {
            "instructions": server.instructions,
            "package": None if server.package is None else server.package.model_dump(),
            "spawn": server.spawn,
            "surface": server.surface,
        }
        out.extend(f"      {_line(key)}: {_line(value)}," for key, value in facts.items())
        out.append('      "tools": {')
        names = sorted(server.tools)
        for t_index, name in enumerate(names):
            comma = "," if t_index < len(names) - 1 else ""
            out.append(f"        {_line(name)}: {_line(server.tools[name].model_dump())}{comma}")
        out.append("      }")
        out.append("    }" + ("," if s_index < len(server_ids) - 1 else ""))
    out += ["  }", "}"]
    return "\n".join(out) + "\n"


def write_lock(path: Path, lock: Lockfile) -> None:
    """Replace the lockfile atomically: a reader never sees half a lock."""
    text = render_lock(lock)
    folder = path.resolve().parent
    try:
        fd, tmp = tempfile.mkstemp(prefix=".toolwitness-lock-", dir=folder)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(text)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, path)
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None

"""The sandbox boundary as data (`data/sandbox.yaml`, schema `sandbox.schema.json`), loaded once."""

from __future__ import annotations

import errno
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from toolwitness.datafiles import data_files
from toolwitness.errors import InternalError
from toolwitness.yamlload import load_yaml


@dataclass(frozen=True)
class DeniedCall:
    name: str
    errno: int
    why: str


@dataclass(frozen=True)
class SandboxPolicy:
    system_paths: tuple[str, ...]
    etc_entries: tuple[str, ...]
    etc_masked: tuple[str, ...]
    home_secrets: tuple[str, ...]
    host_secrets: tuple[str, ...]
    socket_walk_entries: int
    socket_families: dict[str, int]
    clone_namespace_flags: int
    denied: tuple[DeniedCall, ...]
    numbers: dict[str, dict[str, int]]  # architecture -> syscall name -> number


def _strings(doc: dict[str, Any], key: str) -> tuple[str, ...]:
    value = doc.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise InternalError(f"data/sandbox.yaml: {key} must be a list of non-empty strings")
    return tuple(value)


def _denied(items: Any) -> tuple[DeniedCall, ...]:
    out: list[DeniedCall] = []
    for item in items if isinstance(items, list) else []:
        code = getattr(errno, str(item.get("errno")), None) if isinstance(item, dict) else None
        if not isinstance(code, int) or not isinstance(item.get("name"), str):
            raise InternalError(f"data/sandbox.yaml: bad seccomp.denied entry {item!r}")
        out.append(DeniedCall(item["name"], code, str(item.get("why", ""))))
    if not out:
        raise InternalError("data/sandbox.yaml: seccomp.denied is empty")
    return tuple(out)


@lru_cache(maxsize=1)
def sandbox_policy() -> SandboxPolicy:
    text = data_files().joinpath("sandbox.yaml").read_text("utf-8")
    doc = load_yaml(text)
    if not isinstance(doc, dict) or not isinstance(doc.get("seccomp"), dict):
        raise InternalError("data/sandbox.yaml: not a mapping with a seccomp section")
    seccomp = doc["seccomp"]
    denied = _denied(seccomp.get("denied"))
    numbers = seccomp.get("numbers")
    needed = {d.name for d in denied} | {"socket", "clone"}
    if not isinstance(numbers, dict) or not numbers:
        raise InternalError("data/sandbox.yaml: seccomp.numbers is missing")
    for arch, table in numbers.items():
        missing = needed - set(table if isinstance(table, dict) else ())
        if missing:
            raise InternalError(f"data/sandbox.yaml: {arch} lacks numbers for {sorted(missing)}")
    families = seccomp.get("socket_families")
    flags = seccomp.get("clone_namespace_flags")
    walk = doc.get("socket_walk_entries")
    if not isinstance(families, dict) or not isinstance(flags, int) or not isinstance(walk, int):
        raise InternalError("data/sandbox.yaml: socket_families, clone flags or walk bound")
    return SandboxPolicy(
        system_paths=_strings(doc, "system_paths"),
        etc_entries=_strings(doc, "etc_entries"),
        etc_masked=_strings(doc, "etc_masked"),
        home_secrets=_strings(doc, "home_secrets"),
        host_secrets=_strings(doc, "host_secrets"),
        socket_walk_entries=walk,
        socket_families={str(k): int(v) for k, v in families.items()},
        clone_namespace_flags=flags,
        denied=denied,
        numbers={str(a): {str(k): int(v) for k, v in t.items()} for a, t in numbers.items()},
    )

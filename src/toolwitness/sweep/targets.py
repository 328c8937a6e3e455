"""The sweep LIST: one target per line (text) or a JSON array of strings.

A target is `npm:NAME@VERSION`, `pypi:NAME==VERSION`, a local archive (.tgz/.tar.gz/.tar/.whl/.zip)
or a local source directory. Local paths are resolved against the list file's directory. The
list is hostile input: its size, line length and target count are bounded, control characters
are refused, and every package spec is checked by the same parser `toolwitness code` uses (no
option smuggling onto npm/pip command lines). A target named twice is swept once.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from toolwitness.acquire.hostile_json import parse_json_bytes
from toolwitness.acquire.limits import InputLimits
from toolwitness.acquire.package import parse_package_spec
from toolwitness.errors import InputError
from toolwitness.files import read_regular

MAX_LIST_BYTES = 16 * 1024 * 1024
MAX_TARGETS = 200_000
MAX_TARGET_CHARS = 1_000
ARCHIVE_SUFFIXES = (".tgz", ".tar.gz", ".tar", ".whl", ".zip")


@dataclass(frozen=True)
class Target:
    """`key` names the target in results (the spec, or the path as the list wrote it)."""

    key: str
    kind: str  # npm | pypi | archive | directory
    location: str  # the package spec, or the absolute local path

    def as_json(self) -> dict[str, str]:
        return {"key": self.key, "kind": self.kind, "location": self.location}

    @classmethod
    def from_json(cls, data: dict[str, str]) -> Target:
        return cls(data["key"], data["kind"], data["location"])


def parse_target(text: str, base: Path, source: str = "target list") -> Target:
    """One entry; `base` anchors relative local paths."""
    entry = text.strip()
    if not entry:
        raise InputError("empty target", source=source)
    if len(entry) > MAX_TARGET_CHARS:
        raise InputError(f"target longer than {MAX_TARGET_CHARS} characters", source=source)
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in entry):
        raise InputError("control character in a target", source=source)
    if entry.startswith(("npm:", "pypi:")):
        spec = parse_package_spec(entry)
        return Target(str(spec), spec.ecosystem, str(spec))
    if "://" in entry or entry.startswith("-"):
        raise InputError(f"{entry!r}: not a package spec or a local path", source=source)
    path = Path(entry)  # no `~` expansion: a list is data, paths are relative to it
    path = path if path.is_absolute() else base / path
    try:
        if path.is_dir():
            return Target(entry, "directory", str(path.resolve()))
        if path.name.endswith(ARCHIVE_SUFFIXES):
            # A missing archive is the target's own failure (DOWNLOAD_FAILED), not the list's.
            return Target(entry, "archive", str(path.resolve() if path.exists() else path))
    except (OSError, RuntimeError) as exc:  # a name too long, a symlink loop
        raise InputError(f"{entry!r}: unusable path ({exc})", source=source) from None
    raise InputError(
        f"{entry!r}: expected npm:NAME@VERSION, pypi:NAME==VERSION, an archive or a directory",
        source=source,
    )


def _entries(data: bytes, source: str) -> list[str]:
    if data.lstrip()[:1] == b"[":
        doc = parse_json_bytes(data, source, InputLimits(max_file_bytes=MAX_LIST_BYTES))
        if not isinstance(doc, list) or not all(isinstance(item, str) for item in doc):
            raise InputError("a JSON target list must be an array of strings", source=source)
        return list(doc)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 (byte {exc.start})", source=source) from None
    lines = [line.strip() for line in text.splitlines()]
    return [line for line in lines if line and not line.startswith("#")]


def load_targets(path: Path) -> list[Target]:
    """The targets of a LIST file, in order, each once."""
    source = str(path)
    # Regular files only: a FIFO would block the open forever, /dev/zero would fill the bound.
    data = read_regular(path, MAX_LIST_BYTES, source=source, what="target list")
    entries = _entries(data, source)
    if len(entries) > MAX_TARGETS:
        raise InputError(f"more than {MAX_TARGETS} targets", source=source)
    targets: dict[str, Target] = {}
    base = path.resolve().parent
    for index, entry in enumerate(entries, 1):
        target = parse_target(entry, base, f"{source} (entry {index})")
        targets.setdefault(target.key, target)
    if not targets:
        raise InputError("the target list is empty", source=source)
    return list(targets.values())

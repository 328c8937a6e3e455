"""Filesystem witness: snapshot the lab's writable areas, diff two snapshots, self-test.

An entry is (type, size, mode, sha256, inode, mtime) per path, read with lstat (links are
never followed).
The walk is bounded in entries and hashed bytes: a server that floods the lab makes the
snapshot fail with a named reason (the probe is then ERRORED), never silently truncated.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass

from toolwitness.lab.sandbox import Lab

MAX_ENTRIES = 20000
MAX_HASH_BYTES = 256 * 1024 * 1024  # all files of one snapshot together
_EXCERPT_BYTES = 160


class WitnessFailed(Exception):
    """The instrument could not see (flooded, unreadable); the reason is the message."""


@dataclass(frozen=True)
class Entry:
    kind: str  # file | dir | link | other
    size: int
    mode: int
    digest: str  # sha256 of a file's bytes, a link's target, "" for dirs
    # Same bytes written back (git's index.lock + rename, a touch) still change these two.
    inode: int = 0
    mtime_ns: int = 0


Snapshot = dict[str, Entry]  # labelled path -> entry


@dataclass(frozen=True)
class Change:
    change: str  # created | modified | deleted
    path: str  # labelled (`~/.cache/log`)
    kind: str
    size: int
    excerpt: str | None = None  # the first bytes of a created or modified file
    digest: str = ""  # what the path holds after the change (sha256 of a file's bytes)

    def key(self) -> tuple[str, str, str]:
        """What the control subtraction compares: a path deleted, or written (created or
        modified: a write seen half done is both) and left holding the same bytes. A tool that
        writes into a file the server itself keeps, other bytes than the server's own, stays."""
        if self.change == "deleted":
            return "deleted", self.path, ""
        return "written", self.path, self.digest

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "change": self.change,
            "path": self.path,
            "type": self.kind,
            "size": self.size,
        }
        if self.excerpt is not None:
            out["excerpt"] = self.excerpt
        return out


def _hash_file(path: str, budget: list[int]) -> str:
    digest = hashlib.sha256()
    with open(path, "rb", buffering=0) as handle:
        while chunk := handle.read(1 << 20):
            budget[0] -= len(chunk)
            if budget[0] < 0:
                raise WitnessFailed(
                    f"the lab holds more than {MAX_HASH_BYTES // (1 << 20)} MiB of files "
                    "(flooded); the snapshot gave up"
                )
            digest.update(chunk)
    return digest.hexdigest()


def _entry(path: str, budget: list[int]) -> Entry:
    info = os.lstat(path)
    mode = stat.S_IMODE(info.st_mode)
    if stat.S_ISREG(info.st_mode):
        digest = _hash_file(path, budget)
        return Entry("file", info.st_size, mode, digest, info.st_ino, info.st_mtime_ns)
    if stat.S_ISDIR(info.st_mode):
        return Entry("dir", 0, mode, "")
    if stat.S_ISLNK(info.st_mode):
        target = os.readlink(path)
        digest = hashlib.sha256(target.encode()).hexdigest()
        return Entry("link", len(target), mode, digest, info.st_ino, info.st_mtime_ns)
    return Entry("other", 0, mode, "")


def snapshot(lab: Lab) -> Snapshot:
    """Every path under the witnessed areas (the area roots included), bounded."""
    out: Snapshot = {}
    budget = [MAX_HASH_BYTES]
    try:
        for label, area in lab.areas.items():
            root = str(area)
            out[label] = _entry(root, budget)
            for dirpath, dirnames, filenames in os.walk(root, onerror=_raise):
                dirnames.sort()
                for name in sorted((*dirnames, *filenames)):
                    full = os.path.join(dirpath, name)
                    out[label + full[len(root) :]] = _entry(full, budget)
                    if len(out) > MAX_ENTRIES:
                        raise WitnessFailed(
                            f"the lab grew past {MAX_ENTRIES} files and directories (flooded); "
                            "the snapshot gave up"
                        )
    except OSError as exc:
        raise WitnessFailed(f"cannot read the lab: {exc.strerror} ({exc.filename})") from None
    return out


def _raise(exc: OSError) -> None:
    raise exc


def _excerpt(lab: Lab, labelled: str) -> str | None:
    area, _, rest = labelled.partition("/")
    base = lab.areas.get(area)
    if base is None:
        return None
    try:
        with open(base / rest, "rb") as handle:
            head = handle.read(_EXCERPT_BYTES)
    except OSError:
        return None
    text = head.decode("utf-8", errors="replace")
    binary = text.count("\ufffd") > 2 or any(
        not c.isprintable() and c not in "\n\r\t" for c in text
    )
    return "hex:" + head[:48].hex() if binary else text


def diff(before: Snapshot, after: Snapshot, lab: Lab | None = None) -> list[Change]:
    """Creations, modifications (bytes, type or mode) and deletions, sorted by path."""
    changes: list[Change] = []
    for path in sorted(before.keys() | after.keys()):
        old, new = before.get(path), after.get(path)
        if old == new:
            continue
        if new is None:
            assert old is not None
            changes.append(Change("deleted", path, old.kind, old.size))
            continue
        if old is not None and old.kind == "dir" and new.kind == "dir" and old.mode == new.mode:
            continue  # a directory whose entries changed: the entries themselves are listed
        excerpt = _excerpt(lab, path) if lab is not None and new.kind == "file" else None
        change = "created" if old is None else "modified"
        changes.append(Change(change, path, new.kind, new.size, excerpt, new.digest))
    return changes

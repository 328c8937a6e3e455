"""Unpack a package archive (.tgz/.tar.gz/.tar, .whl/.zip) without trusting it.

The archive is read twice: a first pass validates every entry and counts every decompressed
byte without writing anything, and only an archive that passes is unpacked by a second pass
(which checks everything again). Refused, with an InputError naming the archive and the entry:

- absolute paths, drive letters, backslashes, NUL, `..` components, too long or too deep paths;
- devices, FIFOs, sockets and unknown entry types; links that point outside the archive
  (links inside it are skipped, never created: their targets are regular entries anyway);
- an entry or a path that appears twice, or a file where a directory is needed;
- more entries, more bytes per file or in total, or a higher compression ratio than the limits
  allow (counted while streaming, so a bomb trips the cap early instead of filling the disk);
- anything the decompressor or the tar/zip reader cannot read (malformed or truncated).

Files are written 0644 and directories 0755 whatever the archive says (no setuid, no exec).
"""

from __future__ import annotations

import gzip
import os
import shutil
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, BinaryIO

from toolwitness.acquire.archive_io import (
    ArchiveBudget,
    ArchiveLimits,
    ArchiveRefused,
    open_tar_stream,
)
from toolwitness.acquire.archive_io import refuse as _refuse
from toolwitness.errors import InputError

_CHUNK = 64 * 1024
_MAX_LINK_TARGET = 4096

__all__ = ["ArchiveLimits", "ArchiveRefused", "safe_parts", "unpack_archive"]


@dataclass(frozen=True)
class _Entry:
    name: str
    kind: str  # file | dir | symlink | hardlink
    size: int
    link: str | None
    open: Callable[[], IO[bytes]] | None


def safe_parts(name: str, archive: Path, limits: ArchiveLimits) -> tuple[str, ...]:
    """The path components of an entry name, or a refusal saying what is wrong with it."""
    if "\x00" in name:
        raise _refuse(archive, name, "NUL character in the entry name")
    if "\\" in name:
        raise _refuse(archive, name, "backslash in the entry name (a Windows path separator)")
    if len(name) > limits.max_path_chars:
        raise _refuse(archive, name, f"path longer than {limits.max_path_chars} characters")
    if name.startswith("/") or (len(name) > 1 and name[1] == ":" and name[0].isalpha()):
        raise _refuse(archive, name, "absolute path")
    parts = tuple(p for p in name.split("/") if p not in ("", "."))
    if ".." in parts:
        raise _refuse(archive, name, "'..' component: the path escapes the destination")
    if len(parts) > limits.max_depth:
        raise _refuse(archive, name, f"path deeper than {limits.max_depth} directories")
    if any(len(p.encode("utf-8", "surrogateescape")) > 255 for p in parts):
        raise _refuse(archive, name, "a path component longer than 255 bytes")
    return parts


def _link_stays_inside(parts: tuple[str, ...], entry: _Entry) -> bool:
    target = entry.link or ""
    if not target or target.startswith("/") or "\x00" in target or "\\" in target:
        return False
    # A symlink resolves from its own directory; a tar hard link names an archive path.
    base = list(parts[:-1]) if entry.kind == "symlink" else []
    for part in target.split("/"):
        if part in ("", "."):
            continue
        if part == "..":
            if not base:
                return False
            base.pop()
        else:
            base.append(part)
    return bool(base)


def _tar_entries(archive: Path, budget: ArchiveBudget, limits: ArchiveLimits) -> Iterator[_Entry]:
    with archive.open("rb") as raw, open_tar_stream(raw, budget) as stream:
        tar = tarfile.open(fileobj=stream, mode="r|")  # noqa: SIM115 - closed with the stream
        for member in tar:
            if member.isreg():
                opener = _tar_opener(tar, member)
                yield _Entry(member.name, "file", member.size, None, opener)
            elif member.isdir():
                yield _Entry(member.name, "dir", 0, None, None)
            elif member.issym():
                yield _Entry(member.name, "symlink", 0, member.linkname, None)
            elif member.islnk():
                yield _Entry(member.name, "hardlink", 0, member.linkname, None)
            elif member.ischr() or member.isblk():
                raise _refuse(archive, member.name, "device file")
            elif member.isfifo():
                raise _refuse(archive, member.name, "FIFO (named pipe)")
            else:
                raise _refuse(archive, member.name, "unsupported tar entry type")


def _tar_opener(tar: tarfile.TarFile, member: tarfile.TarInfo) -> Callable[[], IO[bytes]]:
    def opener() -> IO[bytes]:
        handle = tar.extractfile(member)
        if handle is None:  # pragma: no cover - isreg() members always have data
            raise tarfile.ReadError("no data for a regular file")
        return handle

    return opener


def _zip_entries(archive: Path, budget: ArchiveBudget, limits: ArchiveLimits) -> Iterator[_Entry]:
    with zipfile.ZipFile(archive) as zf:
        infos = zf.infolist()
        if len(infos) > limits.max_files:
            raise _refuse(
                archive, None, f"{len(infos)} entries, over the limit of {limits.max_files}"
            )
        declared = sum(info.file_size for info in infos)
        if declared > limits.max_total_bytes:
            raise _refuse(
                archive, None, f"declares {declared} bytes, over {limits.max_total_bytes}"
            )
        for info in infos:
            mode = info.external_attr >> 16
            ratio_floor = max(info.compress_size, 1) * limits.max_ratio
            if info.file_size > limits.ratio_grace_bytes and info.file_size > ratio_floor:
                raise _refuse(archive, info.filename, "compression ratio over the limit (zip bomb)")
            if stat.S_ISLNK(mode):
                with zf.open(info) as handle:
                    target = handle.read(_MAX_LINK_TARGET + 1).decode("utf-8", "replace")
                yield _Entry(info.filename, "symlink", 0, target, None)
            elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
                raise _refuse(archive, info.filename, "device file")
            elif stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
                raise _refuse(archive, info.filename, "FIFO or socket")
            elif info.is_dir():
                yield _Entry(info.filename, "dir", 0, None, None)
            else:
                yield _Entry(info.filename, "file", info.file_size, None, _zip_opener(zf, info))


def _zip_opener(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> Callable[[], IO[bytes]]:
    return lambda: zf.open(info)


def _format(archive: Path) -> str:
    with archive.open("rb") as handle:
        head = handle.read(512)
    if head[:2] == b"\x1f\x8b":
        return "tar"  # gzip; the tar reader checks what is inside
    if head[:4] in (b"PK\x03\x04", b"PK\x05\x06"):
        return "zip"
    if len(head) >= 262 and head[257:262] == b"ustar":
        return "tar"
    raise _refuse(archive, None, "not a gzip/tar or zip archive (unknown or unsupported format)")


def _out_of_memory(exc: BaseException) -> bool:
    """tarfile reports a decompressor's failed allocation as a ReadError ("zlib error: Error -4
    … insufficient memory"); zlib may raise MemoryError underneath. Either is the memory limit,
    not a broken archive."""
    seen: BaseException | None = exc
    for _ in range(8):  # a bounded walk of the cause/context chain
        if seen is None:
            return False
        if isinstance(seen, MemoryError) or "insufficient memory" in str(seen).lower():
            return True
        if "error -4" in str(seen).lower():  # Z_MEM_ERROR
            return True
        seen = seen.__cause__ or seen.__context__
    return False


@contextmanager
def _readable(archive: Path) -> Iterator[None]:
    """Turn every way a reader can choke on a broken archive into one clear refusal."""
    try:
        yield
    except ArchiveRefused:
        raise
    except (tarfile.TarError, zipfile.BadZipFile, gzip.BadGzipFile, zlib.error, EOFError) as exc:
        if _out_of_memory(exc):  # the decompressor could not allocate: the archive may be fine
            raise MemoryError(f"out of memory while reading {archive.name}") from None
        raise _refuse(
            archive, None, f"malformed or truncated archive ({type(exc).__name__})"
        ) from None
    except (RuntimeError, NotImplementedError, ValueError) as exc:  # encrypted or exotic zip
        raise _refuse(archive, None, f"unreadable entry ({exc})") from None


def _copy(entry: _Entry, out: BinaryIO | None, budget: ArchiveBudget, archive: Path) -> None:
    assert entry.open is not None
    written = 0
    with entry.open() as handle:
        while chunk := handle.read(_CHUNK):
            written += len(chunk)
            if written > budget.limits.max_file_bytes:
                raise _refuse(
                    archive, entry.name, f"file over {budget.limits.max_file_bytes} bytes"
                )
            budget.add_content(len(chunk), entry.name)
            if out is not None:
                out.write(chunk)


def _walk(archive: Path, dest: Path | None, limits: ArchiveLimits) -> list[str]:
    """Validate every entry; with a destination, also write it. Returns the skipped links."""
    budget = ArchiveBudget(archive, limits, archive.stat().st_size)
    entries = _zip_entries if _format(archive) == "zip" else _tar_entries
    paths: dict[tuple[str, ...], str] = {}  # path → "file" | "dir"
    skipped: list[str] = []
    with _readable(archive):
        for entry in entries(archive, budget, limits):
            budget.add_entry(entry.name)
            parts = safe_parts(entry.name, archive, limits)
            if not parts:
                continue  # the archive root itself ("./")
            if entry.kind in ("symlink", "hardlink"):
                if not _link_stays_inside(parts, entry):
                    raise _refuse(archive, entry.name, f"{entry.kind} points outside the archive")
                skipped.append("/".join(parts))
                continue
            _claim(paths, parts, entry, archive)
            if entry.kind == "file" and entry.size > limits.max_file_bytes:
                raise _refuse(archive, entry.name, f"file over {limits.max_file_bytes} bytes")
            if dest is None:
                if entry.kind == "file":
                    _copy(entry, None, budget, archive)
                continue
            _write(dest, parts, entry, budget, archive)
    return skipped


def _claim(
    paths: dict[tuple[str, ...], str], parts: tuple[str, ...], entry: _Entry, archive: Path
) -> None:
    """Record a path; refuse a second file at it, or a file where a directory is needed."""
    for depth in range(1, len(parts)):
        if paths.setdefault(parts[:depth], "dir") == "file":
            raise _refuse(archive, entry.name, "a parent directory is also a file entry")
    previous = paths.get(parts)
    if previous is not None and (entry.kind == "file" or previous == "file"):
        raise _refuse(archive, entry.name, "the same path appears twice")
    paths[parts] = entry.kind


def _write(
    dest: Path, parts: tuple[str, ...], entry: _Entry, budget: ArchiveBudget, archive: Path
) -> None:
    target = dest.joinpath(*parts)
    try:
        if entry.kind == "dir":
            target.mkdir(mode=0o755, parents=True, exist_ok=True)
            return
        target.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        with os.fdopen(os.open(target, flags, 0o644), "wb") as out:
            _copy(entry, out, budget, archive)
    except (FileExistsError, NotADirectoryError, IsADirectoryError):
        raise _refuse(
            archive, entry.name, "conflicts with another entry (file vs directory)"
        ) from None


def unpack_archive(path: Path, dest: Path, limits: ArchiveLimits | None = None) -> Path:
    """Validate `path` completely, then unpack it into `dest` (created; must be empty)."""
    limits = limits or ArchiveLimits()
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise InputError(f"cannot read archive: {exc.strerror}", source=str(path)) from None
    if size > limits.max_archive_bytes:
        raise _refuse(path, None, f"archive of {size} bytes, over {limits.max_archive_bytes}")
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise InputError("destination exists and is not an empty directory", source=str(dest))
    _walk(path, None, limits)  # first pass: nothing is written unless everything passes
    dest.mkdir(parents=True, exist_ok=True)
    try:
        _walk(path, dest, limits)
    except BaseException:
        shutil.rmtree(dest, ignore_errors=True)  # never leave half an archive behind
        raise
    return dest

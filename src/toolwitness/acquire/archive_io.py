"""Limits, refusals and byte metering for unpacking untrusted archives (see archive.py)."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, cast

from toolwitness.errors import InputError
from toolwitness.textnorm import excerpt

MIB = 1024 * 1024


@dataclass(frozen=True)
class ArchiveLimits:
    max_archive_bytes: int = 100 * MIB  # the compressed file itself
    max_total_bytes: int = 200 * MIB  # every decompressed byte, tar headers included
    max_file_bytes: int = 50 * MIB
    max_files: int = 20_000  # entries of every kind
    max_ratio: int = 100  # decompressed / compressed, checked once past ratio_grace_bytes
    ratio_grace_bytes: int = 1 * MIB
    max_path_chars: int = 1024
    max_depth: int = 32


class ArchiveRefused(InputError):
    """An archive (or one of its entries) broke a safety rule; nothing was left unpacked."""


def refuse(archive: Path, entry: str | None, reason: str) -> ArchiveRefused:
    where = f"entry {excerpt(entry, 160)!r}: " if entry is not None else ""
    return ArchiveRefused(f"archive refused: {where}{reason}", source=str(archive))


class ArchiveBudget:
    """Counts entries and decompressed bytes against the limits, as they stream past."""

    def __init__(self, archive: Path, limits: ArchiveLimits, compressed_size: int) -> None:
        self.archive = archive
        self.limits = limits
        self.compressed_size = max(compressed_size, 1)
        self.entries = 0
        self.content_bytes = 0
        self.stream_bytes = 0

    def add_entry(self, name: str) -> None:
        self.entries += 1
        if self.entries > self.limits.max_files:
            raise refuse(self.archive, name, f"more than {self.limits.max_files} entries")

    def add_content(self, count: int, name: str) -> None:
        self.content_bytes += count
        self._check(self.content_bytes, self.compressed_size, name)

    def add_stream(self, count: int, compressed_read: int) -> None:
        self.stream_bytes += count
        self._check(self.stream_bytes, max(compressed_read, 1), None)

    def _check(self, produced: int, consumed: int, name: str | None) -> None:
        limits = self.limits
        if produced > limits.max_total_bytes:
            reason = f"more than {limits.max_total_bytes} bytes once decompressed"
            raise refuse(self.archive, name, reason)
        if produced > limits.ratio_grace_bytes and produced > consumed * limits.max_ratio:
            reason = f"compression ratio over {limits.max_ratio}:1 (a decompression bomb)"
            raise refuse(self.archive, name, reason)


class _CountingReader:
    """Counts the compressed bytes the decompressor has pulled from the file."""

    def __init__(self, raw: BinaryIO) -> None:
        self.raw = raw
        self.count = 0

    def read(self, size: int = -1) -> bytes:
        data = self.raw.read(size)
        self.count += len(data)
        return data


class _MeteredStream:
    """The decompressed byte stream, charged to the budget on every read."""

    def __init__(
        self, inner: BinaryIO | gzip.GzipFile, source: _CountingReader, budget: ArchiveBudget
    ) -> None:
        self.inner = inner
        self.source = source
        self.budget = budget

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            size = 1 * MIB  # never one unbounded read
        data = self.inner.read(size)
        self.budget.add_stream(len(data), self.source.count)
        return data


@contextmanager
def open_tar_stream(raw: BinaryIO, budget: ArchiveBudget) -> Iterator[BinaryIO]:
    """A metered, decompressed view of a .tar or .tar.gz file (multi-member gzip included)."""
    source = _CountingReader(raw)
    magic = raw.read(2)
    raw.seek(0)
    if magic == b"\x1f\x8b":
        with gzip.GzipFile(fileobj=cast(BinaryIO, source), mode="rb") as unzipped:
            yield cast(BinaryIO, _MeteredStream(unzipped, source, budget))
    else:
        yield cast(BinaryIO, _MeteredStream(cast(BinaryIO, source), source, budget))

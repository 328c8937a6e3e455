"""Hostile and well-formed archives built in memory by the tests (no fixtures on disk)."""

from __future__ import annotations

import gzip
import io
import tarfile
import zipfile
from collections.abc import Iterable
from pathlib import Path

MIB = 1024 * 1024


def member(
    name: str, kind: bytes = tarfile.REGTYPE, size: int = 0, link: str = ""
) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.size = size
    info.linkname = link
    info.mode = 0o644
    return info


def write_tgz(path: Path, members: Iterable[tuple[tarfile.TarInfo, bytes | None]]) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return path


def files_tgz(path: Path, files: dict[str, bytes]) -> Path:
    return write_tgz(path, [(member(n, size=len(d)), d) for n, d in files.items()])


def zeros_tgz(path: Path, file_count: int, file_bytes: int) -> Path:
    """A tar.gz holding `file_count` files of zeros, written as concatenated gzip members so a
    gigabyte of content costs about a megabyte on disk and a fraction of a second to build."""
    block = gzip.compress(bytes(MIB), compresslevel=9)
    assert file_bytes % MIB == 0
    with path.open("wb") as out:
        for index in range(file_count):
            header = member(f"package/zeros-{index}.bin", size=file_bytes).tobuf(tarfile.GNU_FORMAT)
            out.write(gzip.compress(header))
            for _ in range(file_bytes // MIB):
                out.write(block)
        out.write(gzip.compress(bytes(1024)))  # end-of-archive blocks
    return path


def many_empty_files_tar(count: int) -> bytes:
    """`count` empty-file tar headers, made by patching one template header (tarfile's own
    writer needs minutes for 100,000 entries on a loaded machine; this takes a second)."""
    template = bytearray(member("package/f" + "0" * 8).tobuf(tarfile.USTAR_FORMAT))
    digits_at = template.index(b"0" * 8)
    template[148:156] = b" " * 8  # the checksum is computed with its own field as spaces
    base = sum(template) - sum(b"0" * 8)
    out = bytearray()
    for index in range(count):
        digits = b"%08d" % index
        header = bytearray(template)
        header[digits_at : digits_at + 8] = digits
        header[148:156] = b"%06o\0 " % (base + sum(digits))
        out += header
    return bytes(out + bytes(1024))


def write_zip(
    path: Path, entries: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED
) -> Path:
    with zipfile.ZipFile(path, "w", compression) as zf:
        for name, data in entries.items():
            zf.writestr(zipfile.ZipInfo(name), data, compress_type=compression)
    return path

"""The one bounded reader for every file the CLI opens: regular files only, bounded while read.

A FIFO would block the open or the read forever, a device (`/dev/zero`, `/dev/urandom`) never
ends, and `stat().st_size` of either says nothing. So the file is opened non-blocking and without
following a final symlink blindly: the *opened descriptor* is checked with `fstat` (a symlink to a
regular file is fine; a symlink to a FIFO or device is refused exactly like the thing itself), and
the read stops one byte past the bound, so a file that grows after the check is still refused.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from toolwitness.errors import InputError

_CHUNK = 1 << 20
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _kind(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


def check_regular(
    path: Path, *, source: str | None = None, what: str = "file"
) -> os.stat_result:
    """Refuse anything but a regular file (following links), without opening it."""
    where = source if source is not None else str(path)
    try:
        info = path.stat()
    except FileNotFoundError:
        raise InputError(f"no such {what}", source=where) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", source=where) from None
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{what} is not a regular file ({_kind(info.st_mode)})", source=where)
    return info


def read_regular(
    path: Path, max_bytes: int, *, source: str | None = None, what: str = "file"
) -> bytes:
    """The bytes of `path`, or InputError (exit 2) naming why it was refused.

    `what` names the file in messages ("lockfile", "rule pack"). The bound is checked against
    the bytes actually read, never against `stat` alone.
    """
    where = source if source is not None else str(path)
    # Refuse a FIFO or device before opening it at all (opening some devices has effects); the
    # descriptor is checked again below, since the path may be swapped between the two.
    check_regular(path, source=where, what=what)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise InputError(f"no such {what}", source=where) from None
    except IsADirectoryError:
        raise InputError(f"{what} is a directory, not a regular file", source=where) from None
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", source=where) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise InputError(
                f"{what} is not a regular file ({_kind(info.st_mode)})", source=where
            )
        if info.st_size > max_bytes:
            raise InputError(
                f"{what} is {info.st_size} bytes, over the {max_bytes}-byte limit", source=where
            )
        chunks: list[bytes] = []
        total = 0
        while total <= max_bytes:
            chunk = os.read(fd, min(_CHUNK, max_bytes + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > max_bytes:
            raise InputError(f"{what} is over the {max_bytes}-byte limit", source=where)
        return b"".join(chunks)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", source=where) from None
    finally:
        os.close(fd)


def read_regular_text(
    path: Path, max_bytes: int, *, source: str | None = None, what: str = "file"
) -> str:
    """`read_regular`, decoded as UTF-8 (a BOM is dropped); invalid UTF-8 is an InputError."""
    where = source if source is not None else str(path)
    data = read_regular(path, max_bytes, source=where, what=what)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 (invalid byte at offset {exc.start})", source=where) from None

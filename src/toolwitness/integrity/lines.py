"""Bounded newline-delimited reading for the gateway: a line over the bound is skipped whole and
reported, never truncated and never buffered without limit."""

from __future__ import annotations

import io
from typing import IO, Final


class LineReader:
    OVERSIZE: Final = b"<oversize line>"  # returned by identity; a real line is another object
    _SKIP_CHUNK = 1 << 20

    def __init__(self, stream: IO[bytes], max_bytes: int) -> None:
        if isinstance(stream, io.RawIOBase):
            stream = io.BufferedReader(stream, 1 << 16)
        self._stream = stream
        self._max = max_bytes

    def next(self) -> bytes | None:
        """The next line (with its newline), `OVERSIZE`, or None at end of input."""
        line = self._stream.readline(self._max + 1)
        if not line:
            return None
        if len(line) > self._max and not line.endswith(b"\n"):
            while line and not line.endswith(b"\n"):
                line = self._stream.readline(self._SKIP_CHUNK)
            return self.OVERSIZE
        return line


def write_all(stream: IO[bytes], data: bytes) -> None:
    """Write every byte: a raw pipe may accept only part of a large message per call."""
    view = memoryview(data)
    while view:
        written = stream.write(view)
        if written is None:  # a non-blocking stream that is full; ours are blocking
            continue
        view = view[written:]

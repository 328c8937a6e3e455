"""The gateway's audit log: one JSON object per line, appended and flushed per record.

Records carry digests, states, tool names, field names and rule ids (names are JSON-escaped
ASCII). The gateway never passes description or schema text here. Reading a log back
(`toolwitness trust --audit`) treats it as hostile input: bounded, strict JSON per line.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from toolwitness.acquire.hostile_json import check_node_budget, parse_json_bytes
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import InputError, UsageError
from toolwitness.files import read_regular


class AuditLog:
    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        try:
            self._handle = path.open("a", encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"cannot open audit log {path}: {exc.strerror}") from None

    def write(self, record: dict[str, Any]) -> None:
        stamped = {"time": datetime.now(UTC).isoformat(timespec="milliseconds"), **record}
        line = json.dumps(stamped, sort_keys=True, ensure_ascii=True, separators=(",", ":"))
        with self._lock:
            self._handle.write(line + "\n")
            self._handle.flush()

    def close(self) -> None:
        with self._lock:
            self._handle.close()


def read_audit(path: Path, max_bytes: int) -> tuple[list[dict[str, Any]], list[str]]:
    """The records of an audit log, and notes on what was skipped. A malformed line is an
    InputError naming it; only an unterminated last line (a gateway killed mid-write) is
    skipped, and said so."""
    data = read_regular(path, max_bytes, what="audit log")
    limits = InputLimits(max_file_bytes=max_bytes, max_string_chars=max_bytes)
    # The records together are what is built: the whole log has one node budget, as one
    # document of its size would (64 MiB of `{"event":"a"}` lines cost 1.5 GB and 173 s).
    check_node_budget(data.decode("utf-8", "replace"), str(path), limits)
    records: list[dict[str, Any]] = []
    notes: list[str] = []
    for number, line, last in _lines(data):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            record = parse_json_bytes(line, where, limits)
        except InputError:
            if last:  # no newline after it: cut off while being written
                notes.append(f"{where}: an unfinished last record was skipped")
                continue
            raise
        if not isinstance(record, dict) or not isinstance(record.get("event"), str):
            raise InputError("not a gateway audit record", source=where)
        records.append(record)
    return records, notes


_RECORD_LINE = re.compile(rb"^[^\S\n]*+\S[^\n]*+", re.M)  # anchored: blank runs cost linear time


def _lines(data: bytes) -> Iterator[tuple[int, bytes, bool]]:
    """(line number, line, is the unterminated tail) of each non-blank line, without a list of
    every line (64 MiB of newlines would be 64 million empty bytes objects)."""
    number, counted = 1, 0
    for match in _RECORD_LINE.finditer(data):
        number += data.count(b"\n", counted, match.start())
        counted = match.start()
        yield number, match.group(), match.end() == len(data)

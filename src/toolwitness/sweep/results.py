"""The results file: one JSON record per line, appended as each target finishes.

Lines are compact JSON with sorted keys, so a record's bytes depend only on its content. A rerun
reads the file, skips every target already recorded and appends the rest; a last line cut off
by a killed run is dropped before appending. `--frozen OLD.jsonl` reads an earlier file's pins
(resolved version + artifact sha256) per target. Results files are read as hostile input: sizes,
line lengths and shapes are bounded and checked.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import IO, Any

from toolwitness.acquire.hostile_json import parse_json_text
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import InputError
from toolwitness.files import check_regular
from toolwitness.sweep.task import RECORD_SCHEMA, Pin

MAX_RESULTS_BYTES = 4 * 1024 * 1024 * 1024
MAX_LINE_BYTES = 64 * 1024 * 1024
_LINE_LIMITS = InputLimits(max_file_bytes=MAX_LINE_BYTES, max_string_chars=1_000_000)


def dumps_record(record: dict[str, Any]) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def _check_record(doc: Any, source: str) -> dict[str, Any]:
    if not isinstance(doc, dict) or doc.get("schema") != RECORD_SCHEMA:
        raise InputError(f"not a {RECORD_SCHEMA} record", source=source)
    if not isinstance(doc.get("target"), str) or not isinstance(doc.get("outcome"), str):
        raise InputError("a record without a target or an outcome", source=source)
    return doc


def read_records(path: Path, *, tolerate_torn_tail: bool = False) -> list[dict[str, Any]]:
    """Every record, in file order. A torn last line is an error unless tolerated (resume)."""
    size = check_regular(path, what="results file").st_size  # names a FIFO or device as such
    if size > MAX_RESULTS_BYTES:
        raise InputError(f"results file over {MAX_RESULTS_BYTES} bytes", source=str(path))
    records: list[dict[str, Any]] = []
    total = 0
    with path.open("rb") as handle:
        # Each line is read bounded: iterating the file would read a 2 GiB line without a newline
        # whole (4 GiB of memory) before its length could be checked.
        for number, raw in enumerate(iter(lambda: handle.readline(MAX_LINE_BYTES + 1), b""), 1):
            source = f"{path}:{number}"
            total += len(raw)
            if len(raw) > MAX_LINE_BYTES:
                raise InputError(f"line over {MAX_LINE_BYTES} bytes", source=source)
            if total > MAX_RESULTS_BYTES:  # it grew while read
                raise InputError(f"results file over {MAX_RESULTS_BYTES} bytes", source=str(path))
            if not raw.endswith(b"\n"):
                if tolerate_torn_tail:
                    break  # the run was killed while writing this line; it is redone
                raise InputError("the last line is incomplete", source=source)
            if not raw.strip():
                continue
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise InputError("not UTF-8", source=source) from None
            records.append(_check_record(parse_json_text(text, source, _LINE_LIMITS), source))
    return records


def frozen_pins(path: Path) -> dict[str, Pin]:
    """Target key → the pin its earlier run recorded. A target that had no artifact then (its
    download failed) gets an empty pin: it is retried as listed, there is nothing to hold it to."""
    pins: dict[str, Pin] = {}
    for record in read_records(path):
        artifact = record.get("artifact")
        package = record.get("package")
        sha256 = artifact.get("sha256") if isinstance(artifact, dict) else None
        version = package.get("version") if isinstance(package, dict) else None
        pins[record["target"]] = Pin(
            version if isinstance(version, str) else None,
            sha256 if isinstance(sha256, str) else None,
        )
    return pins


class ResultsWriter:
    """Appends records; `done` holds the targets already in the file when it was opened."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.done: set[str] = set()
        if path.exists():
            records = read_records(path, tolerate_torn_tail=True)
            self.done = {r["target"] for r in records}
            self._drop_torn_tail()
        try:
            self._handle: IO[str] = path.open("a", encoding="ascii", newline="\n")
        except OSError as exc:
            raise InputError(f"cannot write results: {exc.strerror}", source=str(path)) from None

    def _drop_torn_tail(self) -> None:
        with self.path.open("rb+") as handle:
            data_end = handle.seek(0, os.SEEK_END)
            if data_end == 0:
                return
            handle.seek(max(0, data_end - MAX_LINE_BYTES))
            tail = handle.read()
            if tail.endswith(b"\n"):
                return
            cut = tail.rfind(b"\n")
            handle.truncate(data_end - len(tail) + cut + 1)  # cut == -1: the whole tail

    def write(self, record: dict[str, Any]) -> None:
        self._handle.write(dumps_record(record) + "\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())
        self.done.add(record["target"])

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> ResultsWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

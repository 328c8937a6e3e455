"""The gateway's audit log: one JSON object per line, appended and flushed per record.

Records carry digests, states, tool names and field names (names are JSON-escaped ASCII). The
gateway never passes description or schema text here.
"""

from __future__ import annotations

import json
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from toolwitness.errors import UsageError


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

"""The outcome of one sweep target (a light module: pool workers import it, not the analysis)."""

from __future__ import annotations

ANALYSED = "ANALYSED"
NO_TOOLS_FOUND = "NO_TOOLS_FOUND"
NO_ENTRY = "NO_ENTRY"
DOWNLOAD_FAILED = "DOWNLOAD_FAILED"
UNANALYZABLE = "UNANALYZABLE"
TIMEOUT = "TIMEOUT"
ERROR = "ERROR"
OUTCOMES = (ANALYSED, NO_TOOLS_FOUND, NO_ENTRY, DOWNLOAD_FAILED, UNANALYZABLE, TIMEOUT, ERROR)

"""toolwitness: verify MCP servers; every finding names a concrete witness.

Library use::

    import toolwitness
    result = toolwitness.scan(["tools.json"])
"""

from toolwitness._version import __version__
from toolwitness.errors import (
    IncompleteScanError,
    InputError,
    InternalError,
    ToolwitnessError,
    UsageError,
)
from toolwitness.findings import Confidence, Finding, Severity, Witness
from toolwitness.model import ServerSurface, Tool
from toolwitness.pipeline import ScanOptions, exit_code, scan
from toolwitness.result import ScanResult, ServerResult, ToolResult

__all__ = [
    "Confidence",
    "Finding",
    "IncompleteScanError",
    "InputError",
    "InternalError",
    "ScanOptions",
    "ScanResult",
    "ServerResult",
    "ServerSurface",
    "Severity",
    "Tool",
    "ToolResult",
    "ToolwitnessError",
    "UsageError",
    "Witness",
    "__version__",
    "exit_code",
    "scan",
]

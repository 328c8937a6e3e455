"""toolwitness: verify MCP servers; every finding names a concrete witness.

Library use::

    import toolwitness
    result = toolwitness.scan(["tools.json"])
"""

from toolwitness._version import __version__
from toolwitness.acquire.live import LiveOptions, acquire_live
from toolwitness.errors import (
    IncompleteScanError,
    InputError,
    InternalError,
    ToolwitnessError,
    UsageError,
)
from toolwitness.findings import Confidence, Finding, Severity, Witness
from toolwitness.model import ServerSpec, ServerSurface, Tool, Transport
from toolwitness.pipeline import ScanOptions, exit_code, scan
from toolwitness.result import ScanResult, ServerResult, ToolResult

__all__ = [
    "Confidence",
    "Finding",
    "IncompleteScanError",
    "InputError",
    "InternalError",
    "LiveOptions",
    "ScanOptions",
    "ScanResult",
    "ServerResult",
    "ServerSpec",
    "ServerSurface",
    "Severity",
    "Tool",
    "ToolResult",
    "ToolwitnessError",
    "Transport",
    "UsageError",
    "Witness",
    "__version__",
    "acquire_live",
    "exit_code",
    "scan",
]

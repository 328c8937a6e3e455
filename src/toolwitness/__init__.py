"""toolwitness: verify MCP servers; every finding names a concrete witness.

Library use::

    import toolwitness
    result = toolwitness.scan(["tools.json"])
"""

from toolwitness._version import __version__
from toolwitness.acquire.configs import DiscoveryEnv, discover_specs
from toolwitness.acquire.live import LiveOptions, acquire_live
from toolwitness.acquire.targets import ResolvedTargets, resolve_targets
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
    "DiscoveryEnv",
    "Finding",
    "IncompleteScanError",
    "InputError",
    "InternalError",
    "LiveOptions",
    "ResolvedTargets",
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
    "discover_specs",
    "exit_code",
    "resolve_targets",
    "scan",
]

"""toolwitness: verify MCP servers; every finding names a concrete witness.

Library use::

    import toolwitness
    result = toolwitness.scan(["tools.json"])

Names are imported on first use (PEP 562), so `import toolwitness.x` stays cheap: the MCP SDK,
tree-sitter and the check modules load only when something needs them (the gateway starts fast).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from toolwitness._version import __version__

_EXPORTS: dict[str, str] = {
    "Confidence": "toolwitness.findings",
    "DiscoveryEnv": "toolwitness.acquire.configs",
    "Finding": "toolwitness.findings",
    "IncompleteScanError": "toolwitness.errors",
    "InputError": "toolwitness.errors",
    "InternalError": "toolwitness.errors",
    "LiveOptions": "toolwitness.acquire.live",
    "ResolvedTargets": "toolwitness.acquire.targets",
    "ScanOptions": "toolwitness.pipeline",
    "ScanResult": "toolwitness.result",
    "ServerResult": "toolwitness.result",
    "ServerSpec": "toolwitness.model",
    "ServerSurface": "toolwitness.model",
    "Severity": "toolwitness.findings",
    "Tool": "toolwitness.model",
    "ToolResult": "toolwitness.result",
    "ToolwitnessError": "toolwitness.errors",
    "Transport": "toolwitness.model",
    "UsageError": "toolwitness.errors",
    "Witness": "toolwitness.findings",
    "acquire_live": "toolwitness.acquire.live",
    "discover_specs": "toolwitness.acquire.configs",
    "exit_code": "toolwitness.pipeline",
    "finding_fingerprint": "toolwitness.finding_fingerprint",
    "resolve_targets": "toolwitness.acquire.targets",
    "scan": "toolwitness.pipeline",
}

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
    "finding_fingerprint",
    "resolve_targets",
    "scan",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'toolwitness' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:
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
    from toolwitness.finding_fingerprint import finding_fingerprint
    from toolwitness.findings import Confidence, Finding, Severity, Witness
    from toolwitness.model import ServerSpec, ServerSurface, Tool, Transport
    from toolwitness.pipeline import ScanOptions, exit_code, scan
    from toolwitness.result import ScanResult, ServerResult, ToolResult

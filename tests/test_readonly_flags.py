"""TW-CAP-015 for a switch that is on by default in a tool declared read-only and named for an
act that writes, sends, deletes or runs (`submit: true`, `rotate_after: true`): what every call
does unless the caller turns it off. Tools written for this test (after blind-2026-12-04i was
scored; it is development data now)."""

from __future__ import annotations

from typing import Any

import pytest

from toolwitness.model import ServerSurface, Tool
from toolwitness.pipeline import ScanOptions, scan_surfaces


def _cap015(flag: str, value: Any, read_only: bool = True, description: str = "") -> str | None:
    tool = Tool(name="preview_order", description="Preview an order; nothing is changed.",
                inputSchema={"type": "object", "properties": {
                    "order_id": {"type": "string"},
                    flag: {"type": "boolean", "default": value, "description": description}}},
                annotations={"readOnlyHint": read_only})  # fmt: skip
    result = scan_surfaces([ServerSurface(id="s", tools=(tool,))], ScanOptions())
    found = [f for f in result.servers[0].findings if f.rule_id == "TW-CAP-015"]
    return found[0].message if found else None


@pytest.mark.parametrize("flag", ["submit", "send_copy", "delete_after", "rotate_after",
                                  "notify_owner", "overwrite"])  # fmt: skip
def test_an_acting_switch_on_by_default_is_flagged(flag: str) -> None:
    message = _cap015(flag, True)
    assert message is not None and f"'{flag}' is on by default" in message


@pytest.mark.parametrize(
    ("flag", "value", "read_only"),
    [
        ("submit", False, True),  # off unless asked
        ("include_deleted", True, True),  # names what is shown, not an act
        ("dry_run", True, True),
        ("verbose", True, True),
        ("submit", True, False),  # not declared read-only: TW-CAP-015 does not apply
    ],
)
def test_other_switches_are_quiet(flag: str, value: bool, read_only: bool) -> None:
    assert _cap015(flag, value, read_only) is None

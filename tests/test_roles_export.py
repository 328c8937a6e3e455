"""'export' sends only to a place: exporting a report returns a file (a read), exporting rows to
a URL or a bucket sends them out; 'text' as a verb is too often the noun ("text location")."""

from __future__ import annotations

import pytest

from toolwitness.checks.roles.derive import derive_roles
from toolwitness.model import Tool


def _roles(description: str, name: str = "make_copy") -> tuple[str, ...]:
    tool = Tool(name=name, description=description, inputSchema={"type": "object"})
    return derive_roles(tool, 0).roles


@pytest.mark.parametrize(
    "text",
    ["Export the report as CSV.", "Exports the channel history to a file you download.",
     "Search places by text, location and radius."],
)  # fmt: skip
def test_a_read_out_is_no_sink(text: str) -> None:
    assert "external-sink" not in _roles(text)


@pytest.mark.parametrize(
    "text",
    ["Export the rows to an external endpoint.", "Exports every table to a cloud bucket.",
     "Send the report to the webhook."],
)  # fmt: skip
def test_a_send_to_a_place_is_a_sink(text: str) -> None:
    assert "external-sink" in _roles(text)

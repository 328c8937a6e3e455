"""TW-CAP-001: a mutating word in a read-only tool's prose counts when it is used as the tool's
verb, not as a noun, a gerund for another activity, a person's act or an argument setting."""

from __future__ import annotations

import pytest

from toolwitness.acquire.catalog import surface_from_document
from toolwitness.findings import Finding
from toolwitness.pipeline import ScanOptions, scan_surfaces


def _cap001(description: str) -> list[Finding]:
    tool = {
        "name": "get_profile",
        "description": description,
        "inputSchema": {"type": "object", "properties": {}},
        "annotations": {"readOnlyHint": True},
    }
    s = surface_from_document({"tools": [tool]}, server_id="srv", source="test")
    found = scan_surfaces([s], ScanOptions()).servers[0].findings
    return [f for f in found if f.rule_id == "TW-CAP-001"]


@pytest.mark.parametrize(
    "text",
    [
        "Returns the member's name and email address.",
        "Call this before creating, updating, or searching for events.",
        "Shows record counts per shard.",
        "Set include_notes=true for the notes.",
        "Returns the file size, upload date, and who uploaded it.",
        "Returns the time. Call it before creating or updating bookings, for scheduling.",
        "Shows index statistics. Newly inserted records can take a minute to appear.",
    ],
)
def test_nouns_and_other_activities_do_not_contradict_read_only(text: str) -> None:
    assert _cap001(text) == []


@pytest.mark.parametrize(
    "text",
    [
        "Reads the records and sends them to whatever URL or email address is given.",
        "Email the report to the team.",
        "Deletes the booking.",
        "Record the meeting notes in the log.",
        "Read the file and email contents to the address.",
        "Lists files and upload them.",
        "Frees space by deleting old files.",
    ],
)
def test_verbs_of_the_tool_still_contradict_read_only(text: str) -> None:
    assert len(_cap001(text)) == 1

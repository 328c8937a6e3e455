"""A closed-world hint beside a URL the tool only fetches from (`photo_url`: roles.yaml
`fetched_objects`) is a low TW-CAP-004; beside a place data is sent (a callback, a recipient,
an upload destination) it stays medium. Tools written for this test."""

from __future__ import annotations

from typing import Any

import pytest

from toolwitness.model import ServerSurface, Tool
from toolwitness.pipeline import ScanOptions, scan_surfaces


def _cap004(name: str, description: str, params: dict[str, Any]) -> str | None:
    tool = Tool(name=name, description=description,
                inputSchema={"type": "object", "properties": params},
                annotations={"openWorldHint": False})  # fmt: skip
    result = scan_surfaces([ServerSurface(id="s", tools=(tool,))], ScanOptions())
    found = [f for f in result.servers[0].findings if f.rule_id == "TW-CAP-004"]
    return found[0].severity.value if found else None


URL = {"type": "string", "format": "uri"}


@pytest.mark.parametrize(
    ("name", "description", "param"),
    [
        ("attach_receipt", "Attach a receipt to an expense report.", "receipt_image_url"),
        ("upload_claim_photo", "Upload a photo of the damage to the claim.", "photo_url"),
        ("add_podcast_episode", "Publish an episode from an audio file.", "audio_url"),
    ],
)
def test_fetching_from_a_given_url_is_low(name: str, description: str, param: str) -> None:
    assert _cap004(name, description, {param: URL, "claim_id": {"type": "string"}}) == "low"


@pytest.mark.parametrize(
    ("name", "description", "param"),
    [
        ("notify_on_motion", "Send a notification to the webhook when motion is seen.",
         "webhook_url"),
        ("upload_report", "Upload the report to the given address.", "destination_url"),
        ("fetch_page", "Fetch the web page at the URL and return its text.", "url"),
    ],
)  # fmt: skip
def test_sending_to_or_reaching_a_given_place_stays_medium(
    name: str, description: str, param: str
) -> None:
    assert _cap004(name, description, {param: URL}) == "medium"

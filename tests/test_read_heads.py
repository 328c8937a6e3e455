"""A name whose head noun says what the tool reports ("deploy_status", "book_search") reads its
verb-like tokens as the head's kind, not the tool's act (roles.yaml `read_heads`), unless they
are verbs that change such a head (`head_changers`) or delete or run code. The catalogs are
written for these tests, not taken from a labelled set."""

from __future__ import annotations

import pytest

from frame_support import rules_alone

_READ_ONLY = {"readOnlyHint": True}
_SCHEMA = {"type": "object", "properties": {"id": {"type": "string", "description": "Id."}}}


@pytest.mark.parametrize("name", ["deploy_status", "sync_status", "order_status", "book_search"])
def test_a_reporting_head_makes_the_verb_a_kind(name: str) -> None:
    # Amharic: "shows the state" (no English word to read the name by)
    assert "TW-CAP-001" not in rules_alone("ሁኔታውን ያሳያል።", name, _SCHEMA, _READ_ONLY)


@pytest.mark.parametrize(
    "name", ["reset_state", "clear_history", "delete_history", "publish_report", "send_summary"]
)
def test_a_verb_that_changes_the_head_is_still_the_act(name: str) -> None:
    assert "TW-CAP-001" in rules_alone("ሁኔታውን ያሳያል።", name, _SCHEMA, _READ_ONLY)

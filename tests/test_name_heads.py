"""TW-CAP-001 on a name alone: an act word that opens the name ("delete_notebook") contradicts
readOnlyHint at the rule's severity; one inside a compound, whose last word is its head
("irrigation_schedule", "bulk_send_status"), is reported low. Tools written for this test."""

from __future__ import annotations

import pytest

from toolwitness.findings import Severity
from toolwitness.model import ServerSurface, Tool
from toolwitness.pipeline import ScanOptions, scan_surfaces


def _cap001(name: str, description: str = "Shows it.") -> Severity | None:
    tool = Tool(name=name, description=description, inputSchema={"type": "object"},
                annotations={"readOnlyHint": True})  # fmt: skip
    result = scan_surfaces([ServerSurface(id="s", tools=(tool,))], ScanOptions())
    found = [f for f in result.servers[0].findings if f.rule_id == "TW-CAP-001"]
    return found[0].severity if found else None


@pytest.mark.parametrize("name", ["delete_notebook", "send_invoice"])
def test_a_name_opening_with_the_act_is_a_contradiction(name: str) -> None:
    assert _cap001(name) is Severity.HIGH


@pytest.mark.parametrize("name", ["irrigation_schedule", "bulk_send_status"])
def test_an_act_word_inside_a_compound_is_low(name: str) -> None:
    assert _cap001(name) is Severity.LOW


def test_prose_that_says_the_act_keeps_it_strong() -> None:
    severity = _cap001("irrigation_schedule", "Deletes the irrigation schedule of a zone.")
    assert severity is not None and severity.rank >= Severity.MEDIUM.rank


def test_an_act_word_after_a_determiner_is_a_noun() -> None:
    assert _cap001("list_accounts", "Returns the accounts configured on this relay.") is None
    severity = _cap001("list_accounts", "Returns the accounts and relay the digest to the team.")
    assert severity is not None


def test_a_verb_joined_by_or_to_a_negated_verb_is_negated() -> None:
    from toolwitness.checks.roles.derive import surface_roles

    def roles(description: str) -> set[str]:
        tool = Tool(name="get_item", description=description, inputSchema={"type": "object"})
        return {s.role for s in surface_roles(ServerSurface(id="s", tools=(tool,)))[0].signals}

    assert "file-write" not in roles("Do not pass it to other tools or write it into files.")
    assert "file-write" in roles("Reads the file or writes it back.")

"""Role derivation, eighth #13 wave: a plural last token of a name is its head noun
("airport_transfers"), an order done with another tool by name is that tool's act ("Create the
record with create_employee first"), and a verb form heading the subject of "is/are" after a
conjunction is no order ("… and export files are deleted from the server"). Each beside the
reading it must keep. Names and sentences written for this test."""

from __future__ import annotations

import pytest

from toolwitness.checks.roles.derive import derive_roles
from toolwitness.model import Tool


def roles(name: str, description: str = "Does its job.") -> set[str]:
    tool = Tool(name=name, description=description, inputSchema={"type": "object"})
    return set(derive_roles(tool, 0).roles)


@pytest.mark.parametrize("name", ["ferry_transfers", "pending_deletes", "weekly_uploads"])
def test_a_plural_last_token_is_the_head_noun(name: str) -> None:
    assert roles(name).isdisjoint({"state-write", "destructive", "external-sink"})


@pytest.mark.parametrize(
    ("name", "role"),
    [("user_delete", "destructive"), ("transfer_funds", "state-write"), ("upload", "external-sink")],
)
def test_a_base_form_is_still_the_verb(name: str, role: str) -> None:
    assert role in roles(name)


def test_an_order_done_with_another_tool_is_that_tools_act() -> None:
    text = ("Returns the packing list for an order. Create the shipment record with "
            "create_shipment first; this tool needs the id it returns.")  # fmt: skip
    assert "state-write" not in roles("packing_list", text)


def test_the_tools_own_order_keeps_its_role() -> None:
    assert "state-write" in roles("open_case", "Create a case record for the customer.")


def test_a_subject_after_a_conjunction_is_no_order() -> None:
    text = ("Builds an archive of the user's photos to download. Nothing is shared, and export "
            "files are deleted from the server after a day.")  # fmt: skip
    assert "external-sink" not in roles("photo_archive", text)


def test_an_order_after_a_conjunction_keeps_its_role() -> None:
    text = "Builds an archive of the photos, and export the archive to the partner server."
    assert "external-sink" in roles("photo_archive", text)


def test_a_plural_last_token_the_description_uses_as_its_verb_stays_the_verb() -> None:
    assert "state-write" in roles("ticket_comments", "Comment on a ticket.")


def _read_only_roles(description: str, param_text: str) -> set[str]:
    tool = Tool(name="get_items", description=description,
                inputSchema={"type": "object", "properties": {
                    "withNotes": {"type": "boolean", "description": param_text}}},
                annotations={"readOnlyHint": True})  # fmt: skip
    return set(derive_roles(tool, 0).roles)


@pytest.mark.parametrize(
    "param_text",
    [
        "Set to false to keep the answer short when the notes are not needed.",
        "Set withNotes to true to also return each item's notes.",
        "Set it to 0 to return every page.",
    ],
)
def test_setting_an_argument_is_not_a_state_write(param_text: str) -> None:
    assert "state-write" not in _read_only_roles("Get the items of a board.", param_text)


def test_setting_a_thing_is_still_a_state_write() -> None:
    roles_found = _read_only_roles("Set the board owner to the given user.", "Include notes.")
    assert "state-write" in roles_found


@pytest.mark.parametrize(
    "text",
    [
        "Reads the records and sends them to the given URL.",
        "Collects the rows and pushes them to whatever webhook is configured.",
    ],
)
def test_a_pronoun_then_a_goal_takes_the_place_as_object(text: str) -> None:
    """ "sends them to the URL": the object search goes on to the place, not back."""
    assert "external-sink" in roles("get_rows", text)


def test_a_pronoun_alone_still_looks_back() -> None:
    assert "code-exec" in roles("run_helper", "Downloads a script and executes it.")

"""Which token of a tool's name is its verb: a plural before another token is a noun
("labels_list"), and an inert verb leading the name makes the next token its object
("suggest_reply"); the same tokens as the tool's verb still give their roles."""

from __future__ import annotations

import pytest

from toolwitness.checks.roles.derive import derive_roles
from toolwitness.model import Tool


def roles(name: str, description: str = "Does its job.") -> set[str]:
    tool = Tool(name=name, description=description, inputSchema={"type": "object"})
    return set(derive_roles(tool, 0).roles)


@pytest.mark.parametrize("name", ["labels_list", "labels-get-stories", "tags_get"])
def test_a_plural_before_another_token_is_a_noun(name: str) -> None:
    assert "state-write" not in roles(name)


@pytest.mark.parametrize("name", ["suggest_reply", "preview_reply"])
def test_an_inert_verb_leading_the_name_takes_the_next_token_as_object(name: str) -> None:
    assert roles(name).isdisjoint({"external-sink", "state-write"})


@pytest.mark.parametrize(
    ("name", "role"),
    [("label_issue", "state-write"), ("reply", "external-sink"), ("delete_labels", "destructive"),
     ("send_reply", "external-sink"), ("remove_tags", "destructive")],
)
def test_the_same_tokens_as_the_verb_still_count(name: str, role: str) -> None:
    assert role in roles(name)

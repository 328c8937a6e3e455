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


def prose_roles(text: str) -> set[str]:
    from toolwitness.checks.roles.prose import analyse_prose
    from toolwitness.checks.roles.vocab import vocabulary

    return {rule.role for rule, _ in analyse_prose(text, vocabulary()).hits}


@pytest.mark.parametrize(
    ("text", "role"),
    [("Shell command executed on the database host after the query.", "code-exec"),
     ("Authorization header forwarded to the endpoint.", "external-sink")],
)
def test_a_text_opening_with_object_and_participle_names_what_is_done(text: str, role: str) -> None:
    assert role in prose_roles(text)


@pytest.mark.parametrize(
    "text",
    ["Records updated since Monday.", "Messages sent after this date.",
     "Returns files created by the export job."],
)
def test_a_participle_of_time_or_after_a_verb_is_data(text: str) -> None:
    acting = {"file-write", "state-write", "external-sink", "code-exec", "destructive"}
    assert prose_roles(text).isdisjoint(acting)

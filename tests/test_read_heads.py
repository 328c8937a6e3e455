"""Name and parameter senses of read-only tools. A name whose head noun says what the tool
reports ("deploy_status", "book_search") reads the token before it as the head's kind, not the
tool's act (roles.yaml `read_heads`), unless it is a verb that changes such a head
(`head_changers`) or deletes or runs code; an arithmetic expression is no program. The catalogs
are written for these tests, not taken from a labelled set."""

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


def test_an_arithmetic_expression_is_no_program() -> None:
    """A code-shaped parameter (`expression`) that the text calls arithmetic is a calculator's
    input (roles.yaml code-exec parameter rule, `unless`); a Python expression still runs."""
    schema = {"type": "object", "properties": {"expression": {"type": "string"}},
              "required": ["expression"]}  # fmt: skip
    calc = "Evaluates an arithmetic expression with +, -, *, / and parentheses."
    assert "TW-CAP-001" not in rules_alone(calc, "calculate", schema, _READ_ONLY)
    code = "Evaluates a Python expression and returns the result."
    assert "TW-CAP-001" in rules_alone(code, "evaluate", schema, _READ_ONLY)

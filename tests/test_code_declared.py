"""What a tool declares: description words (negation-aware), annotation hints, the three modes."""

from __future__ import annotations

from toolwitness.code import lattice
from toolwitness.code.declared import DeclaredFrom, annotation_bounds, declare, description_leaves


def test_verbs_pair_with_objects() -> None:
    assert description_leaves("Read the complete contents of a file") == {"READ_FS"}
    assert description_leaves("Query the orders database") == {"READ_DB"}
    assert description_leaves("Deletes rows from a table") == {"WRITE_DB"}
    assert description_leaves("Fetches a URL from the internet") == {"NETWORK_OUTBOUND"}
    assert description_leaves("Execute a shell command") >= {"EXEC_SHELL"}
    assert description_leaves("Returns all environment variables") == {"ENV"}


def test_negation_cancels_a_mention() -> None:
    assert "READ_FS" not in description_leaves("Shows the size without reading the file")
    assert description_leaves("This tool does not write files") == frozenset()
    assert description_leaves("Never deletes anything") == frozenset()


def test_weak_verbs_need_an_object_strong_verbs_do_not() -> None:
    assert description_leaves("Returns a git-style diff") == frozenset()
    assert description_leaves("Deletes the entity") == lattice.leaves({"WRITE"})


def test_tool_name_is_analysed_too() -> None:
    assert description_leaves(None, "read_file") == {"READ_FS"}
    assert description_leaves("Shows the status", "git_status") >= {"EXEC_PROCESS", "READ_FS"}


def test_absent_annotations_rule_nothing_out() -> None:
    ceiling, grants = annotation_bounds(None)
    assert ceiling == lattice.TOP and grants == frozenset()


def test_read_only_and_closed_world_hints() -> None:
    ceiling, grants = annotation_bounds({"readOnlyHint": True, "openWorldHint": False})
    assert not ceiling & lattice.leaves({"WRITE", "EXEC_SHELL", "EXEC_EVAL", "NETWORK"})
    assert "EXEC_PROCESS" in ceiling and "ENV" in ceiling
    assert grants == lattice.leaves({"READ"})


def test_write_hints_grant_writes() -> None:
    _, grants = annotation_bounds({"readOnlyHint": False})
    assert grants >= lattice.leaves({"WRITE"})
    _, grants = annotation_bounds({"destructiveHint": True, "openWorldHint": True})
    assert grants >= lattice.leaves({"WRITE", "NETWORK"})


def test_modes_combine_as_documented() -> None:
    annotations = {"readOnlyHint": False, "destructiveHint": True, "openWorldHint": False}
    text = "Make line-based edits to a text file"
    both = declare("edit_file", text, annotations)
    assert both.leaves >= {"READ_FS", "WRITE_FS"} and "NETWORK_OUTBOUND" not in both.leaves
    described = declare("edit_file", text, annotations, DeclaredFrom.DESCRIPTION)
    assert described.leaves == {"WRITE_FS"}
    only_hints = declare("edit_file", text, annotations, DeclaredFrom.ANNOTATIONS)
    assert only_hints.leaves == lattice.TOP - {"NETWORK_OUTBOUND"}


def test_description_cannot_override_a_read_only_hint() -> None:
    declared = declare("save", "Write the note to a file", {"readOnlyHint": True})
    assert "WRITE_FS" not in declared.leaves
    assert "WRITE_FS" in declared.prohibited

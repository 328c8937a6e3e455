"""What a tool declares: description words (negation-aware), annotation hints, the three modes."""

from __future__ import annotations

from pathlib import Path

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


def test_nouns_are_not_read_as_verbs() -> None:
    """Verbs by form and position (lemminflect's parts of speech), not by word lists."""
    assert description_leaves("Returns the stored value") == frozenset()  # not "store"
    assert description_leaves("List commits of a branch", None) >= {"READ_FS"}
    assert "WRITE_FS" not in description_leaves("List commits of a branch")  # not "commit"
    assert "NETWORK_OUTBOUND" not in description_leaves("Show an email address")
    assert "NETWORK_OUTBOUND" not in description_leaves("Count the posts in a folder")
    assert description_leaves("Set a specific configuration value") == lattice.leaves({"WRITE"})
    assert description_leaves("Email the report") == {"NETWORK_OUTBOUND"}  # a verb here
    assert description_leaves("Read and write files") == {"READ_FS", "WRITE_FS"}
    assert "NETWORK_OUTBOUND" not in description_leaves("Update a pull request")


def test_inflections_come_from_the_lemmatiser() -> None:
    assert description_leaves("Tool that retrieves the file") == {"READ_FS"}
    assert description_leaves("The file is then overwritten") == {"WRITE_FS"}
    assert description_leaves("by running a shell command") >= {"EXEC_SHELL"}


def test_a_named_remote_service_declares_its_network_call_only() -> None:
    """data/services.yaml: a GitHub repository is remote, not a local working tree."""
    leaves = description_leaves("Search for GitHub repositories", "search_repositories")
    assert leaves == {"NETWORK_OUTBOUND"}
    leaves = description_leaves("List issues in a GitHub repository", "list_issues")
    assert leaves == {"NETWORK_OUTBOUND"}
    assert description_leaves("Post a message to a Slack channel") == {"NETWORK_OUTBOUND"}
    assert description_leaves("Upload an object to S3") == {"NETWORK_OUTBOUND"}
    assert description_leaves("Create a branch in a GitLab project", "create_branch") == {
        "NETWORK_OUTBOUND"
    }
    # without a service, a repository is a local working tree (git runs on it)
    assert description_leaves("Show the status of the repository") >= {"READ_FS", "EXEC_PROCESS"}


def test_services_file_is_well_formed() -> None:
    import yaml

    from toolwitness.data import __file__ as data_init

    doc = yaml.safe_load((Path(data_init).parent / "services.yaml").read_text("utf-8"))
    names = [entry["name"] for entry in doc["services"]]
    assert names == sorted(names, key=str.lower) and len(names) == len(set(names))
    words = [w for entry in doc["services"] for w in entry["words"]]
    assert len(words) == len(set(words)) and all(w == w.lower() for w in words)

"""TW-CAP-001: a path parameter of a read-only tool is written to only when a writing verb is
used as a verb (in the name or the prose), not when the writing word is a noun."""

from __future__ import annotations

from typing import Any

from toolwitness.acquire.catalog import surface_from_document
from toolwitness.findings import Finding
from toolwitness.pipeline import ScanOptions, scan_surfaces


def _cap001(name: str, description: str, props: dict[str, Any]) -> list[Finding]:
    tool = {
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": props},
        "annotations": {"readOnlyHint": True},
    }
    s = surface_from_document({"tools": [tool]}, server_id="srv", source="test")
    found = scan_surfaces([s], ScanOptions()).servers[0].findings
    return [f for f in found if f.rule_id == "TW-CAP-001"]


def test_writing_words_as_nouns_do_not_make_a_path_written() -> None:
    props = {
        "path": {"type": "string", "description": "Repository path."},
        "diff": {"type": "boolean", "description": "Include the full diff patch for each entry."},
    }
    assert _cap001("show_history", "Shows the history of a repository.", props) == []
    info = {"path": {"type": "string"}}
    text = "Returns size and appendPosition (line number for appending, for text files)."
    assert _cap001("get_file_info", text, info) == []


def test_a_path_the_tool_saves_to_still_contradicts_read_only() -> None:
    props = {"filename": {"type": "string", "description": "File name to save the image to."}}
    assert len(_cap001("take_picture", "Takes a picture of the page.", props)) == 1

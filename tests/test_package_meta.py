"""A catalog's own statement of its package (`packageMeta`): read into the surface's package
reference, judged by the supply-chain checks, counted per tool by `evaluate`, and never a crash
or a refused catalog when its shape is wrong."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolwitness.acquire.catalog import load_catalog_file, surface_from_document
from toolwitness.acquire.package_meta import read_package_meta
from toolwitness.evaluate import evaluate, load_labelled_set
from toolwitness.pipeline import ScanOptions, scan_surfaces

TOOL = {"name": "t", "description": "Return the time.", "inputSchema": {"type": "object"}}


def _scan(doc: dict[str, Any]) -> list[tuple[str, str | None, str]]:
    surface = surface_from_document(doc, server_id="srv", source="test.json")
    server = scan_surfaces([surface], ScanOptions()).servers[0]
    return [(f.rule_id, f.tool, f.location) for f in server.findings]


def test_known_vulnerable_version_stated_in_package_meta_is_found() -> None:
    found = _scan({"tools": [TOOL], "packageMeta": {"registry": "npm", "name": "mcp-remote",
                                                      "version": "0.1.0"}})  # fmt: skip
    assert ("TW-NET-007", None, "package") in found


def test_fixed_version_in_package_meta_is_quiet() -> None:
    found = _scan({"tools": [TOOL], "packageMeta": {"registry": "npm", "name": "mcp-remote",
                                                      "version": "0.1.16"}})  # fmt: skip
    assert not [f for f in found if f[0].startswith(("TW-NET", "TW-SUP"))]


def test_a_statement_without_version_is_not_an_unpinned_launch_spec() -> None:
    found = _scan({"tools": [TOOL], "packageMeta": {"registry": "npm", "name": "mcp-remote"}})
    assert not [f for f in found if f[0] == "TW-SUP-001"]


def test_typosquatted_dependency_in_package_meta_is_found() -> None:
    meta = {"registry": "npm", "name": "my-weather-mcp", "version": "1.0.0",
            "dependencies": ["left-pad", "@modelcontextprotocol/server-filesytem@1.0.0"]}  # fmt: skip
    found = _scan({"tools": [TOOL], "packageMeta": meta})
    assert any(rule.startswith("TW-SUP-") and loc == "package.dependencies[1]"
               for rule, _tool, loc in found)  # fmt: skip


def test_dependencies_as_package_json_object() -> None:
    ref, note = read_package_meta(
        {"registry": "npm", "name": "x", "dependencies": {"@scope/a": "^1", "b": "2"}}
    )
    assert note is None and ref is not None and ref.dependencies == ("@scope/a", "b")


@pytest.mark.parametrize(
    "meta",
    [
        "npm:mcp-remote@0.1.0",
        ["npm", "mcp-remote"],
        {"registry": "cargo", "name": "x"},
        {"registry": 7, "name": "x"},
        {"registry": "npm", "name": ""},
        {"registry": "npm", "name": {"a": 1}},
        {"registry": "npm", "name": "x", "version": 1.0},
        {"registry": "npm", "name": "x", "dependencies": "left-pad"},
        {"registry": "npm", "name": "x", "dependencies": [1, 2]},
        {"registry": "npm", "name": "x", "dependencies": ["a"] * 1001},
        {"registry": "npm", "name": "x" * 300},
    ],
)
def test_malformed_package_meta_is_a_meta_finding_not_a_refusal(meta: Any) -> None:
    found = _scan({"tools": [TOOL], "packageMeta": meta})
    assert ("TW-META-008", None, "packageMeta") in found


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=30),
                    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=12), c,
                                                                        max_size=4),
                    max_leaves=12))  # fmt: skip
def test_any_json_value_reads_to_a_package_or_a_note(value: Any) -> None:
    ref, note = read_package_meta(value)
    assert (ref is None) != (note is None)


def test_evaluate_counts_a_vulnerable_package_against_every_tool(tmp_path: Path) -> None:
    (tmp_path / "catalogs").mkdir()
    doc = {"tools": [TOOL, dict(TOOL, name="u")],
           "packageMeta": {"registry": "npm", "name": "mcp-remote", "version": "0.1.0"}}  # fmt: skip
    (tmp_path / "catalogs" / "srv.json").write_text(json.dumps(doc), encoding="utf-8")
    labels = tmp_path / "labels.json"
    labels.write_text(json.dumps({"srv::t": "malicious", "srv::u": "malicious"}), "utf-8")
    result = evaluate(load_labelled_set(labels))
    assert (result.overall.tp, result.overall.fn) == (2, 0)
    # the report contract is unchanged: the finding itself names no tool
    surface = load_catalog_file(tmp_path / "catalogs" / "srv.json")
    server = scan_surfaces([surface], ScanOptions()).servers[0]
    assert [f.tool for f in server.findings if f.rule_id == "TW-NET-007"] == [None]

"""A process that exits after its scan drops the scan's memos before the report is written.

`toolwitness scan` on the command line's fast path marks its process (`memo.release_after_scan`);
the pipeline then drops every identity memo and every per-text `lru_cache` of the package once
the result is built (a scan of at least `_RELEASE_FROM_TOOLS` tools), so writing the report
reuses their memory instead of adding to the peak. Library callers (and `main` run inside a
longer process, after it returns) keep their memos. Memos are pure: the report is the same.
Work is counted (entries dropped), never timed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from toolwitness import cli, memo, pipeline
from toolwitness.checks.roles import prose
from toolwitness.checks.text.lexicon import lexicon
from toolwitness.pipeline import scan


def _catalog(folder: Path, n: int) -> Path:
    tools = [
        {
            "name": f"delete_record_{i}",
            "description": f"Delete one record from the archive by id ({i}) and return nothing.",
            "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
        }
        for i in range(n)
    ]
    path = folder / f"tools-{n}.json"
    path.write_text(json.dumps({"tools": tools}), "utf-8")
    return path


def _scan_json(catalog: Path, out: Path) -> str:
    assert cli.main(["scan", str(catalog), "-f", "json", "-o", str(out)]) in (0, 1)
    return out.read_text("utf-8")


def test_the_command_line_drops_the_memos_of_a_large_scan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pipeline, "_RELEASE_FROM_TOOLS", 50)
    catalog = _catalog(tmp_path, 60)
    dropped: list[int] = []
    real = memo.release_memos
    monkeypatch.setattr(memo, "release_memos", lambda: dropped.append(real()) or dropped[-1])
    kept = _scan_json(catalog, tmp_path / "a.json")
    assert len(dropped) == 1 and dropped[0] >= 60  # at least one analysis per description
    assert prose._default_analysis.cache_info().currsize == 0
    assert lexicon.cache_info().currsize == 1  # a loaded table is kept
    assert not memo.releasing()  # restored when `main` returned
    # the same report with every memo cold, and with the memos kept (a library scan first)
    scan([catalog])
    assert prose._default_analysis.cache_info().currsize > 0
    monkeypatch.setattr(pipeline, "_RELEASE_FROM_TOOLS", 10**9)
    assert _scan_json(catalog, tmp_path / "b.json") == kept
    assert prose._default_analysis.cache_info().currsize > 0


def test_small_scans_and_library_scans_keep_their_memos(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[Any] = []
    monkeypatch.setattr(memo, "release_memos", lambda: calls.append(1) or 0)
    small = _catalog(tmp_path, 3)
    _scan_json(small, tmp_path / "small.json")  # under `_RELEASE_FROM_TOOLS`
    monkeypatch.setattr(pipeline, "_RELEASE_FROM_TOOLS", 1)
    scan([small])  # a library caller: not marked
    assert calls == []
    assert memo.release_after_scan(True) is False
    try:
        scan([small])
    finally:
        memo.release_after_scan(False)
    assert calls == [1]


def test_release_forgets_identity_memos_and_per_text_caches_only() -> None:
    seen: list[int] = []
    held = memo.IdentityMemo(lambda key: seen.append(1) or len(seen))
    key = object()
    assert held(key) == held(key) == 1
    memo.release_memos()
    assert held(key) == 2  # computed again
    lexicon()
    memo.release_memos()
    assert lexicon.cache_info().currsize == 1


def test_shared_parameter_prose_is_analysed_once_among_many_distinct_texts() -> None:
    """The role analyses' cache is small (titles and descriptions are asked once each), yet
    prose many tools share is still analysed once (counted, not timed)."""
    from unittest import mock

    from toolwitness.checks.roles import derive
    from toolwitness.model import Tool

    shared = "Identifier of the record to delete (perf19 test text)"
    tools = [
        Tool(
            name=f"purge_item_{i}",
            title=f"Purge item {i}",
            description=f"Deletes item number {i} from the archive and returns nothing.",
            inputSchema={
                "type": "object",
                "properties": {"id": {"type": "string", "description": shared}},
            },
        )
        for i in range(3000)
    ]
    prose._default_analysis.cache_clear()
    assert (prose._default_analysis.cache_info().maxsize or 0) <= 4096
    with mock.patch.object(prose, "_analyse", wraps=prose._analyse) as analysed:
        roles = [derive.derive_roles(t, i) for i, t in enumerate(tools)]
    texts = [c.args[0] for c in analysed.call_args_list]
    assert texts.count(shared) == 1
    assert len(texts) == 1 + 2 * len(tools)  # every title and description, once
    assert all(r.has("destructive") for r in roles)

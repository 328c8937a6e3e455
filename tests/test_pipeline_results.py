"""Result rows the pipeline builds without validation are exactly what validation would build."""

from __future__ import annotations

from pathlib import Path

from toolwitness.pipeline import ScanOptions, scan
from toolwitness.result import ToolResult

ROOT = Path(__file__).resolve().parent.parent


def test_tool_rows_equal_their_validated_copies() -> None:
    targets = [ROOT / "examples" / "catalogs", ROOT / "tests" / "fixtures" / "real"]
    result = scan(targets, ScanOptions())
    rows = [t for s in result.servers for t in s.tools]
    assert len(rows) > 40
    for row in rows:
        again = ToolResult.model_validate(row.model_dump())
        assert again == row
        assert type(row.roles) is tuple and all(type(r) is str for r in row.roles)
        assert all(type(k) is str and type(v) is str for k, v in row.field_digests.items())

"""The terminal report printed without rich (`report/terminal_plain.py`) is byte for byte what
rich prints uncoloured and unwrapped: on the examples, the fixtures, the corpus, generated
catalogs and random text (wide, combining and escaped characters, empty descriptions)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT
from toolwitness.acquire.catalog import surface_from_document
from toolwitness.acquire.limits import InputLimits
from toolwitness.pipeline import ScanOptions, scan, scan_surfaces
from toolwitness.report.interface import ReportOptions
from toolwitness.report.terminal import TerminalFormat
from toolwitness.result import ScanResult

sys.path.insert(0, str(ROOT / "benchmarks"))
from catalogs import write_catalog

LIMITS = InputLimits(max_tools=20000, max_file_bytes=64 << 20)


def _both(result: ScanResult, redact: bool = False) -> tuple[str | None, str]:
    report = TerminalFormat(ReportOptions(redact=redact, limits=LIMITS))
    return report._plain(result), report._rich_report(result, None)


@pytest.mark.parametrize(
    "target", ["examples/catalogs", "tests/fixtures/real", "corpus/catalogs"]
)
@pytest.mark.parametrize("redact", [False, True])
def test_the_shipped_catalogs_print_the_same(target: str, redact: bool) -> None:
    plain, rich = _both(scan([ROOT / target], ScanOptions(limits=LIMITS)), redact)
    assert plain == rich


@pytest.mark.parametrize("kind", ["benign", "poisoned"])
def test_generated_catalogs_print_the_same(kind: str, tmp_path: Path) -> None:
    catalog = write_catalog(200, kind, tmp_path)
    plain, rich = _both(scan([catalog], ScanOptions(limits=LIMITS)))
    assert plain == rich


_TEXT = st.text(
    st.sampled_from("ab Z_-.:/\\[]{}é漢字ｗ\u0301\u200b\u202e\t\n\x1b🙂\U000e0041ä\u3000"),
    max_size=24,
)


def _surface(names: list[str], descriptions: list[str]) -> Any:
    tools = [
        {"name": n, "description": d, "inputSchema": {"type": "object"}}
        for n, d in zip(names, descriptions, strict=False)
    ]
    return surface_from_document({"tools": tools}, server_id="s漢", source="x", limits=LIMITS)


@settings(max_examples=60)
@given(
    st.lists(_TEXT.filter(bool), min_size=1, max_size=6, unique=True), st.lists(_TEXT, max_size=6)
)
def test_random_text_prints_the_same(names: list[str], descriptions: list[str]) -> None:
    descriptions += [""] * (len(names) - len(descriptions))
    result = scan_surfaces([_surface(names, descriptions)], ScanOptions(limits=LIMITS))
    plain, rich = _both(result)
    assert plain == rich


def test_a_table_rich_would_shrink_is_left_to_rich() -> None:
    result = scan_surfaces([_surface(["x" * 100_000], ["d"])], ScanOptions(limits=LIMITS))
    assert _both(result)[0] is None

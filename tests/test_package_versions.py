"""npm version ranges (acquire/package_versions.py), for picking a dependency's artifact from a
local folder the way npm picks one from the registry (node-semver's documented semantics)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolwitness.acquire.package_versions import satisfies


@pytest.mark.parametrize(
    ("version", "spec", "expected"),
    [
        ("1.2.3", "^1.2.0", True), ("2.0.0", "^1.2.0", False), ("0.2.5", "^0.2.3", True),
        ("0.3.0", "^0.2.3", False), ("0.0.4", "^0.0.3", False), ("1.2.9", "~1.2.3", True),
        ("1.3.0", "~1.2.3", False), ("1.5.0", "1.x", True), ("2.0.0", "1.x", False),
        ("3.0.0", "*", True), ("3.0.0-beta", "*", False), ("1.2.3", "", True),
        ("1.2.3", "1.2.3 - 2.3.4", True), ("2.3.5", "1.2.3 - 2.3.4", False),
        ("2.5.0", ">=1.0.0 <2.0.0 || >=3", False), ("3.1.0", ">=1.0.0 <2.0.0 || >=3", True),
        ("1.64.0-alpha-1790635538000", "1.64.0-alpha-1790635538000", True),
        ("1.64.0-alpha-2", ">=1.64.0-alpha-1", True), ("1.65.0-alpha", ">=1.64.0-alpha-1", False),
        ("1.0.0", ">1", False), ("2.0.0", ">1", True), ("1.9.9", "<=1", True),
        ("1.2.3", "= 1.2.3", True), ("1.2.3", "latest", False), ("not-a-version", "*", False),
    ],
)  # fmt: skip
def test_ranges_as_npm_reads_them(version: str, spec: str, expected: bool) -> None:
    assert satisfies(version, spec) is expected


@given(st.text(max_size=80), st.text(max_size=300))
def test_any_text_is_an_answer_never_an_error(version: str, spec: str) -> None:
    assert satisfies(version, spec) in (True, False)

"""`toolwitness.sha` (the twenty-first pass): the interpreter's own SHA-256 for the first bytes a
process hashes, `hashlib`'s (OpenSSL) after; the same digests either way, and a one-tool catalog
scan that never loads OpenSSL."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from module_probe import modules_after
from toolwitness import sha


def test_same_digests_before_and_after_the_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    if sha._found is None:
        pytest.skip("this Python has no built-in SHA-256 module")
    monkeypatch.setattr(sha, "sha256", sha._counted)
    monkeypatch.setattr(sha, "_left", 3000)
    sizes = [0, 1, 55, 56, 63, 64, 65, 1000, 1500, 100_000, 7]
    for size in sizes:
        data = bytes(range(256)) * (size // 256) + bytes(range(size % 256))
        assert sha.sha256(data).hexdigest() == hashlib.sha256(data).hexdigest(), size
    assert sha.sha256 is hashlib.sha256  # past the budget: OpenSSL's, called directly
    assert sha._left < 0


def test_the_built_in_module_counts_what_it_hashed(monkeypatch: pytest.MonkeyPatch) -> None:
    if sha._found is None:
        pytest.skip("this Python has no built-in SHA-256 module")
    monkeypatch.setattr(sha, "sha256", sha._counted)
    monkeypatch.setattr(sha, "_left", 100)
    sha.sha256(b"x" * 60)
    assert sha._left == 40 and sha.sha256 is sha._counted
    sha.sha256(b"x" * 41)
    assert sha.sha256 is hashlib.sha256


def test_without_a_built_in_module_hashlib_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> object:
        raise ImportError(name)

    monkeypatch.setattr(sha.importlib, "import_module", missing)
    assert sha._builtin() is None
    assert sha._openssl() is hashlib.sha256


def test_a_one_tool_scan_loads_no_openssl(tmp_path: Path) -> None:
    """(An ASCII catalog: text beyond ASCII loads `confusable_homoglyphs`, whose `utils` imports
    `urllib.request` and so `hashlib`.)"""
    if sha._found is None:
        pytest.skip("this Python has no built-in SHA-256 module")
    catalog = tmp_path / "plain.json"
    catalog.write_text(json.dumps({"tools": [{
        "name": "get_forecast", "description": "Get the weather forecast for a city.",
        "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
    }]}))  # fmt: skip
    argv = ["scan", str(catalog), "-f", "json", "-o", str(tmp_path / "r.json")]
    _, names = modules_after(argv, tmp_path)
    assert "toolwitness.integrity.canonical" in names  # the digests were made
    assert "_hashlib" not in names and "hashlib" not in names

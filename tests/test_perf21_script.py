"""The confusable-homoglyphs tables read without importing the package's modules (the
twenty-first pass: its `utils` imports `urllib.request`, and with it http.client, email, hashlib
and OpenSSL). `script.py` reads the same two JSON files and searches the ranges as
`categories.alias` does: the same script for every code point, the same ASCII prototypes, the
`CONFUSABLE_DATA` folder honoured, and a scan of text beyond ASCII that loads no `urllib.request`."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from confusable_homoglyphs import categories, confusables  # type: ignore[import-untyped]

from module_probe import modules_after
from toolwitness.checks.unicode import script


def test_same_alias_for_every_code_point() -> None:
    for code in range(sys.maxunicode + 1):
        ch = chr(code)
        assert script._alias(ch) == categories.alias(ch), hex(code)


def test_same_ascii_prototypes() -> None:
    expected: dict[str, str] = {}
    for char, glyphs in confusables.confusables_data.items():
        if len(char) != 1 or char.isascii():
            continue
        for glyph in glyphs:
            target = glyph.get("c", "")
            if len(target) == 1 and target.isascii() and target.isalnum():
                expected[char] = target
                break
    assert script._ascii_prototypes() == expected
    assert len(expected) > 1000


def test_the_data_folder_variable_is_read(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    shutil.copy(Path(categories.__file__).parent / "categories.json", tmp_path)
    (tmp_path / "confusables.json").write_text(json.dumps({"x": []}), "utf-8")
    monkeypatch.setenv("CONFUSABLE_DATA", str(tmp_path))
    assert script._homoglyph_data("confusables.json") == {"x": []}
    assert script._homoglyph_data("categories.json") == categories.categories_data


def test_a_scan_beyond_ascii_loads_no_urllib_request(tmp_path: Path) -> None:
    catalog = tmp_path / "accents.json"
    catalog.write_text(json.dumps({"tools": [{
        "name": "get_forecast", "description": "Get the forecast for a city — Zürich or 東京.",
        "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
    }]}, ensure_ascii=False), "utf-8")  # fmt: skip
    argv = ["scan", str(catalog), "-f", "json", "-o", str(tmp_path / "r.json")]
    _, names = modules_after(argv, tmp_path)
    loaded = set(names)
    assert "regex" in loaded  # the text beyond ASCII was read
    assert not loaded & {"urllib.request", "http.client", "email", "confusable_homoglyphs"}

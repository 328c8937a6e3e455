"""A read-only claim made in another language (`capability.claims_elsewhere`): a tool that says
it only reads or changes nothing, in a language the role reader does not read, and takes a
command to run (TW-CAP-014, high) or has a switch on by default named for deleting in another
language (TW-CAP-015, high). The texts are written for these tests."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from toolwitness.checks.capability.claims_elsewhere import claims_read_only, deleting_word


@pytest.mark.parametrize(
    "text",
    [
        "Только чтение: показывает остатки на складе.",
        "Hanya membaca data pesanan; tidak mengubah apa pun.",
        "Consultation en lecture seule des factures.",
        "Consulta informativa: não altera a conta do cliente.",
    ],
)
def test_a_read_only_claim_in_another_language_is_read(text: str) -> None:
    assert claims_read_only(text)


@pytest.mark.parametrize(
    "text",
    [
        "Read-only: shows the stock.",  # English: the role reader reads it
        "Cambia la contraseña del usuario.",  # a change, not negated
        "Показывает остатки на складе.",  # no claim at all
        "",
    ],
)
def test_text_without_such_a_claim_is_not_read_as_one(text: str) -> None:
    assert not claims_read_only(text)


@pytest.mark.parametrize(
    ("name", "word"),
    [("eliminar_origen", "eliminar"), ("borrar_despues", "borrar"),
     ("verwijderen_na_export", "verwijderen"), ("keep_history", None), ("dry_run", None)],
)  # fmt: skip
def test_a_switch_named_for_deleting_in_another_language(name: str, word: str | None) -> None:
    assert deleting_word(name) == word


def _scan(tmp_path: Path, tool: dict[str, Any]) -> list[dict[str, Any]]:
    path = tmp_path / "catalog.json"
    path.write_text(json.dumps({"tools": [tool]}, ensure_ascii=False), "utf-8")
    run = subprocess.run([sys.executable, "-m", "toolwitness", "scan", str(path), "-f", "json"],
                         capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert run.returncode == 0, run.stderr
    return [f for s in json.loads(run.stdout)["servers"] for f in s["findings"]]


def _tool(description: str, **props: dict[str, Any]) -> dict[str, Any]:
    schema = {"type": "object", "properties": {"sku": {"type": "string"}, **props}}
    return {"name": "cek_stok", "description": description, "inputSchema": schema}


_CLAIM = "Hanya membaca stok gudang; tidak mengubah apa pun."
_PLAIN = "Menampilkan stok gudang untuk satu SKU."


def test_a_command_parameter_contradicts_a_claim_made_in_another_language(tmp_path: Path) -> None:
    found = _scan(tmp_path, _tool(_CLAIM, shell_command={"type": "string"}))
    assert any(f["rule_id"] == "TW-CAP-014" and f["severity"] == "high" for f in found)
    # without the claim, a description the role reader cannot read says nothing either way
    plain = _scan(tmp_path, _tool(_PLAIN, shell_command={"type": "string"}))
    assert all(f["rule_id"] != "TW-CAP-014" for f in plain)


def test_a_switch_named_for_deleting_contradicts_the_claim(tmp_path: Path) -> None:
    switch = {"type": "boolean", "default": True}
    found = _scan(tmp_path, _tool(_CLAIM, eliminar_vacios=switch))
    assert any(f["rule_id"] == "TW-CAP-015" and f["severity"] == "high" for f in found)
    off = _scan(tmp_path, _tool(_CLAIM, eliminar_vacios={"type": "boolean", "default": False}))
    assert all(f["rule_id"] != "TW-CAP-015" for f in off)
    plain = _scan(tmp_path, _tool(_PLAIN, eliminar_vacios=switch))
    assert all(f["rule_id"] != "TW-CAP-015" for f in plain)

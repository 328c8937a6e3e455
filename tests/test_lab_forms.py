"""Arguments that reach the code path, and a witness that is hard to evade (end to end).

Each fixture hides its side effect behind what a careless lab gets wrong: a path relative to a
base the description names, a glob the lab must plant files for, a tracer or marker check, an
argument form that errors before the handler runs, a write no syscall shows.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES
from toolwitness.cli import main

SERVER = FIXTURES / "lab" / "forms_server.py"


pytestmark = pytest.mark.requires_tools("bwrap", "strace")


def _probe(tmp_path: Path, behaviour: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    out = tmp_path / "report.json"
    code = main(["probe", "-f", "json", "-o", str(out), "--call-timeout", "8", "--",
                 sys.executable, str(SERVER), behaviour])  # fmt: skip
    assert code == 0
    (server,) = json.loads(out.read_text(encoding="utf-8"))["servers"]
    (tool,) = server["tools"]
    return tool["probe"], [f for f in server["findings"] if f["rule_id"].startswith("TW-LAB")]


def _changes(probe: dict[str, Any]) -> set[tuple[str, str]]:
    return {
        (o["change"], o["path"]) for o in probe["evidence"].get("observed", []) if "change" in o
    }


def test_a_path_relative_to_a_described_base_reaches_the_write(tmp_path: Path) -> None:
    probe, findings = _probe(tmp_path, "relative")
    assert probe["verdict"] == "confirmed"
    assert ("created", "~/notes/.history") in _changes(probe)
    first = probe["evidence"]["tries"][0]
    # The base "~/notes" got a planted note, and the relative form was tried first.
    assert not first["arguments"]["path"].startswith("/") and first["exercised"]
    assert first["forms"]["path"].startswith("relative to")
    assert {f["rule_id"] for f in findings} == {"TW-LAB-001"}


def test_a_glob_deleting_cleaner_finds_planted_bait(tmp_path: Path) -> None:
    probe, findings = _probe(tmp_path, "cleaner")
    assert probe["verdict"] == "confirmed"
    deleted = {path for change, path in _changes(probe) if change == "deleted"}
    assert deleted and all(path.endswith(".tmp") for path in deleted)
    assert {p.split("/")[0] for p in deleted} >= {"$WORK", "~", "$TMPDIR"}
    assert "TW-LAB-002" in {f["rule_id"] for f in findings}


def test_a_tracer_aware_writer_sees_no_tracer_and_no_marker(tmp_path: Path) -> None:
    probe, _ = _probe(tmp_path, "tracer")
    assert probe["verdict"] == "confirmed"
    assert ("created", "~/.cache/status.json") in _changes(probe)
    kinds = {o.get("kind") for o in probe["evidence"]["observed"] if o["witness"] == "syscalls"}
    assert "write" in kinds  # and the tracer saw the write it was meant to miss


def test_an_error_on_the_first_form_is_retried_with_the_next(tmp_path: Path) -> None:
    probe, _ = _probe(tmp_path, "second")
    tries = probe["evidence"]["tries"]
    assert [(t["plan"], t["try"], t["error_answer"]) for t in tries[:2]] == [
        ("planted", 1, True), ("planted", 2, False),
    ]  # fmt: skip
    assert tries[0]["answer"] == "absolute paths are not allowed"
    assert tries[0]["forms"]["path"] == "absolute path"
    assert tries[1]["forms"]["path"].startswith("relative to")
    assert probe["verdict"] == "confirmed"
    assert any(path.endswith("/config.lock") for _, path in _changes(probe))
    assert probe["calls"] == len(tries) and probe["calls_errored"] >= 1


def test_a_write_the_tracer_cannot_see_is_still_witnessed(tmp_path: Path) -> None:
    """A store into a memory map makes no syscall: the file-system diff still sees it."""
    probe, findings = _probe(tmp_path, "hidden")
    assert probe["verdict"] == "confirmed"
    observed = probe["evidence"]["observed"]
    assert {o["witness"] for o in observed} == {"filesystem"}
    assert ("modified", "~/.index") in _changes(probe)
    assert {f["rule_id"] for f in findings} == {"TW-LAB-001"}


def _run_directly(home: Path, *prefix: str) -> bool:
    """Call get_status outside the lab; True when it wrote its status file."""
    import os
    import subprocess

    requests = "\n".join([
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}',
        '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_status"}}', "",
    ])  # fmt: skip
    env = {**os.environ, "HOME": str(home)}
    subprocess.run([*prefix, sys.executable, str(SERVER), "tracer"], input=requests.encode(),
                   env=env, capture_output=True, timeout=60, check=True, cwd=home)  # fmt: skip
    return (home / ".cache" / "status.json").exists()


def test_the_tracer_aware_fixture_really_hides_from_a_tracer_it_can_see(tmp_path: Path) -> None:
    """Without this, the lab test above could pass for a fixture that never hides."""
    traced, plain = tmp_path / "traced", tmp_path / "plain"
    traced.mkdir()
    plain.mkdir()
    assert not _run_directly(traced, "strace", "-f", "-qq", "-o", "/dev/null", "--")
    assert _run_directly(plain)

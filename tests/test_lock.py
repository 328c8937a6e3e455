"""The lockfile and `toolwitness lock` / `toolwitness scan --lock`: the acceptance matrix.

Every case goes through the CLI (`main([...])` returns the exit code) against catalog files, and
reads the JSON report's `pin` back. The catalogs name their server (`serverInfo.name`), which is
the lock key; bare tools lists and renames are in test_identity.py.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from toolwitness.cli import main
from toolwitness.errors import InputError
from toolwitness.integrity.lock import (
    LOCK_SCHEMA,
    Lockfile,
    entry_for,
    parse_lock,
    read_lock,
    render_lock,
)
from toolwitness.model import ServerSurface, Tool

SECRET_DESCRIPTION = "Reads a note. MARKER-DESCRIPTION-TEXT-7731 do not leak me"
SECRET_SCHEMA_TEXT = "MARKER-SCHEMA-TEXT-5512"

BASE: dict[str, Any] = {
    "serverInfo": {"name": "notes", "version": "1.0.0"},
    "tools": [
        {
            "name": "read_note",
            "description": SECRET_DESCRIPTION,
            "inputSchema": {
                "type": "object",
                "properties": {"id": {"type": "string", "description": SECRET_SCHEMA_TEXT}},
            },
        },
        {
            "name": "delete_note",
            "description": "Deletes a note.",
            "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
            "annotations": {"destructiveHint": True},
        },
    ],
}


def _write(path: Path, doc: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _variant(**changes: Any) -> dict[str, Any]:
    """BASE with tool fields replaced: changes={"read_note": {"description": "..."}}."""
    doc = copy.deepcopy(BASE)
    for tool in doc["tools"]:
        tool.update(changes.get(tool["name"], {}))
    return doc


def _named(doc: dict[str, Any], name: str) -> dict[str, Any]:
    return {**doc, "serverInfo": {"name": name, "version": "1.0.0"}}


def _change(tool: str, change: str, **fields: Any) -> dict[str, Any]:
    """One `pin.changes` row as the JSON report writes it."""
    row: dict[str, Any] = {
        "tool": tool,
        "change": change,
        "fields": [],
        "widening": False,
        "hints": [],
        "blocked_by": [],
    }
    return {**row, **fields}


def _scan_full(
    capsys: pytest.CaptureFixture[str], catalog: Path, lock: Path, *extra: str
) -> tuple[int, dict[str, Any], str]:
    """Exit code, JSON report and stderr of `scan CATALOG --lock LOCK -f json EXTRA…`."""
    capsys.readouterr()
    code = main(["scan", str(catalog), "--lock", str(lock), "--format", "json", *extra])
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.err


def _scan_json(
    capsys: pytest.CaptureFixture[str], catalog: Path, lock: Path, *extra: str
) -> tuple[int, dict[str, Any]]:
    code, report, _ = _scan_full(capsys, catalog, lock, *extra)
    return code, report


def _pin(report: dict[str, Any], server: str | None = None) -> dict[str, Any]:
    servers = report["servers"]
    chosen = servers[0] if server is None else next(s for s in servers if s["id"] == server)
    pin: dict[str, Any] = chosen["pin"]
    return pin


def _rules(report: dict[str, Any]) -> set[str]:
    return {f["rule_id"] for s in report["servers"] for f in s["findings"]}


@pytest.fixture
def pinned(tmp_path: Path) -> tuple[Path, Path]:
    """A catalog `notes.json` and a lockfile that pins it."""
    catalog = _write(tmp_path / "v1" / "notes.json", BASE)
    lock = tmp_path / "toolwitness.lock"
    assert main(["lock", str(catalog), "-o", str(lock), "--yes"]) == 0
    return catalog, lock


# --- the matrix ----------------------------------------------------------------------------------


def test_no_entry_reports_the_baseline_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = _write(tmp_path / "notes.json", BASE)
    lock = tmp_path / "toolwitness.lock"
    code, report, err = _scan_full(capsys, catalog, lock)
    assert code == 0
    assert _pin(report) == {
        "state": "unpinned",
        "changes": [],
        "key": "notes",
        "key_from": "serverInfo",
        "policy": "reviewed",
        "resembles": [],
    }
    assert "TW-PIN-001" in _rules(report)
    assert not lock.exists()  # scan --lock never writes the lockfile
    assert "nothing written" in err
    code, report = _scan_json(capsys, catalog, lock, "--strict")
    assert code == 1 and not lock.exists()  # --strict fails on an unpinned server


def test_record_baseline_is_trust_on_first_use_when_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = _write(tmp_path / "notes.json", BASE)
    lock = tmp_path / "toolwitness.lock"
    code, report = _scan_json(capsys, catalog, lock, "--record-baseline")
    assert code == 0 and _pin(report)["state"] == "unpinned"
    entry = read_lock(lock).entry("notes")
    assert entry is not None and set(entry.tools) == {"read_note", "delete_note"}
    code, report = _scan_json(capsys, catalog, lock, "--strict")  # the baseline now matches
    assert code == 0 and _pin(report)["state"] == "matched"
    widened = _write(
        tmp_path / "v2" / "notes.json", _variant(read_note={"annotations": {"readOnlyHint": True}})
    )
    before = lock.read_bytes()
    code, _ = _scan_json(capsys, widened, lock, "--record-baseline")
    assert code == 1 and lock.read_bytes() == before  # a pinned entry is never re-recorded


def test_lock_only_options_need_lock(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    catalog = _write(tmp_path / "notes.json", BASE)
    for extra in (
        ["--record-baseline"],
        ["--server-id", "x"],
        ["--pin-policy", "block-any-change"],
    ):
        capsys.readouterr()
        assert main(["scan", str(catalog), *extra]) == 2
        assert "applies with --lock" in capsys.readouterr().err


def test_unchanged_is_matched(
    pinned: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    catalog, lock = pinned
    before = lock.read_bytes()
    code, report = _scan_json(capsys, catalog, lock, "--strict")
    assert code == 0
    assert _pin(report)["state"] == "matched" and _pin(report)["changes"] == []
    assert not {r for r in _rules(report) if r.startswith("TW-PIN")}
    assert lock.read_bytes() == before  # verifying never rewrites a pinned entry


def test_description_change_is_named_and_warns(
    pinned: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, lock = pinned
    catalog = _write(lock.parent / "v2" / "notes.json", _variant(read_note={"description": "New."}))
    code, report = _scan_json(capsys, catalog, lock)
    assert code == 0  # warn posture: reported, not failed
    assert _pin(report)["state"] == "changed"
    assert _pin(report)["changes"] == [_change("read_note", "modified", fields=["description"])]
    assert "TW-PIN-002" in _rules(report)
    code, _ = _scan_json(capsys, catalog, lock, "--strict")
    assert code == 1


def test_input_schema_change_is_named(
    pinned: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, lock = pinned
    schema = {"type": "object", "properties": {"id": {"type": "string"}, "cc": {"type": "string"}}}
    catalog = _write(
        lock.parent / "v2" / "notes.json", _variant(delete_note={"inputSchema": schema})
    )
    code, report = _scan_json(capsys, catalog, lock)
    assert code == 0
    (change,) = _pin(report)["changes"]
    assert change["tool"] == "delete_note" and change["fields"] == ["inputSchema"]


@pytest.mark.parametrize("posture", [[], ["--fail-on", "critical"], ["--strict"]])
def test_gaining_read_only_is_blocked_whatever_the_posture(
    pinned: tuple[Path, Path], capsys: pytest.CaptureFixture[str], posture: list[str]
) -> None:
    _, lock = pinned
    catalog = _write(
        lock.parent / "v2" / "notes.json",
        _variant(read_note={"annotations": {"readOnlyHint": True}}),
    )
    code, report = _scan_json(capsys, catalog, lock, *posture)
    assert code == 1
    pin = _pin(report)
    assert pin["state"] == "blocked"
    assert pin["changes"] == [
        _change(
            "read_note",
            "modified",
            fields=["annotations"],
            widening=True,
            hints=[{"hint": "readOnlyHint", "before": None, "after": True, "kind": "widening"}],
            blocked_by=["widening"],
        )
    ]
    assert "TW-PIN-005" in _rules(report)


def test_dropping_destructive_is_blocked(
    pinned: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, lock = pinned
    catalog = _write(lock.parent / "v2" / "notes.json", _variant(delete_note={"annotations": {}}))
    code, report = _scan_json(capsys, catalog, lock)
    assert code == 1 and _pin(report)["state"] == "blocked"
    (change,) = _pin(report)["changes"]
    assert change["hints"] == [
        {"hint": "destructiveHint", "before": True, "after": None, "kind": "widening"}
    ]


def test_losing_read_only_is_reported_not_blocked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lock = tmp_path / "toolwitness.lock"
    ro = _variant(read_note={"annotations": {"readOnlyHint": True}})
    assert (
        main(["lock", str(_write(tmp_path / "v1" / "notes.json", ro)), "-o", str(lock), "-y"]) == 0
    )
    catalog = _write(tmp_path / "v2" / "notes.json", BASE)
    code, report = _scan_json(capsys, catalog, lock)
    assert code == 0
    pin = _pin(report)
    assert pin["state"] == "changed"
    assert pin["changes"][0]["widening"] is False
    assert pin["changes"][0]["hints"] == [
        {"hint": "readOnlyHint", "before": True, "after": None, "kind": "narrowing"}
    ]
    assert {"TW-PIN-002", "TW-PIN-007"} <= _rules(report)
    assert "TW-PIN-005" not in _rules(report)


def test_added_and_removed_tools_are_named(
    pinned: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, lock = pinned
    doc = copy.deepcopy(BASE)
    doc["tools"] = [doc["tools"][0], {"name": "export", "inputSchema": {"type": "object"}}]
    code, report = _scan_json(capsys, _write(lock.parent / "v2" / "notes.json", doc), lock)
    assert code == 0
    assert _pin(report)["state"] == "changed"
    assert _pin(report)["changes"] == [
        _change("delete_note", "removed"),
        _change("export", "added"),
    ]
    assert {"TW-PIN-003", "TW-PIN-004"} <= _rules(report)


def test_new_tool_claiming_read_only_warns_and_a_named_policy_blocks_it(
    pinned: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, lock = pinned
    doc = copy.deepcopy(BASE)
    doc["tools"].append(
        {"name": "peek", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}}
    )
    catalog = _write(lock.parent / "v2" / "notes.json", doc)
    code, report = _scan_json(capsys, catalog, lock)
    assert code == 0  # an added tool is a change, not a tool moving to a more trusted tier
    assert _pin(report)["state"] == "changed"
    (finding,) = [f for f in report["servers"][0]["findings"] if f["rule_id"] == "TW-PIN-006"]
    assert finding["severity"] == "medium"
    code, report = _scan_json(capsys, catalog, lock, "--pin-policy", "block-new-read-only")
    assert code == 1 and _pin(report)["state"] == "blocked"
    assert _pin(report)["policy"] == "block-new-read-only"
    assert _pin(report)["changes"] == [_change("peek", "added", blocked_by=["policy"])]
    (finding,) = [f for f in report["servers"][0]["findings"] if f["rule_id"] == "TW-PIN-006"]
    assert finding["severity"] == "critical" and "--pin-policy" in finding["message"]


def test_block_any_change_policy(
    pinned: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, lock = pinned
    catalog = _write(lock.parent / "v2" / "notes.json", _variant(read_note={"description": "R."}))
    code, report = _scan_json(capsys, catalog, lock, "--pin-policy", "block-any-change")
    assert code == 1 and _pin(report)["state"] == "blocked"
    assert _pin(report)["changes"][0]["blocked_by"] == ["policy"]
    code, report = _scan_json(capsys, catalog, lock, "--pin-policy", "block-new-read-only")
    assert code == 0 and _pin(report)["state"] == "changed"


def test_same_tool_name_on_two_servers_never_collides(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    v1 = tmp_path / "v1"
    _write(v1 / "alpha.json", _named(BASE, "alpha"))
    _write(v1 / "beta.json", _named(_variant(read_note={"description": "Beta's reader."}), "beta"))
    lock = tmp_path / "toolwitness.lock"
    assert main(["lock", str(v1), "-o", str(lock), "--yes"]) == 0
    entries = read_lock(lock).servers
    assert entries["alpha"].tools["read_note"] != entries["beta"].tools["read_note"]
    v2 = tmp_path / "v2"
    _write(v2 / "alpha.json", _named(BASE, "alpha"))
    widened = _variant(read_note={"annotations": {"readOnlyHint": True}})
    _write(v2 / "beta.json", _named(widened, "beta"))
    code, report = _scan_json(capsys, v2, lock)
    assert code == 1
    assert _pin(report, "alpha")["state"] == "matched"
    assert _pin(report, "beta")["state"] == "blocked"


def test_lock_holds_no_description_or_schema_text(pinned: tuple[Path, Path]) -> None:
    _, lock = pinned
    text = lock.read_text("utf-8")
    assert "MARKER-DESCRIPTION-TEXT" not in text
    assert SECRET_SCHEMA_TEXT not in text
    assert "Deletes a note" not in text
    assert '"read_note"' in text  # names and digests are what it holds


def test_report_with_pin_matches_the_shipped_schema(
    pinned: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    from importlib import resources

    _, lock = pinned
    catalog = _write(lock.parent / "v2" / "notes.json", _variant(read_note={"description": "x"}))
    _, report = _scan_json(capsys, catalog, lock)
    schema = json.loads(
        resources.files("toolwitness.data").joinpath("report.schema.json").read_text("utf-8")
    )
    jsonschema.validate(report, schema)


# --- toolwitness lock ----------------------------------------------------------------------------


def test_lock_refuses_to_repin_without_yes_on_non_interactive_stdin(
    pinned: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, lock = pinned
    before = lock.read_bytes()
    catalog = _write(lock.parent / "v2" / "notes.json", _variant(read_note={"description": "x"}))
    capsys.readouterr()
    assert main(["lock", str(catalog), "-o", str(lock)]) == 2
    captured = capsys.readouterr()
    assert "modified" in captured.out and "read_note" in captured.out
    assert "--yes" in captured.err
    assert lock.read_bytes() == before


def test_lock_up_to_date_writes_nothing(
    pinned: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    catalog, lock = pinned
    stat = lock.stat()
    capsys.readouterr()
    assert main(["lock", str(catalog), "-o", str(lock)]) == 0
    assert "up to date" in capsys.readouterr().out
    assert lock.stat().st_mtime_ns == stat.st_mtime_ns


def test_repin_shows_widening_and_keeps_other_servers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lock = tmp_path / "toolwitness.lock"
    for name in ("one", "two"):
        catalog = _write(tmp_path / "a" / f"{name}.json", _named(BASE, name))
        assert main(["lock", str(catalog), "-o", str(lock), "-y"]) == 0
    widened = _named(_variant(read_note={"annotations": {"readOnlyHint": True}}), "one")
    capsys.readouterr()
    assert (
        main(["lock", str(_write(tmp_path / "b" / "x.json", widened)), "-o", str(lock), "-y"]) == 0
    )
    out = capsys.readouterr().out
    assert "readOnlyHint: absent → true [widening]" in out
    servers = read_lock(lock).servers
    assert set(servers) == {"one", "two"}
    assert servers["one"].tools["read_note"].hints == {"readOnlyHint": True}


# --- the file format ------------------------------------------------------------------------------


def _surface() -> ServerSurface:
    return ServerSurface(
        id="s",
        tools=(
            Tool(name="b", inputSchema={"type": "object"}, annotations={"readOnlyHint": True}),
            Tool(name="a", description="x", inputSchema={"type": "object"}),
        ),
    )


def test_render_is_sorted_one_line_per_tool_and_round_trips() -> None:
    lock = Lockfile().with_entries({"s": entry_for(_surface())})
    text = render_lock(lock)
    assert text == render_lock(parse_lock(text.encode(), "t"))
    lines = text.splitlines()
    tool_lines = [line for line in lines if '"digest"' in line]
    assert [line.split(":")[0].strip() for line in tool_lines] == ['"a"', '"b"']
    assert parse_lock(text.encode(), "t") == lock
    assert json.loads(text)["schema"] == LOCK_SCHEMA


def _good_doc() -> dict[str, Any]:
    return json.loads(render_lock(Lockfile().with_entries({"s": entry_for(_surface())})))


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.update(schema="other/1"), "not a toolwitness lockfile"),
        (lambda d: d["servers"]["s"].update(surface="md5:abc"), "invalid lockfile"),
        (lambda d: d["servers"]["s"]["tools"]["a"]["hints"].update(readOnlyHint="yes"), "invalid"),
        (
            lambda d: d["servers"]["s"]["tools"]["a"]["hints"].update(sneakyHint=True),
            "hints may only",
        ),
        (lambda d: d["servers"]["s"]["tools"]["a"]["fields"].pop("description"), "fields must be"),
        (lambda d: d["servers"]["s"].update(description="text"), "invalid lockfile"),
        (lambda d: d.update(servers=[]), "invalid lockfile"),
    ],
)
def test_hostile_lockfiles_are_rejected(mutate: Any, message: str) -> None:
    doc = _good_doc()
    mutate(doc)
    with pytest.raises(InputError, match=message):
        parse_lock(json.dumps(doc).encode(), "t.lock")


def test_duplicate_keys_in_a_lockfile_are_rejected(tmp_path: Path) -> None:
    text = render_lock(Lockfile().with_entries({"s": entry_for(_surface())}))
    doubled = text.replace('"servers": {', '"servers": {"s": {}, ', 1)
    lock = tmp_path / "x.lock"
    lock.write_text(doubled)
    with pytest.raises(InputError, match="duplicate key"):
        read_lock(lock)
    assert main(["scan", str(_write(tmp_path / "s.json", BASE)), "--lock", str(lock)]) == 2


def test_missing_lock_is_an_error_only_where_it_must_exist(tmp_path: Path) -> None:
    assert read_lock(tmp_path / "none.lock").servers == {}
    with pytest.raises(InputError, match="no such lockfile"):
        read_lock(tmp_path / "none.lock", missing_ok=False)


def test_config_entries_without_a_tools_list_are_neither_pinned_nor_compared(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = _write(
        tmp_path / "claude_desktop_config.json",
        {"mcpServers": {"mem": {"command": "npx", "args": ["-y", "some-server@1.0.0"]}}},
    )
    lock = tmp_path / "toolwitness.lock"
    assert main(["lock", str(config), "-o", str(lock), "--yes"]) == 2
    assert "nothing to pin" in capsys.readouterr().err
    assert not lock.exists()
    catalog = _write(tmp_path / "notes.json", BASE)
    _, report = _scan_json(capsys, config, lock)
    assert _pin(report, "mem") is None  # a config entry has no tools to compare
    _scan_json(capsys, catalog, lock, "--record-baseline")
    _, report = _scan_json(capsys, config, lock, "--record-baseline")
    assert set(read_lock(lock).servers) == {"notes"}
    code, _, err = _scan_full(capsys, config, lock, "--strict")
    assert code == 1  # --strict: a server whose tools could not be compared does not pass
    assert "without a tools list" in err


@pytest.mark.live
def test_live_scan_pins_then_matches_a_real_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from conftest import npm_server_entry

    monkeypatch.setenv("MEMORY_FILE_PATH", str(tmp_path / "memory.jsonl"))
    entry = str(npm_server_entry("@modelcontextprotocol/server-memory"))
    lock = tmp_path / "toolwitness.lock"
    argv = ["scan", "--live", "--lock", str(lock), "--record-baseline", "-f", "json", "--", "node"]
    argv.append(entry)
    for expected in ("unpinned", "matched"):
        capsys.readouterr()
        main(argv)
        report = json.loads(capsys.readouterr().out)
        assert _pin(report)["state"] == expected
        assert (_pin(report)["key"], _pin(report)["key_from"]) == ("server-memory", "spec")
    (server,) = read_lock(lock).servers.values()
    assert server.spawn is not None and len(server.tools) == 9


def test_terminal_report_names_the_pin_state(
    pinned: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _, lock = pinned
    catalog = _write(
        lock.parent / "v2" / "notes.json",
        _variant(read_note={"annotations": {"readOnlyHint": True}}),
    )
    capsys.readouterr()
    assert main(["scan", str(catalog), "--lock", str(lock)]) == 1
    out = capsys.readouterr().out
    assert "pin blocked" in out
    assert "TW-PIN-005" in out and "readOnlyHint: absent → true" in out


def test_lockfile_that_is_not_a_regular_file_or_too_big(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="not a regular file"):
        read_lock(Path("/dev/zero"))
    from toolwitness.acquire.limits import InputLimits

    big = tmp_path / "big.lock"
    big.write_text(" " * 2048)
    with pytest.raises(InputError, match="over the 1024-byte limit"):
        read_lock(big, InputLimits(max_file_bytes=1024))


def _lock_on_a_terminal(catalog: Path, lock: Path, answer: bytes) -> tuple[int, str]:
    """Run `toolwitness lock` with a pseudo-terminal as stdin and answer its question."""
    import os
    import pty
    import subprocess
    import sys
    import time

    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "toolwitness", "lock", str(catalog), "-o", str(lock)],
        stdin=slave,
        stdout=slave,
        stderr=slave,
    )
    os.close(slave)
    seen = b""
    deadline = time.monotonic() + 120
    while b"[y/N]" not in seen:
        if time.monotonic() > deadline:  # a hang, not a speed test
            pytest.fail(f"no prompt after 120 s: {seen!r}")
        seen += os.read(master, 4096)
    os.write(master, answer)
    code = proc.wait(timeout=60)
    try:
        while chunk := os.read(master, 4096):
            seen += chunk
    except OSError:  # the terminal's other side is gone
        pass
    os.close(master)
    return code, seen.decode(errors="replace")


def test_lock_asks_on_a_terminal(tmp_path: Path) -> None:
    catalog = _write(tmp_path / "notes.json", BASE)
    lock = tmp_path / "toolwitness.lock"
    code, shown = _lock_on_a_terminal(catalog, lock, b"n\n")
    assert code == 1 and "new pin (2 tools)" in shown and "nothing written" in shown
    assert not lock.exists()
    code, shown = _lock_on_a_terminal(catalog, lock, b"y\n")
    assert code == 0 and "wrote" in shown
    assert set(read_lock(lock).servers) == {"notes"}

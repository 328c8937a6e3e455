"""The rug-pull matrix, end to end, with the default policy: `scan --lock` and the gateway agree.

One real stdio server (`fixtures/shifting_server.py`) is pinned once; each variant of its tools
(`shift {"variant": V}` mid-session, or `--dump-tools --variant V` as a catalog) must behave as
the reviewed matrix says:

| variant | pin state | scan --lock exit | gateway |
|---|---|---|---|
| pin (same) | matched | 0 | every tool passes |
| description changed (reword) | changed | 0 | passes, warning on stderr |
| tool added | changed | 0 | passes, warning |
| tool added claiming read-only | changed | 0 | passes, warning |
| readOnlyHint gained | blocked | 1 | dropped, call refused |
| readOnlyHint lost | changed | 0 | passes, warning (narrowing) |
| destructiveHint dropped | blocked | 1 | dropped |
| reordering only | matched | 0 | every tool passes |
| injected description (poison) | blocked | 1 | dropped, the finding on stderr |
| rename of the catalog file / the server script | matched | 0 | every tool passes |

The gateway leg runs one session through the official `mcp` SDK client; the stderr and audit
lines written while each variant was listed are kept and checked per variant.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import mcp.types as mcp_types
import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

from conftest import FIXTURES
from toolwitness.cli import main

SHIFTING = FIXTURES / "shifting_server.py"
KEY = "shifting-notes"  # the serverInfo name the fixture reports: the lock key
TOOLS = {"search_notes", "delete_note", "sync", "shift"}


@dataclass(frozen=True)
class Row:
    state: str
    exit: int
    dropped: frozenset[str] = frozenset()
    warned: frozenset[str] = frozenset()  # changed tools that pass with a stderr warning
    added: frozenset[str] = frozenset()


MATRIX: dict[str, Row] = {
    "same": Row("matched", 0),
    "reword": Row("changed", 0, warned=frozenset({"search_notes"})),
    "add": Row("changed", 0, warned=frozenset({"export_notes"}), added=frozenset({"export_notes"})),
    "add-read-only": Row(
        "changed", 0, warned=frozenset({"count_notes"}), added=frozenset({"count_notes"})
    ),
    "gain-read-only": Row("blocked", 1, dropped=frozenset({"sync"})),
    "lose-read-only": Row("changed", 0, warned=frozenset({"search_notes"})),
    "drop-destructive": Row("blocked", 1, dropped=frozenset({"delete_note"})),
    "reorder": Row("matched", 0),
    "poison": Row("blocked", 1, dropped=frozenset({"search_notes"})),
}
POISON_MARKERS = ("id_rsa", "do not mention")


def _dump(path: Path, *options: str) -> Path:
    done = subprocess.run(
        [sys.executable, str(SHIFTING), "--dump-tools", *options],
        capture_output=True,
        check=True,
        text=True,
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(done.stdout)
    return path


@pytest.fixture(scope="module")
def pinned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A lockfile pinning the fixture's initial tools under its serverInfo name."""
    work = tmp_path_factory.mktemp("matrix")
    lock = work / "toolwitness.lock"
    assert main(["lock", str(_dump(work / "v1" / "notes.json")), "-o", str(lock), "--yes"]) == 0
    return lock


def _scan(
    capsys: pytest.CaptureFixture[str], catalog: Path, lock: Path, *extra: str
) -> tuple[int, dict[str, Any], str]:
    capsys.readouterr()
    code = main(["scan", str(catalog), "--lock", str(lock), "-f", "json", *extra])
    captured = capsys.readouterr()
    server = json.loads(captured.out)["servers"][0]
    return code, server, captured.err


# --- scan --lock ---------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(MATRIX))
def test_scan_lock_matrix(
    variant: str, pinned: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    row = MATRIX[variant]
    catalog = _dump(tmp_path / "v2" / "notes.json", "--variant", variant)
    before = pinned.read_bytes()
    code, server, _ = _scan(capsys, catalog, pinned)
    assert (server["pin"]["state"], code) == (row.state, row.exit)
    assert server["pin"]["key"] == KEY and server["pin"]["key_from"] == "serverInfo"
    changes = {c["tool"]: c for c in server["pin"]["changes"]}
    blocked = {name for name, c in changes.items() if c["blocked_by"]}
    assert blocked == set(row.dropped)
    assert set(changes) == set(row.dropped | row.warned)
    assert {n for n, c in changes.items() if c["change"] == "added"} == set(row.added)
    assert pinned.read_bytes() == before  # verifying never writes the lockfile
    rules = {f["rule_id"] for f in server["findings"]}
    if variant == "poison":
        assert "TW-PIN-009" in rules  # the re-check: the change brings an injection finding
        assert {"TW-INJ-012", "TW-INJ-002"} <= set(changes["search_notes"]["blocked_by"])
    if variant in ("gain-read-only", "drop-destructive"):
        assert "TW-PIN-005" in rules and changes[next(iter(row.dropped))]["widening"]
    if variant == "add-read-only":
        assert "TW-PIN-006" in rules


def test_scan_lock_rename_of_the_catalog_file_keeps_the_pin(
    pinned: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    renamed = _dump(tmp_path / "elsewhere" / "my-notes-server.json")
    code, server, _ = _scan(capsys, renamed, pinned, "--strict")
    assert (code, server["pin"]["state"], server["pin"]["key"]) == (0, "matched", KEY)
    widened = _dump(tmp_path / "elsewhere" / "v2-copy.json", "--variant", "gain-read-only")
    code, server, _ = _scan(capsys, widened, pinned)
    assert (code, server["pin"]["state"]) == (1, "blocked")  # renamed and widened: still caught


def test_bare_catalog_renamed_is_never_pinned_by_its_file_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The defeat this issue reports: pin v1.json, scan a widened copy saved under another name."""
    lock = tmp_path / "toolwitness.lock"
    v1 = _dump(tmp_path / "v1.json", "--bare")
    assert main(["lock", str(v1), "-o", str(lock), "--yes"]) == 2  # no identity: refused
    assert main(["lock", str(v1), "-o", str(lock), "--yes", "--server-id", "notes"]) == 0
    before = lock.read_bytes()
    widened = _dump(tmp_path / "v2.json", "--bare", "--variant", "gain-read-only")
    code, server, err = _scan(capsys, widened, lock)
    assert server["pin"]["state"] == "unpinned" and server["pin"]["key"] is None
    assert server["pin"]["resembles"] == [
        {
            "server": "notes",
            "same_surface": False,
            "shared_tools": 4,
            "identical_tools": 3,
            "pinned_tools": 4,
        }
    ]
    assert {"TW-PIN-001", "TW-PIN-010"} <= {f["rule_id"] for f in server["findings"]}
    assert "resembles pinned server 'notes'" in err and "--server-id notes" in err
    assert lock.read_bytes() == before  # never silently recorded as a new approved baseline
    code, _, _ = _scan(capsys, widened, lock, "--strict")
    assert code == 1
    code, server, _ = _scan(capsys, widened, lock, "--server-id", "notes")
    assert (code, server["pin"]["state"]) == (1, "blocked")
    assert main(["scan", str(widened), "--lock", str(lock), "--record-baseline"]) == 0
    assert lock.read_bytes() == before  # no key, nothing to record it under


# --- the gateway ---------------------------------------------------------------------------------


@dataclass
class Seen:
    tools: set[str]
    refused: dict[str, str]
    stderr: str
    record: dict[str, Any]


@dataclass
class Session:
    first: Seen | None = None
    by_variant: dict[str, Seen] = field(default_factory=dict)
    audit: str = ""


async def _drive(argv: list[str], errlog: Path, audit: Path, variants: list[str]) -> Session:
    seen = Session()
    changed = anyio.Event()

    async def on_message(message: Any) -> None:
        nonlocal changed
        if isinstance(message, mcp_types.ToolListChangedNotification):
            changed.set()

    def new_lines(offset: list[int], path: Path) -> str:
        text = path.read_text() if path.exists() else ""
        fresh = text[offset[0] :]
        offset[0] = len(text)
        return fresh

    err_at, audit_at = [0], [0]
    params = StdioServerParameters(command=argv[0], args=argv[1:])
    with errlog.open("w") as err, anyio.fail_after(120):
        async with (
            stdio_client(params, errlog=err) as (read, write),
            ClientSession(read, write, message_handler=on_message) as session,
        ):
            await session.initialize()

            async def look(dropped: frozenset[str]) -> Seen:
                listed = {t.name for t in (await session.list_tools()).tools}
                refused = {}
                for name in sorted(dropped):
                    with pytest.raises(MCPError) as caught:
                        await session.call_tool(name, {})
                    refused[name] = caught.value.error.message
                records = [json.loads(x) for x in new_lines(audit_at, audit).splitlines()]
                lists = [r for r in records if r["event"] == "tools/list"]
                return Seen(listed, refused, new_lines(err_at, errlog), lists[-1])

            seen.first = await look(frozenset())
            for variant in variants:
                changed = anyio.Event()
                await session.call_tool("shift", {"variant": variant})
                with anyio.fail_after(20):
                    await changed.wait()
                seen.by_variant[variant] = await look(MATRIX[variant].dropped)
    seen.audit = audit.read_text()
    return seen


def _gateway(lock: Path, *options: str) -> list[str]:
    return [sys.executable, "-m", "toolwitness", "gateway", "--lock", str(lock), *options, "--"]


@pytest.fixture(scope="module")
def session(pinned: Path, tmp_path_factory: pytest.TempPathFactory) -> Session:
    """One gateway session that walks the whole matrix, back to the pin between variants."""
    work = tmp_path_factory.mktemp("gateway")
    renamed = work / "renamed_server.py"  # the server under another file name: same pin
    shutil.copy(SHIFTING, renamed)
    audit = work / "audit.jsonl"
    argv = [*_gateway(pinned, "--audit", str(audit)), sys.executable, str(renamed)]
    return anyio.run(_drive, argv, work / "stderr.txt", audit, sorted(MATRIX))


@pytest.mark.live
@pytest.mark.parametrize("variant", sorted(MATRIX))
def test_gateway_matrix(variant: str, session: Session) -> None:
    row = MATRIX[variant]
    seen = session.by_variant[variant]
    expected = (TOOLS | row.added) - row.dropped
    assert seen.tools == expected
    assert seen.record["state"] == row.state and seen.record["server"] == KEY
    assert set(seen.record["dropped"]) == set(row.dropped)
    assert set(seen.refused) == set(row.dropped)
    for name, message in seen.refused.items():
        assert f"tool {name!r} was blocked" in message
    for name in row.dropped:
        assert f"dropped tool {name!r}: blocked" in seen.stderr
    for name in row.warned:
        assert f"tool {name!r} passed with a warning" in seen.stderr
    if not row.dropped and not row.warned:
        assert seen.stderr == ""


@pytest.mark.live
def test_gateway_found_the_pin_by_serverinfo_despite_the_renamed_script(session: Session) -> None:
    assert session.first is not None
    assert session.first.tools == TOOLS and session.first.record["state"] == "matched"
    assert '"event":"identified"' in session.audit and '"from":"serverInfo"' in session.audit


@pytest.mark.live
def test_mid_session_injection_is_dropped_and_named_on_stderr(session: Session) -> None:
    poison = session.by_variant["poison"]
    assert "search_notes" not in poison.tools
    line = next(x for x in poison.stderr.splitlines() if "search_notes" in x)
    assert "the change brings TW-INJ-012 (critical) at tools[0].description" in line
    assert "TW-INJ-012" in poison.refused["search_notes"]
    change = poison.record["changes"][0]
    assert change["fields"] == ["description"] and "TW-INJ-012" in change["blocked_by"]
    benign = session.by_variant["reword"]
    assert "search_notes" in benign.tools
    assert "passed with a warning: changed since pinned (description)" in benign.stderr
    for marker in POISON_MARKERS:  # the audit log holds digests and names, never the text
        assert marker not in session.audit
    assert "Find the user's notes" not in session.audit


def test_reports_of_the_new_pin_fields_match_the_shipped_schema(
    pinned: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from importlib import resources

    import jsonschema

    schema = json.loads(
        resources.files("toolwitness.data").joinpath("report.schema.json").read_text("utf-8")
    )
    poisoned = _dump(tmp_path / "p.json", "--variant", "poison")
    bare = _dump(tmp_path / "bare.json", "--bare")
    for args in (
        [str(poisoned), "--lock", str(pinned)],
        [str(bare), "--lock", str(pinned)],
        [str(poisoned), "--lock", str(pinned), "--pin-policy", "block-any-change"],
    ):
        capsys.readouterr()
        main(["scan", *args, "-f", "json"])
        report = json.loads(capsys.readouterr().out)
        jsonschema.validate(report, schema)
    assert report["servers"][0]["pin"]["policy"] == "block-any-change"

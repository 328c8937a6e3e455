"""End to end through the CLI: the lab's verdicts on fixture servers that differ only in behaviour.

Every fixture lists byte-identical tools; what the lab reports must come from what the tool did.
"""

from __future__ import annotations

import json
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from conftest import FIXTURES
from toolwitness.cli import main
from toolwitness.lab.names import lab_names

SERVER = FIXTURES / "lab" / "lab_server.py"
SEED = "5eed"
NAMES = lab_names(SEED)
NOTES = f"$WORK/{NAMES.notes}"
NOTE = f"{NOTES}/{NAMES.note}"

pytestmark = pytest.mark.requires_tools("bwrap", "strace")


def _probe(tmp_path: Path, *target: str, extra: tuple[str, ...] = ()) -> tuple[int, dict[str, Any]]:
    out = tmp_path / "report.json"
    code = main(
        ["probe", "-f", "json", "-o", str(out), "--call-timeout", "4", *extra, "--", *target]
    )
    return code, json.loads(out.read_text(encoding="utf-8"))


def _fixture(tmp_path: Path, behaviour: str, *extra: str) -> tuple[dict[str, Any], dict[str, Any]]:
    args = ("--seed", SEED, *extra)
    code, report = _probe(tmp_path, sys.executable, str(SERVER), behaviour, extra=args)
    assert code == 0
    schema = resources.files("toolwitness.data").joinpath("report.schema.json").read_text()
    jsonschema.validate(report, json.loads(schema))
    (server,) = report["servers"]
    tools = {t["name"]: t for t in server["tools"]}
    return tools, server


def _lab_rules(server: dict[str, Any], tool: str) -> set[str]:
    return {f["rule_id"] for f in server["findings"] if f["tool"] == tool and "LAB" in f["rule_id"]}


def test_twins_list_byte_identical_tools() -> None:
    def listing(behaviour: str) -> bytes:
        request = (
            '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18"}}\n'
            '{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n'
        )
        done = subprocess.run(
            [sys.executable, str(SERVER), behaviour], input=request.encode(), capture_output=True,
            timeout=30, check=True, cwd=FIXTURES,
        )  # fmt: skip
        return done.stdout.splitlines()[1]

    first = listing("clean")
    for behaviour in ("dirty", "deleter", "spawner", "startup", "canary", "envleak", "network"):
        assert listing(behaviour) == first


def test_read_that_logs_and_creates_its_subject_is_confirmed(tmp_path: Path) -> None:
    tools, server = _fixture(tmp_path, "dirty")
    probe = tools["read_note"]["probe"]
    assert probe["verdict"] == "confirmed"
    evidence = probe["evidence"]
    paths = {(o.get("change"), o.get("path")) for o in evidence["observed"]}
    assert ("created", "~/.cache/notes/reads.log") in paths
    nonce = next(t for t in evidence["tries"] if t["plan"] == "nonce")
    nonce_path = nonce["arguments"]["path"]
    assert ("created", nonce_path) in paths
    assert evidence["created_own_subject"] == [nonce_path]
    log = next(o for o in evidence["observed"] if o.get("path") == "~/.cache/notes/reads.log")
    assert log["excerpt"].startswith(f"read {NOTE}")
    assert evidence["self_test"] == {
        "filesystem": True,
        "syscalls": True,
        "detail": "the snapshot saw the three self-test files; the tracer saw the three writes",
    }
    assert any(o["witness"] == "syscalls" and o["kind"] == "write" for o in evidence["observed"])
    assert _lab_rules(server, "read_note") == {"TW-LAB-001"}
    # The tool that declares readOnlyHint false is never called, and says why.
    assert tools["write_note"]["probe"]["verdict"] == "skipped"
    assert "readOnlyHint false" in tools["write_note"]["probe"]["evidence"]["reason"]


def test_clean_twin_is_refuted_with_proof_the_witness_was_live(tmp_path: Path) -> None:
    tools, server = _fixture(tmp_path, "clean")
    probe = tools["read_note"]["probe"]
    assert probe["verdict"] == "refuted"
    evidence = probe["evidence"]
    # The planted note is read; the nonce path is absent, in both forms the lab tries.
    assert [(t["plan"], t["try"], t["error_answer"]) for t in evidence["tries"]] == [
        ("planted", 1, False), ("nonce", 1, True), ("nonce", 2, True),
    ]  # fmt: skip
    assert probe["calls"] == evidence["calls"] == 3 and probe["calls_errored"] == 2
    assert evidence["calls_exercised"] == 1 and evidence["answers_traced"] == 3
    assert probe["evidence"]["self_test"]["filesystem"] is True
    assert tools["count_notes"]["probe"]["verdict"] == "refuted"  # unannotated, read word
    assert not any("LAB" in f["rule_id"] for f in server["findings"])


def test_deletion_is_confirmed_and_named(tmp_path: Path) -> None:
    tools, server = _fixture(tmp_path, "deleter")
    evidence = tools["read_note"]["probe"]["evidence"]
    assert tools["read_note"]["probe"]["verdict"] == "confirmed"
    deleted = {o["path"] for o in evidence["observed"] if o.get("change") == "deleted"}
    assert deleted == {NOTE, f"{NOTES}/{NAMES.second}"}
    assert any(o.get("kind") == "unlink" for o in evidence["observed"])
    assert "TW-LAB-002" in _lab_rules(server, "read_note")


def test_a_spawn_that_writes_nothing_is_confirmed_by_syscalls(tmp_path: Path) -> None:
    tools, server = _fixture(tmp_path, "spawner")
    evidence = tools["read_note"]["probe"]["evidence"]
    assert tools["read_note"]["probe"]["verdict"] == "confirmed"
    assert {o["witness"] for o in evidence["observed"]} == {"syscalls"}
    assert {(o["kind"], o["target"]) for o in evidence["observed"]} == {
        ("exec", "/bin/true")
    }  # argv: none
    assert _lab_rules(server, "read_note") == {"TW-LAB-003"}


def test_without_the_syscall_witness_the_spawn_goes_unseen(tmp_path: Path) -> None:
    """--no-syscalls leaves only the filesystem witness, which a spawn does not touch."""
    tools, _ = _fixture(tmp_path, "spawner", "--no-syscalls")
    evidence = tools["read_note"]["probe"]["evidence"]
    assert tools["read_note"]["probe"]["verdict"] == "refuted"
    assert evidence["self_test"]["syscalls"] is None and evidence["answers_traced"] is None


def test_start_up_writes_are_subtracted_by_the_control_run(tmp_path: Path) -> None:
    tools, server = _fixture(tmp_path, "startup")
    verdicts = {name: t["probe"]["verdict"] for name, t in tools.items()}
    assert verdicts == {"read_note": "refuted", "count_notes": "refuted", "write_note": "skipped"}
    subtracted = [
        s for t in tools.values() for s in t["probe"]["evidence"].get("control_subtracted", [])
    ]
    # The lazy write lands during a call (the file and its open), and the control run removes it.
    assert "created $TMPDIR/index.state" in subtracted
    assert "write $TMPDIR/index.state" in subtracted
    assert not any("LAB" in f["rule_id"] for f in server["findings"])


def test_reading_a_canary_credential_is_confirmed(tmp_path: Path) -> None:
    tools, server = _fixture(tmp_path, "canary")
    evidence = tools["read_note"]["probe"]["evidence"]
    assert tools["read_note"]["probe"]["verdict"] == "confirmed"
    read = {o["target"] for o in evidence["observed"] if o.get("kind") == "canary-read"}
    assert read == {"~/.ssh/id_rsa", "~/.aws/credentials"}
    assert _lab_rules(server, "read_note") == {"TW-LAB-005"}


def test_a_canary_variable_in_the_answer_or_a_file_is_confirmed(tmp_path: Path) -> None:
    tools, server = _fixture(tmp_path, "envleak")
    evidence = tools["read_note"]["probe"]["evidence"]
    assert {o.get("canary") for o in evidence["observed"]} >= {"env-variable"}
    leak = next(f for f in server["findings"] if f["rule_id"] == "TW-LAB-005")
    assert any(w.get("path") == ["$TMPDIR/leak.txt"] for w in leak["witnesses"])
    assert "TW-LAB-001" in _lab_rules(server, "read_note")  # it wrote the file too


def test_a_connection_attempt_is_confirmed_though_the_lab_has_no_network(tmp_path: Path) -> None:
    tools, server = _fixture(tmp_path, "network")
    evidence = tools["read_note"]["probe"]["evidence"]
    connects = [o for o in evidence["observed"] if o.get("kind") == "connect"]
    assert connects and "192.0.2.1" in connects[0]["target"]
    assert connects[0]["result"].startswith("-1 ")  # it failed, and it still counts
    assert _lab_rules(server, "read_note") == {"TW-LAB-004"}


def test_all_tools_calls_the_write_tool_too(tmp_path: Path) -> None:
    tools, _ = _fixture(tmp_path, "clean", "--all-tools")
    assert tools["write_note"]["probe"]["verdict"] == "confirmed"
    changed = {o.get("path") for o in tools["write_note"]["probe"]["evidence"]["observed"]}
    assert NOTE in changed
    assert tools["read_note"]["probe"]["verdict"] == "refuted"


def test_terminal_report_shows_the_lab_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["probe", "--seed", "abc", "--", sys.executable, str(SERVER), "clean"]) == 0
    text = capsys.readouterr().out
    assert "lab" in text and "refuted" in text and "skipped" in text


def test_lab_needs_live_servers(tmp_path: Path, write_json: Any) -> None:
    catalog = write_json("tools.json", {"tools": []})
    assert main(["scan", "--lab", str(catalog)]) == 2


@pytest.mark.parametrize(
    ("behaviour", "reason"),
    [("hang", "no answer within 4s"), ("crash", "exited with code 7")],
)
def test_hang_and_crash_are_errored_with_a_reason(
    tmp_path: Path, behaviour: str, reason: str
) -> None:
    tools, server = _fixture(tmp_path, behaviour)
    probe = tools["read_note"]["probe"]
    assert probe["verdict"] == "errored"
    assert reason in probe["evidence"]["reason"]
    assert "not called: read_note (nonce)" in probe["evidence"]["reason"]
    assert _lab_rules(server, "read_note") == {"TW-LAB-006"}


def test_a_flood_is_bounded_and_reported(tmp_path: Path) -> None:
    tools, _ = _fixture(tmp_path, "flood")
    probe = tools["read_note"]["probe"]
    # Either the call ran out of time while flooding, or the snapshot refused the flood:
    # both are named, and the files it did create are the evidence.
    text = json.dumps(probe["evidence"])
    assert "no answer within 4s" in text or "flooded" in text
    assert probe["verdict"] in ("confirmed", "errored")
    assert len(probe["evidence"].get("observed", [])) <= 50


def test_scan_lab_continues_past_a_hanging_server(tmp_path: Path) -> None:
    out = tmp_path / "scan.json"
    code = main([
        "scan", "--lab", "--call-timeout", "3", "-f", "json", "-o", str(out),
        "--stdio", f"{sys.executable} {SERVER} hang", "--stdio", f"{sys.executable} {SERVER} dirty",
    ])  # fmt: skip
    report = json.loads(out.read_text(encoding="utf-8"))
    assert code == 0
    by_server = {
        s["id"]: {t["name"]: (t["probe"] or {}).get("verdict") for t in s["tools"]}
        for s in report["servers"]
    }
    assert by_server["lab_server hang"]["read_note"] == "errored"
    assert by_server["lab_server dirty"]["read_note"] == "confirmed"


def test_probe_needs_a_server(tmp_path: Path) -> None:
    assert main(["probe", "--", "definitely-not-a-command-xyz"]) == 2
    # Nothing listens on port 9: the lab cannot list the tools, so nothing was verified.
    assert main(["probe", "http://127.0.0.1:9/mcp", "--timeout", "5"]) == 3


def _serve_http(behaviour: str, root: Path) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [sys.executable, str(SERVER), behaviour, "--http", "0", "--root", str(root)],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert process.stdout is not None
    port = process.stdout.readline().split()[1]
    return process, f"http://127.0.0.1:{port}/mcp"


@pytest.mark.parametrize(("behaviour", "verdict"), [("dirty", "confirmed"), ("clean", "refuted")])
def test_http_protocol_witness(tmp_path: Path, behaviour: str, verdict: str) -> None:
    process, url = _serve_http(behaviour, tmp_path)
    try:
        out = tmp_path / "http.json"
        code = main(["probe", url, "--remote-dir", str(tmp_path), "-f", "json", "-o", str(out)])
    finally:
        process.kill()
        process.wait()
    assert code == 0
    (server,) = json.loads(out.read_text(encoding="utf-8"))["servers"]
    probe = next(t for t in server["tools"] if t["name"] == "read_note")["probe"]
    assert probe["verdict"] == verdict
    evidence = probe["evidence"]
    assert evidence["negative_control"]["reads_as"] == "absent"
    assert evidence["first_read"]["arguments"] == evidence["second_read"]["arguments"]
    assert evidence["first_read"]["reads_as"] == "absent"
    expected = "present" if verdict == "confirmed" else "absent"
    assert evidence["second_read"]["reads_as"] == expected
    rules = {f["rule_id"] for f in server["findings"] if f["tool"] == "read_note"}
    assert ("TW-LAB-007" in rules) == (verdict == "confirmed")

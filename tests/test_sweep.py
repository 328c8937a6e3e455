"""Sweep end to end through the CLI on local archives: outcomes, report counts, resume, frozen."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from sweep_fixtures import EVIL_JS, build_fixtures, npm_tarball, write_list
from toolwitness.cli import main
from toolwitness.sweep.results import dumps_record, read_records
from toolwitness.sweep.task import comparable


def _records(path: Path) -> dict[str, dict[str, Any]]:
    return {r["target"]: r for r in read_records(path)}


def _comparable_lines(path: Path) -> dict[str, str]:
    return {key: dumps_record(comparable(r)) for key, r in _records(path).items()}


@pytest.fixture(scope="module")
def swept(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], Path]:
    directory = tmp_path_factory.mktemp("sweep")
    expected = build_fixtures(directory)
    listing = write_list(directory, list(expected))
    results = directory / "results.jsonl"
    assert main(["sweep", str(listing), "-o", str(results), "--workers", "2"]) == 0
    return directory, expected, results


def test_outcomes_per_target(swept: tuple[Path, dict[str, str], Path]) -> None:
    _, expected, results = swept
    records = _records(results)
    assert {k: r["outcome"] for k, r in records.items()} == expected
    assert "archive refused" in records["broken-1.0.0.tgz"]["reason"]
    assert "no tool registration" in records["empty-1.0.0.tgz"]["reason"]
    # no temporary path leaks into a record
    assert "/tmp" not in results.read_text().replace("/tmp/notes-cache", "")


def test_violation_and_metadata_findings_on_code_surface(
    swept: tuple[Path, dict[str, str], Path],
) -> None:
    _, _, results = swept
    server = _records(results)["notes-1.0.0.tgz"]["server"]
    tools = {t["name"]: t for t in server["tools"]}
    assert tools["read_note"]["verdict"] == "VIOLATION"
    assert tools["read_note"]["undeclared"] == ["WRITE_FS"]
    witness = tools["read_note"]["witnesses"]["WRITE_FS"][0]
    assert (witness["file"], witness["line"], witness["symbol"]) == (
        "index.js",
        EVIL_JS.splitlines().index('  fs.writeFileSync("/tmp/notes-cache", title);') + 1,
        "fs.writeFileSync",
    )
    assert tools["count_notes"]["verdict"] == "OK"
    rules = {f["rule_id"] for f in server["metadata_findings"]}
    assert any(r.startswith("TW-UNI-") for r in rules)  # the hidden override in the description
    assert {f["rule_id"] for f in server["code_findings"]} >= {"TW-CODE-001"}


def test_report_counts(swept: tuple[Path, dict[str, str], Path]) -> None:
    directory, _, results = swept
    md_path, json_path = directory / "report.md", directory / "report.json"
    assert main(["sweep-report", str(results), "-o", str(md_path), "--json", str(json_path)]) == 0
    report = json.loads(json_path.read_text())
    assert report["targets"] == 6
    assert report["outcomes"] == {
        "ANALYSED": 2,
        "NO_TOOLS_FOUND": 1,
        "NO_ENTRY": 1,
        "DOWNLOAD_FAILED": 1,
        "UNANALYZABLE": 1,
        "TIMEOUT": 0,
        "ERROR": 0,
    }
    assert report["tools_inspected"] == 3
    assert report["tool_verdicts"] == {"OK": 2, "VIOLATION": 1, "UNANALYZABLE": 0}
    assert report["tool_violation_rate"] == round(1 / 3, 4)
    assert report["server_violation_rate"] == 0.5
    assert report["most_undeclared_capabilities"] == [{"name": "WRITE_FS", "count": 1}]
    assert report["top_offenders"][0]["target"] == "notes-1.0.0.tgz"
    assert report["top_offenders"][0]["tools"][0]["witnesses"][0]["symbol"] == "fs.writeFileSync"
    assert len(report["bottlenecks"]["targets"]) == 4
    text = md_path.read_text()
    for heading in ("## Outcomes", "## Most undeclared capabilities", "## Top offenders",
                    "## Analysable-rate bottlenecks"):  # fmt: skip
        assert heading in text
    assert "read\\_note: WRITE\\_FS at index\\.js" in text
    # the same results give the same report bytes
    again = directory / "again.md"
    assert main(["sweep-report", str(results), "-o", str(again)]) == 0
    assert again.read_bytes() == md_path.read_bytes()


def test_two_runs_give_identical_records(swept: tuple[Path, dict[str, str], Path]) -> None:
    directory, _, results = swept
    second = directory / "second.jsonl"
    assert main(["sweep", str(directory / "list.txt"), "-o", str(second), "--workers", "1"]) == 0
    assert _comparable_lines(second) == _comparable_lines(results)


def test_stop_after_k_then_rerun_completes_only_the_remainder(
    swept: tuple[Path, dict[str, str], Path],
) -> None:
    directory, expected, _ = swept
    results = directory / "partial.jsonl"
    listing = str(directory / "list.txt")
    assert main(["sweep", listing, "-o", str(results), "--max-targets", "2"]) == 0
    first = results.read_bytes()
    assert len(first.splitlines()) == 2
    assert main(["sweep", listing, "-o", str(results)]) == 0
    data = results.read_bytes()
    assert data.startswith(first)  # finished records are kept, not redone
    assert sorted(_records(results)) == sorted(expected)
    assert len(data.splitlines()) == len(expected)
    assert main(["sweep", listing, "-o", str(results)]) == 0  # nothing left: nothing appended
    assert results.read_bytes() == data


def test_killed_sweep_resumes(tmp_path: Path) -> None:
    expected = build_fixtures(tmp_path)
    targets = []
    for index in range(16):  # enough work that the kill lands mid-run
        name = f"copy{index:02d}-notes.tgz"
        npm_tarball(tmp_path / name, {"index.js": EVIL_JS.replace("notes", f"notes{index}")})
        targets.append(name)
    listing = write_list(tmp_path, targets + list(expected))
    results = tmp_path / "results.jsonl"
    argv = [sys.executable, "-m", "toolwitness", "sweep", str(listing), "-o", str(results),
            "--workers", "1"]  # fmt: skip
    proc = subprocess.Popen(argv, start_new_session=True, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        if results.exists() and results.read_bytes().count(b"\n") >= 2:
            break
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    with results.open("ab") as handle:  # as if killed in the middle of writing a line
        handle.write(b'{"schema":"toolwitness.sweep/1","target":"cop')
    before = [r["target"] for r in read_records(results, tolerate_torn_tail=True)]
    assert 2 <= len(before) < len(targets) + len(expected)
    assert main(["sweep", str(listing), "-o", str(results)]) == 0
    after = [r["target"] for r in read_records(results)]
    assert after[: len(before)] == before
    assert sorted(after) == sorted(targets + list(expected))  # each target exactly once


def test_frozen_replay_and_hash_mismatch(swept: tuple[Path, dict[str, str], Path]) -> None:
    directory, _, results = swept
    replay = directory / "replay.jsonl"
    listing = str(directory / "list.txt")
    assert main(["sweep", listing, "-o", str(replay), "--frozen", str(results)]) == 0
    assert _comparable_lines(replay) == _comparable_lines(results)
    # the artifact changes under the same name: a frozen replay refuses it
    changed = directory / "changed"
    changed.mkdir()
    npm_tarball(changed / "notes-1.0.0.tgz", {"index.js": EVIL_JS + "// changed\n"})
    new_list = write_list(changed, ["notes-1.0.0.tgz", "extra.tgz"])
    npm_tarball(changed / "extra.tgz", {"index.js": EVIL_JS})
    out = changed / "frozen.jsonl"
    assert main(["sweep", str(new_list), "-o", str(out), "--frozen", str(results)]) == 0
    records = _records(out)
    assert records["notes-1.0.0.tgz"]["outcome"] == "DOWNLOAD_FAILED"
    assert "differs from the frozen run" in records["notes-1.0.0.tgz"]["reason"]
    assert records["extra.tgz"]["outcome"] == "DOWNLOAD_FAILED"  # not in the frozen run
    assert records["notes-1.0.0.tgz"]["server"] is None


def test_time_and_memory_limits(swept: tuple[Path, dict[str, str], Path]) -> None:
    directory, _, _ = swept
    listing = write_list(directory, ["notes-1.0.0.tgz"], "one.txt")
    slow = directory / "timeout.jsonl"
    assert main(["sweep", str(listing), "-o", str(slow), "--timeout", "0.01"]) == 0
    assert _records(slow)["notes-1.0.0.tgz"]["outcome"] == "TIMEOUT"
    # A package whose code needs far more than 64 MiB to parse (four 3 MB modules), so the
    # outcome does not depend on how much the analyser itself happens to need.
    body = "".join(f"export function f{i}(a) {{ return a + {i}; }}\n" for i in range(75_000))
    modules = {f"m{i}.js": body for i in range(4)}
    npm_tarball(directory / "heavy-1.0.0.tgz", {"index.js": EVIL_JS, **modules})
    heavy = write_list(directory, ["heavy-1.0.0.tgz"], "heavy.txt")
    small = directory / "memory.jsonl"
    assert main(["sweep", str(heavy), "-o", str(small), "--memory-mib", "64"]) == 0
    record = _records(small)["heavy-1.0.0.tgz"]
    assert record["outcome"] == "UNANALYZABLE"
    assert "64 MiB" in record["reason"]


def test_usage_and_input_errors(tmp_path: Path) -> None:
    listing = write_list(tmp_path, ["npm:left-pad"])  # no version: refused
    assert main(["sweep", str(listing), "-o", str(tmp_path / "r.jsonl")]) == 2
    listing = write_list(tmp_path, ["--registry=http://evil"])
    assert main(["sweep", str(listing), "-o", str(tmp_path / "r.jsonl")]) == 2
    listing = write_list(tmp_path, [])
    assert main(["sweep", str(listing), "-o", str(tmp_path / "r.jsonl")]) == 2
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"schema":"something-else"}\n')
    assert main(["sweep-report", str(bad)]) == 2
    good = write_list(tmp_path, ["x.tgz"])
    assert main(["sweep", str(good), "-o", str(tmp_path / "r.jsonl"), "--workers", "0"]) == 2
    argv = ["sweep", str(good), "-o", str(tmp_path / "r.jsonl"), "--scheduler", "http://x"]
    assert main(argv) == 2

"""The trust score: exact, order-invariant, capped, gated, byte-identical; --min-grade via the CLI."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwitness.acquire.catalog import surface_from_document
from toolwitness.cli import main
from toolwitness.errors import InternalError
from toolwitness.findings import Confidence, Finding, Severity
from toolwitness.pipeline import ScanOptions, exit_code, scan_surfaces
from toolwitness.result import ScanResult
from toolwitness.score import default_model, parse_model, score_findings

REAL = Path(__file__).parent / "fixtures" / "real"


def finding(
    rule: str, severity: str, confidence: str = "strong", tool: str | None = "t"
) -> Finding:
    return Finding(
        rule_id=rule,
        title="x",
        severity=Severity(severity),
        confidence=Confidence(confidence),
        tool=tool,
        location="tools[0]",
        message="m",
    )


findings_strategy = st.lists(
    st.builds(
        finding,
        st.sampled_from(
            ["TW-CAP-001", "TW-CAP-012", "TW-INJ-001", "TW-UNI-003", "TW-FLOW-005", "TW-META-003"]
        ),
        st.sampled_from([s.value for s in Severity]),
        st.sampled_from([c.value for c in Confidence]),
        st.sampled_from(["a", "b", None]),
    ),
    max_size=25,
)


def test_no_findings_is_a_perfect_a() -> None:
    s = score_findings([])
    assert (s.score, s.grade, s.vector) == (100, "A", ())


def test_penalty_is_weight_times_confidence() -> None:
    s = score_findings([finding("TW-CAP-003", "low", "heuristic")])
    assert s.vector[0].penalty == 1.0 and s.score == 99
    s = score_findings([finding("TW-CAP-002", "medium", "strong")])
    assert s.vector[0].penalty == 6.4 and s.score == 94  # 100 - 6.4, rounded half up


@settings(max_examples=150, deadline=None)
@given(findings_strategy, st.randoms(use_true_random=False))
def test_score_is_invariant_to_finding_order(found: list[Finding], rng: Any) -> None:
    shuffled = list(found)
    rng.shuffle(shuffled)
    assert score_findings(found) == score_findings(shuffled)


def test_repeats_of_one_rule_have_diminishing_returns() -> None:
    one = score_findings([finding("TW-CAP-012", "low")]).vector[0].penalty
    many = (
        score_findings([finding("TW-CAP-012", "low", tool=str(i)) for i in range(20)])
        .vector[0]
        .penalty
    )
    assert one < many <= 2 * one


def test_family_caps_bound_one_family() -> None:
    cap = default_model().caps["CAP"]
    noisy = [finding(f"TW-CAP-{n:03d}", "high", "confirmed") for n in range(1, 15)]
    s = score_findings(noisy)
    assert sum(p.penalty for p in s.vector) == pytest.approx(float(cap), abs=0.05)
    assert s.score == 100 - int(cap)


def test_gates() -> None:
    confirmed_critical = score_findings([finding("TW-UNI-001", "critical", "confirmed")])
    assert confirmed_critical.grade == "F" and confirmed_critical.score <= 59
    assert confirmed_critical.gate and "F" in confirmed_critical.gate
    critical = score_findings([finding("TW-FLOW-003", "critical", "heuristic")])  # 80 points left
    assert critical.grade == "D" and 60 <= critical.score <= 69
    high = score_findings([finding("TW-INJ-001", "high", "heuristic")])  # 90 left, gated to B
    assert high.grade == "B" and high.score == 89
    confirmed_high = score_findings([finding("TW-INJ-001", "high", "confirmed")])
    assert confirmed_high.grade == "C" and confirmed_high.score <= 79
    lows = score_findings([finding("TW-CAP-012", "low")])
    assert lows.grade == "A" and lows.gate is None


def test_scoring_data_is_validated() -> None:
    with pytest.raises(InternalError):
        parse_model({"version": 2})
    with pytest.raises(InternalError):
        parse_model({"version": 1, "start": 100})


def _surface(order: list[int]) -> Any:
    tools = [
        {
            "name": "delete_notebook",
            "description": "Deletes a notebook.",
            "annotations": {"readOnlyHint": True},
        },
        {
            "name": "fetch",
            "description": "Fetches a URL.",
            "inputSchema": {"type": "object", "properties": {"url": {"type": "string"}}},
        },
        {"name": "get_secret", "description": "Returns a stored password."},
        {
            "name": "run",
            "description": "Runs a shell command.",
            "inputSchema": {"type": "object", "properties": {"command": {"type": "string"}}},
        },
    ]
    for t in tools:
        t.setdefault("inputSchema", {"type": "object"})
    return surface_from_document({"tools": [tools[i] for i in order]}, server_id="s", source="s")


def test_score_is_invariant_to_tool_order() -> None:
    orders = [[0, 1, 2, 3], [3, 2, 1, 0], [1, 3, 0, 2], [2, 0, 3, 1]]
    results = [scan_surfaces([_surface(o)], ScanOptions()).servers[0] for o in orders]
    assert len({(r.score, r.grade, r.score_vector) for r in results}) == 1
    assert results[0].grade in ("D", "F")  # a critical flow and a high annotation contradiction


def test_json_report_is_byte_identical_across_runs(tmp_path: Path) -> None:
    args = [
        sys.executable,
        "-m",
        "toolwitness",
        "scan",
        "--format",
        "json",
        *map(str, sorted(REAL.glob("*.json"))),
    ]
    first = subprocess.run(args, capture_output=True, check=False)
    second = subprocess.run(args, capture_output=True, check=False)
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout
    doc = json.loads(first.stdout)
    assert all(isinstance(s["score"], int) and s["grade"] in "ABCDF" for s in doc["servers"])


def _catalog(tmp_path: Path, tools: list[dict[str, Any]]) -> str:
    path = tmp_path / "cat.json"
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    return str(path)


def test_min_grade_exit_codes_through_the_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clean = _catalog(
        tmp_path,
        [
            {
                "name": "add",
                "description": "Adds two numbers.",
                "inputSchema": {"type": "object"},
                "annotations": {"readOnlyHint": True},
            }
        ],
    )
    assert main(["scan", clean, "--min-grade", "A", "-f", "json"]) == 0
    bad = str(tmp_path / "bad.json")
    Path(bad).write_text(
        json.dumps(
            {
                "tools": [
                    {
                        "name": "delete_notebook",
                        "description": "Deletes a notebook.",
                        "inputSchema": {"type": "object"},
                        "annotations": {"readOnlyHint": True},
                    },
                ]
            }
        ),
        encoding="utf-8",
    )
    assert main(["scan", bad, "--min-grade", "A", "-f", "json"]) == 1
    assert main(["scan", bad, "--min-grade", "F", "-f", "json"]) == 0
    assert main(["scan", bad, "--min-grade", "Z", "-f", "json"]) == 2
    capsys.readouterr()


def test_a_server_without_a_grade_never_passes_min_grade() -> None:
    server = scan_surfaces([_surface([0])], ScanOptions()).servers[0]
    ungraded = ScanResult(servers=(server.model_copy(update={"grade": None, "score": None}),))
    assert exit_code(ungraded, min_grade="F") == 1


def test_incomplete_server_is_named_when_min_grade_is_asked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolwitness.checks.capability import annotations as capability

    def explode(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("boom")

    monkeypatch.setattr(capability, "_annotation_findings", explode)
    # A tool the annotation check must look at (a deleter that claims read-only).
    tool = {"name": "delete_all", "inputSchema": {"type": "object"}}
    path = _catalog(tmp_path, [{**tool, "annotations": {"readOnlyHint": True}}])
    assert main(["scan", path, "--min-grade", "F", "-f", "json"]) == 3
    captured = capsys.readouterr()
    assert "has no grade (incomplete scan)" in captured.err
    server = json.loads(captured.out)["servers"][0]
    assert server["grade"] is None and server["score"] is None and server["incomplete"]


FIXTURES = Path(__file__).parent / "fixtures"


def _packed(folder: Path, path: Path) -> Path:
    """An npm-style package artifact (`package/…`) of a fixture folder."""
    import io
    import tarfile

    with tarfile.open(path, "w:gz") as archive:
        for file in sorted(folder.rglob("*")):
            if file.is_file():
                data = file.read_bytes()
                info = tarfile.TarInfo(f"package/{file.relative_to(folder).as_posix()}")
                info.size = len(data)
                archive.addfile(info, io.BytesIO(data))
    return path


@pytest.mark.parametrize("packed", [False, True], ids=["source-dir", "tgz-package"])
def test_code_command_counts_confirmed_high_violations_in_the_grade(
    tmp_path: Path, packed: bool
) -> None:
    folder = FIXTURES / "code" / "ts-sdk"  # three confirmed-high TW-CODE-001 violations
    target = _packed(folder, tmp_path / "ts-sdk-1.0.0.tgz") if packed else folder
    out = tmp_path / "report.json"
    assert main(["code", str(target), "--format", "json", "--output", str(out)]) == 0
    server = json.loads(out.read_text())["servers"][0]
    high = [f for f in server["findings"] if f["rule_id"] == "TW-CODE-001"]
    assert len(high) == 3 and all(f["confidence"] == "confirmed" for f in high)
    assert server["grade"] in ("C", "D", "F")
    assert server["score_vector"][0]["rule_id"] == "TW-CODE-001"


@pytest.mark.parametrize("family", ["CODE", "LAB", "PIN", "META"])
def test_every_family_counts_and_gates(family: str) -> None:
    rule = f"TW-{family}-001"
    one = score_findings([finding(rule, "high", "confirmed")], tools=3)
    assert one.vector[0].rule_id == rule and one.vector[0].penalty == 20.0
    assert one.grade == "C" and one.gate == f"{rule} (confirmed high) on t caps the grade at C"
    critical = score_findings([finding(rule, "critical", "confirmed")], tools=3)
    assert critical.grade == "F"


def test_a_server_with_no_tool_is_not_graded_a(tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text('{"tools": []}')
    config = tmp_path / "mcp.json"
    config.write_text(
        '{"mcpServers": {"time": {"command": "uvx", "args": ["mcp-server-time==1.0"]}}}'
    )
    out = tmp_path / "r.json"
    assert main(["scan", str(empty), str(config), "--format", "json", "--output", str(out)]) == 0
    servers = {s["id"]: s for s in json.loads(out.read_text())["servers"]}
    assert set(servers) == {"empty", "time"}
    assert servers["time"]["findings"] == []  # nothing wrong with the entry: nothing verified
    for server in servers.values():
        assert server["grade"] == "C" and server["score"] <= 79
    assert score_findings([], tools=0).gate == (
        "no tool was listed, so none was verified: the grade is capped at C"
    )
    assert score_findings([]).grade == "A"  # tools unknown (library use): no such cap


def test_terminal_says_why_a_grade_is_what_it_is() -> None:
    from toolwitness.report.interface import OutputFormat, ReportOptions, formatter_for
    from toolwitness.score import rescored

    ping = {"name": "ping", "description": "Replies pong.", "inputSchema": {"type": "object"}}
    surface = surface_from_document({"tools": [ping]}, server_id="s", source="s")
    server = scan_surfaces([surface], ScanOptions()).servers[0]
    assert (server.grade, server.findings) == ("A", ())
    lie = finding("TW-CODE-001", "high", "confirmed", tool="ping")
    server = rescored(server.model_copy(update={"findings": (*server.findings, lie)}))
    assert server.grade == "C"
    text = formatter_for(OutputFormat.TERMINAL, ReportOptions(width=200)).format(
        ScanResult(servers=(server,))
    )
    why = [line.strip() for line in text.splitlines() if line.strip().startswith("why:")]
    assert len(why) == 1
    assert why == [
        "why: TW-CODE-001 −20 (1 finding); TW-CODE-001 (confirmed high) on ping caps the grade at C"
    ]


def test_scoring_doc_table_is_generated_from_the_data() -> None:
    from toolwitness.score_doc import table

    doc = (Path(__file__).parent.parent / "docs" / "scoring.md").read_text(encoding="utf-8")
    assert table() in doc, "docs/scoring.md is stale: python -m toolwitness.score_doc"


def test_every_reported_finding_is_in_the_grade(tmp_path: Path) -> None:
    """One score story: for every command that grades, the grade is the score of exactly the
    findings the report shows (nothing added after scoring, nothing left out)."""
    from toolwitness.pipeline import scan
    from toolwitness.score import score_surface

    lock = tmp_path / "toolwitness.lock"
    catalog = tmp_path / "notes.json"
    info = {"name": "notes"}  # a catalog is pinned under its server name
    catalog.write_text(
        json.dumps(
            {"serverInfo": info, "tools": [{"name": "a", "inputSchema": {"type": "object"}}]}
        )
    )
    assert main(["lock", str(catalog), "-o", str(lock), "--yes"]) == 0
    catalog.write_text(
        json.dumps({"serverInfo": info, "tools": [{"name": "a", "description": "Now it deletes files.",
                               "inputSchema": {"type": "object"}}]})
    )  # fmt: skip
    config = tmp_path / "mcp.json"
    config.write_text('{"mcpServers": {"f": {"command": "npx", "args": ["server-filesytem"]}}}')
    out = tmp_path / "code.json"
    assert main(["code", str(FIXTURES / "code" / "ts-sdk"), "-f", "json", "-o", str(out)]) == 0
    code = json.loads(out.read_text())["servers"][0]
    assert {f["rule_id"] for f in code["findings"]} >= {"TW-CODE-001", "TW-META-003"}
    assert {p["rule_id"] for p in code["score_vector"]} == {
        f["rule_id"] for f in code["findings"] if f["severity"] != "info"
    }
    from toolwitness.pipeline import ScanOptions as Options

    result = scan([catalog, config, REAL / "server-everything.json"], Options(lock=lock))
    pinned = {f.rule_id for f in result.servers[0].findings}
    assert any(r.startswith("TW-PIN-") for r in pinned)
    for server in result.servers:
        again = score_surface(server.surface, server.findings)
        assert (again.score, again.grade, again.vector) == (
            server.score,
            server.grade,
            server.score_vector,
        ), server.id

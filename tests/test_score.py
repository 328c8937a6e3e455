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

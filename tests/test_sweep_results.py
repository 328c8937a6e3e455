"""Results files and lists as hostile input; a dead worker still yields a record; report folding."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolwitness.cli import main
from toolwitness.errors import InputError
from toolwitness.sweep.executor import WorkItem, _result_or_error
from toolwitness.sweep.report import ecosystem_report
from toolwitness.sweep.results import ResultsWriter, read_records
from toolwitness.sweep.targets import Target, load_targets
from toolwitness.sweep.task import RECORD_SCHEMA, base_record


def _record(target: str, outcome: str = "ANALYSED", **extra: object) -> dict[str, object]:
    return {"schema": RECORD_SCHEMA, "target": target, "outcome": outcome, **extra}


def test_torn_last_line_is_an_error_for_the_report(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(_record("a")) + "\n" + '{"schema": "toolwitness.sw')
    with pytest.raises(InputError, match="incomplete"):
        read_records(path)
    assert main(["sweep-report", str(path)]) == 2
    assert [r["target"] for r in read_records(path, tolerate_torn_tail=True)] == ["a"]


@pytest.mark.parametrize(
    "line",
    [
        '{"schema": "toolwitness.sweep/1", "target": "a", "target": "b", "outcome": "ERROR"}',
        '{"schema": "toolwitness.sweep/1", "target": 3, "outcome": "ERROR"}',
        '{"schema": "toolwitness.sweep/1", "target": "a", "outcome": NaN}',
        "[1, 2, 3]",
        "\udcff",
    ],
    ids=["duplicate-key", "target-type", "nan", "not-object", "bad-utf8"],
)
def test_malformed_records_are_refused(tmp_path: Path, line: str) -> None:
    path = tmp_path / "r.jsonl"
    path.write_bytes(line.encode("utf-8", "surrogateescape") + b"\n")
    assert main(["sweep-report", str(path)]) == 2


def test_report_survives_wrongly_typed_fields(tmp_path: Path) -> None:
    records = [
        _record("x", server={"tools": "not a list", "metadata_findings": [{"severity": 7}]}),
        _record("y", server={"tools": [{"verdict": ["VIOLATION"], "undeclared": "EXEC"}]}),
        _record("z", "TIMEOUT", reason="the analysis did not finish in time"),
    ]
    report = ecosystem_report(records)  # type: ignore[arg-type]
    assert report["outcomes"]["ANALYSED"] == 2
    assert report["outcomes"]["TIMEOUT"] == 1
    assert report["tools_inspected"] == 1
    assert report["tool_verdicts"] == {"OK": 0, "VIOLATION": 0, "UNANALYZABLE": 0}


def test_bottleneck_reasons_fold_counts_and_targets() -> None:
    records = [
        _record("a.tgz", "NO_TOOLS_FOUND", reason="no tool registration in 3 source files"),
        _record("b.tgz", "NO_TOOLS_FOUND", reason="no tool registration in 12 source files"),
        _record("c.tgz", "UNANALYZABLE", reason="c.tgz: archive refused: malformed"),
        _record("d.tgz", "UNANALYZABLE", reason="d.tgz: archive refused: malformed"),
    ]
    report = ecosystem_report(records)  # type: ignore[arg-type]
    assert report["bottlenecks"]["targets"] == [
        {"name": "NO_TOOLS_FOUND: no tool registration in N source files", "count": 2},
        {"name": "UNANALYZABLE: archive refused: malformed", "count": 2},
    ]
    assert report["analysable_rate"] == 0.0


def test_dead_worker_yields_an_error_record() -> None:
    item = WorkItem(Target("npm:x@1.0.0", "npm", "npm:x@1.0.0"), None, False)

    def died() -> dict[str, object]:
        raise RuntimeError("A process in the process pool was terminated abruptly")

    record = _result_or_error(died, item)
    assert record["outcome"] == "ERROR"
    assert record["target"] == "npm:x@1.0.0"
    assert "the worker failed: RuntimeError" in str(record["reason"])
    assert {k: v for k, v in record.items() if k != "timing"} == {
        **base_record(item.target, "ERROR", str(record["reason"]))
    }


def test_unwritable_output_is_an_input_error(tmp_path: Path) -> None:
    listing = tmp_path / "list.txt"
    listing.write_text("x.tgz\n")
    assert main(["sweep", str(listing), "-o", str(tmp_path / "no" / "dir" / "r.jsonl")]) == 2
    assert main(["sweep", str(listing), "-o", str(tmp_path)]) == 2  # a directory
    assert main(["sweep-report", str(tmp_path)]) == 2


def test_writer_drops_a_torn_tail_before_appending(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    path.write_text(json.dumps(_record("a")) + "\n" + '{"schema": "tool')
    with ResultsWriter(path) as writer:
        assert writer.done == {"a"}
        writer.write(_record("b"))  # type: ignore[arg-type]
    assert [r["target"] for r in read_records(path)] == ["a", "b"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(max_size=40), max_size=8))
def test_target_list_parser_only_raises_input_errors(tmp_path_factory: pytest.TempPathFactory,
                                                     lines: list[str]) -> None:  # fmt: skip
    path = tmp_path_factory.mktemp("lists") / "list.txt"
    path.write_text("\n".join(lines), encoding="utf-8", errors="surrogateescape")
    try:
        targets = load_targets(path)
    except InputError:
        return
    assert targets
    assert len({t.key for t in targets}) == len(targets)
    for target in targets:
        assert target.kind in ("npm", "pypi", "archive", "directory")

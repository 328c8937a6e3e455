"""The benchmark harness measures what it says: catalogs are deterministic and poisoned where
claimed, and one process is timed from outside with its own exit code and memory."""

from __future__ import annotations

import json
import resource
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from catalogs import KINDS, catalog, write_catalog
from timing import run_process

from toolwitness.pipeline import ScanOptions, scan


@pytest.mark.parametrize("kind", KINDS)
def test_catalogs_are_deterministic_and_every_text_distinct(kind: str, tmp_path: Path) -> None:
    first = write_catalog(200, kind, tmp_path).read_bytes()
    (tmp_path / "again").mkdir()
    assert write_catalog(200, kind, tmp_path / "again").read_bytes() == first
    tools = json.loads(first)["tools"]
    assert len(tools) == 200
    assert len({t["name"] for t in tools}) == 200
    assert len({t["description"] for t in tools}) == 200  # no per-text cache can help


def test_benign_and_poisoned_share_the_benign_tools() -> None:
    benign, poisoned = catalog(40, "benign")["tools"], catalog(40, "poisoned")["tools"]
    assert [t["name"] for t in benign] == [t["name"] for t in poisoned]
    assert benign[3] == poisoned[3]  # every fourth tool stays benign
    assert benign[0] != poisoned[0]


def _flagged_rules(kind: str, tmp_path: Path) -> dict[str, set[str]]:
    path = write_catalog(64, kind, tmp_path)
    result = scan([path], ScanOptions())
    by_tool: dict[str, set[str]] = {}
    for finding in result.servers[0].findings:
        if finding.tool and finding.severity.value in {"medium", "high", "critical"}:
            by_tool.setdefault(finding.tool, set()).add(finding.rule_id)
    return by_tool


def test_poisoned_catalog_carries_each_attack_style(tmp_path: Path) -> None:
    flagged = _flagged_rules("poisoned", tmp_path)
    tools = catalog(64, "poisoned")["tools"]
    families = {style: set() for style in range(4)}  # type: dict[int, set[str]]
    for i, tool in enumerate(tools):
        for rule in flagged.get(tool["name"], ()):
            families[i % 4].add(rule.split("-")[1])
    assert "INJ" in families[0]  # injected descriptions
    assert "UNI" in families[1]  # hidden Unicode
    assert "INJ" in families[2]  # exfiltration-shaped parameters
    assert len(flagged) >= 40  # most of the 48 poisoned tools


def test_benign_catalog_is_mostly_clean(tmp_path: Path) -> None:
    assert len(_flagged_rules("benign", tmp_path)) <= 4


def test_run_process_reports_exit_code_memory_and_output(tmp_path: Path) -> None:
    # Linux keeps a forked child's ru_maxrss from before exec (this test process's peak), so
    # the child must grow past our own peak for its figure to be its own.
    ours_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    size = (ours_kib + 64 * 1024) * 1024
    code = f"import sys; b = bytearray({size}); print('done'); sys.exit(3)"
    run = run_process([sys.executable, "-c", code], tmp_path / "out", tmp_path / "err")
    assert run.returncode == 3
    assert (tmp_path / "out").read_text() == "done\n"
    assert run.peak_rss_kib >= ours_kib + 64 * 1024  # the child's own peak, not ours
    small = run_process([sys.executable, "-c", "pass"], tmp_path / "o2", tmp_path / "e2")
    assert small.returncode == 0
    assert small.peak_rss_kib < run.peak_rss_kib
    assert run.cpu >= 0 and run.wall > 0

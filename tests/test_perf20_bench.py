"""`bench_peers.py` keeps its own memory small, so a child's peak is the child's own: catalogs
are written by a child process (the same bytes as `write_catalog`) and a report's summary is
read from the file's last bytes (the same value as parsing the whole report)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from conftest import ROOT
from toolwitness.cli import main

sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_peers import report_summary, write_apart
from catalogs import write_catalog


def test_a_catalog_written_apart_is_the_same(tmp_path: Path) -> None:
    (tmp_path / "apart").mkdir()
    (tmp_path / "here").mkdir()
    for kind in ("benign", "poisoned"):
        apart = write_apart(30, kind, tmp_path / "apart")
        here = write_catalog(30, kind, tmp_path / "here")
        assert apart.read_bytes() == here.read_bytes()


def test_the_summary_read_from_the_end(tmp_path: Path) -> None:
    for kind in ("benign", "poisoned"):
        report = tmp_path / f"{kind}.json"
        main(["scan", str(write_catalog(40, kind, tmp_path)), "-f", "json", "-o", str(report)])
        assert report_summary(report) == json.loads(report.read_bytes())["summary"]

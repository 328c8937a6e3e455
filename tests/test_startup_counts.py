"""Start-up work counted, never timed: how many modules a one-tool catalog scan imports (490 at
this writing: 628 before issue 17, 548 before the scan's command line stopped loading typer),
and that no shipped data file is parsed as YAML on the way (the precompiled table serves all of
them)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

CATALOG = ROOT / "examples" / "catalogs" / "weather.json"
MAX_SCAN_MODULES = 515  # 490 now, with a little room; a new heavy dependency breaks it

_PROBE = """
import json, sys
import yaml
parsed = []
real_load = yaml.load
def counting_load(stream, Loader):
    parsed.append(str(stream)[:60])
    return real_load(stream, Loader=Loader)
yaml.load = counting_load
from toolwitness.cli import main
rc = main(sys.argv[1:])
sys.stdout.write("\\n" + json.dumps([rc, len(sys.modules), parsed]))
"""


def _probe(argv: list[str]) -> tuple[int, int, list[str]]:
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True, timeout=300,
        cwd=ROOT,
    )  # fmt: skip
    rc, modules, parsed = json.loads(proc.stdout.rsplit("\n", 1)[1])
    assert rc in (0, 1), proc.stderr
    return rc, modules, parsed


def test_one_tool_scan_module_count(tmp_path: Path) -> None:
    _, modules, _ = _probe(["scan", str(CATALOG), "-f", "json", "-o", str(tmp_path / "r.json")])
    assert 300 < modules <= MAX_SCAN_MODULES, modules


def test_no_shipped_data_file_is_parsed_as_yaml(tmp_path: Path) -> None:
    _, _, parsed = _probe(["scan", str(CATALOG), "-f", "json", "-o", str(tmp_path / "r.json")])
    assert parsed == []
    _, _, parsed = _probe(["rules"])
    assert parsed == []


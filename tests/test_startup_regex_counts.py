"""Start-up work counted, never timed (issue 17): how many regular expressions a one-tool
catalog scan compiles. 137 before module-level patterns compiled at first use
(toolwitness/lazyre.py) and `literals.contains_any` deferred its trie; 54 now, most of them in
modules whose patterns are still compiled at import. A guard against eager compiling creeping
back: compiling a pattern's character ranges or a large alternation costs 0.1-4 ms each."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

MAX_COMPILED = 64  # 54 at this writing, with a little room

_PROBE = """
import json, re, sys
compiled = []
real = re._compiler.compile
def counting(pattern, flags):
    compiled.append(str(pattern))
    return real(pattern, flags)
re._compiler.compile = counting
from toolwitness.cli import main
rc = main(sys.argv[1:])
sys.stdout.write("\\n" + json.dumps([rc, compiled]))
"""


def test_a_one_tool_scan_compiles_few_patterns(tmp_path: Path) -> None:
    catalog = tmp_path / "one.json"
    catalog.write_text(json.dumps({"tools": [{
        "name": "get_forecast",
        "description": "Get the weather forecast for a city for the next 1-7 days.",
        "inputSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
        "annotations": {"readOnlyHint": True, "openWorldHint": True},
    }]}))  # fmt: skip
    proc = subprocess.run(
        [sys.executable, "-c", _PROBE, "scan", str(catalog), "-f", "json", "-o",
         str(tmp_path / "r.json")],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
    )  # fmt: skip
    rc, compiled = json.loads(proc.stdout.rsplit("\n", 1)[1])
    assert rc in (0, 1), proc.stderr
    assert 20 < len(compiled) <= MAX_COMPILED, [p[:80] for p in compiled]
    # the role vocabulary's trie (2,297 characters) waits until plain tests cost as much
    assert max(map(len, compiled)) < 1_500

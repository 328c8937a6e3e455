"""The modules a toolwitness command leaves loaded, read in a child process (this test process
has loaded everything already): shared by the start-up tests."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

# Prints, after the command's own output, [exit code, module count, [], sorted module names].
NAMES_PROBE = """
import json, sys
from toolwitness.cli import main
rc = main(sys.argv[1:])
sys.stdout.write("\\n" + json.dumps([rc, len(sys.modules), [], sorted(sys.modules)]))
"""


def modules_after(argv: list[str], cwd: Path) -> tuple[int, list[str]]:
    """Exit code and loaded module names of `toolwitness ARGV` run in a fresh interpreter."""
    proc = subprocess.run([sys.executable, "-c", NAMES_PROBE, *argv], capture_output=True,
                          text=True, timeout=300, cwd=cwd)  # fmt: skip
    rc, _, _, names = json.loads(proc.stdout.rsplit("\n", 1)[1])
    assert rc in (0, 1), proc.stderr
    return rc, names

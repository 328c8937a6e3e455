"""docs/walkthrough.md is what the commands print: every block run and compared (issue 16 §7)."""

from __future__ import annotations

import pytest

from conftest import NPM_MODULES, require_path, require_tools
from walkthrough import PAGE, blocks, render, run_page

TEXT = PAGE.read_text(encoding="utf-8")


def test_page_parses_and_round_trips() -> None:
    found = blocks(TEXT)
    assert len(found) >= 14 and all(found)
    same = [[(c, c.expected) for c in block] for block in found]
    assert render(TEXT, same) == TEXT


def test_page_shows_every_capability() -> None:
    lines = [c.line for block in blocks(TEXT) for c in block]
    code_targets = {line.split()[2] for line in lines if line.startswith("toolwitness code ")}
    assert {f"examples/walkthrough/code/{d}" for d in ("clean", "lie", "helper", "cross-module")} < (
        code_targets
    )
    assert any("server-filesystem" in t for t in code_targets)
    for command in ("scan", "discover", "snapshot", "probe", "lock", "diff", "gateway", "report"):
        # the gateway runs behind the session player: `python … mcp_session.py … -- toolwitness gateway`
        assert any(
            line.startswith(f"toolwitness {command} ") or f" -- toolwitness {command} " in line
            for line in lines
        ), command
    assert any("--stdio" in line for line in lines)  # a live scan


@pytest.mark.slow
def test_every_command_prints_what_the_page_says() -> None:
    require_tools("bwrap", "strace", "node")
    for package in ("server-filesystem", "server-memory"):
        require_path(NPM_MODULES / "@modelcontextprotocol" / package)
    fresh = render(TEXT, run_page(TEXT))
    assert fresh == TEXT, "stale page: run .venv/bin/python tests/walkthrough.py --update"

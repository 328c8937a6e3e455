"""The cyclic garbage collector is off while a short command runs (`cli.main`), back on for the
long-running ones, and restored when `main` returns inside a longer process."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from toolwitness import cli
from toolwitness.commands import COMMANDS


def test_off_while_a_command_runs_and_restored_after(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []
    monkeypatch.setattr(cli, "run_app", lambda app, argv: seen.append(gc.isenabled()) or 0)
    assert gc.isenabled()
    assert cli.main(["rules"]) == 0
    assert seen == [False]
    assert gc.isenabled()


def test_a_disabled_collector_stays_disabled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "run_app", lambda app, argv: 0)
    gc.disable()
    try:
        cli.main(["rules"])
        assert not gc.isenabled()
    finally:
        gc.enable()


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_long_running_commands_get_the_collector_back(name: str) -> None:
    gc.disable()
    try:
        cli._collector["was_on"] = True
        cli.collector_for(name)
        assert gc.isenabled() == COMMANDS[name].long_running
    finally:
        gc.enable()


def test_which_commands_are_long_running() -> None:
    assert {n for n, e in COMMANDS.items() if e.long_running} == {
        "gateway", "probe", "evaluate", "sweep"
    }


def test_a_real_scan_leaves_the_collector_on(tmp_path: Path) -> None:
    catalog = tmp_path / "tools.json"
    catalog.write_text('{"tools": [{"name": "echo", "description": "Echo the text back."}]}')
    assert cli.main(["scan", str(catalog), "-f", "json", "-o", str(tmp_path / "r.json")]) == 0
    assert gc.isenabled()

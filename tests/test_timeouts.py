"""`--timeout` and `--server-timeout`: each bounds what it says, whichever is larger."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from conftest import FIXTURES
from toolwitness.acquire.limits import InputLimits
from toolwitness.cli import main
from toolwitness.commands.live import LiveFlags, live_options

HOSTILE = FIXTURES / "servers" / "hostile.py"


def _scan(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    capsys.readouterr()
    code = main(["scan", "-f", "json", "--stdio", f"{sys.executable} {HOSTILE} hang", *args])
    return code, json.loads(capsys.readouterr().out)


def test_both_bounds_reach_the_live_options_unchanged() -> None:
    for timeout, server_timeout in ((60.0, 2.0), (2.0, 60.0), (5.0, 5.0)):
        flags = LiveFlags(timeout=timeout, server_timeout=server_timeout)
        options = live_options(flags, InputLimits(), {})
        assert (options.request_timeout, options.server_timeout) == (timeout, server_timeout)


@pytest.mark.live
def test_server_timeout_below_timeout_bounds_the_server(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A server that never answers: --server-timeout 2 gives up although --timeout is 60."""
    code, report = _scan(capsys, "--timeout", "60", "--server-timeout", "2")
    assert code == 3
    (error,) = report["servers"][0]["errors"]
    assert "gave up after 2s for the whole server (--server-timeout)" in error


@pytest.mark.live
def test_timeout_below_server_timeout_bounds_each_answer(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, report = _scan(capsys, "--timeout", "1", "--server-timeout", "60")
    assert code == 3
    error = report["servers"][0]["errors"][0]
    assert "no answer within 1s" in error and "(--timeout)" in error


def test_help_says_how_the_two_combine(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "300")  # one help row per line, however the terminal is
    main(["scan", "--help"])
    words = " ".join(w for w in capsys.readouterr().out.split() if w != "│")
    assert "It bounds the server whether it is above or below --timeout" in words
    assert "each answer also waits at most --timeout" in words

"""Property tests for the pure parts of live acquisition that see hostile input."""

from __future__ import annotations

import string

from hypothesis import given
from hypothesis import strategies as st

from toolwitness.acquire.launch import LaunchRefused, check_command, command_name
from toolwitness.acquire.live_http import check_url
from toolwitness.acquire.live_stdio import StdioDiagnostics, StreamBudget, _parse
from toolwitness.commands.live import parse_header
from toolwitness.errors import UsageError


@given(st.binary(max_size=2000))
def test_any_stdout_line_parses_or_is_refused_without_raising(line: bytes) -> None:
    message, broken = _parse(line)
    assert message is None or broken is None


@given(st.text(max_size=200))
def test_command_check_only_refuses(command: str) -> None:
    try:
        result = check_command(command, frozenset())
    except LaunchRefused:
        return
    assert command_name(result) in {
        "npx",
        "uvx",
        "node",
        "python",
        "python3",
        "deno",
        "bunx",
        "docker",
    } or command_name(result).startswith("python3.")
    assert ".." not in result.split("/")


@given(st.text(max_size=300))
def test_url_check_only_refuses(url: str) -> None:
    try:
        host = check_url(url, frozenset())
    except LaunchRefused:
        return
    assert host and url.lower().startswith(("http://", "https://"))


@given(st.text(max_size=200))
def test_header_parse_only_refuses(text: str) -> None:
    try:
        name, value = parse_header(text)
    except UsageError:
        return
    assert name and all(c in string.printable for c in name)
    assert all(ord(c) >= 32 and ord(c) != 127 for c in value)


@given(st.lists(st.binary(max_size=500), max_size=20), st.integers(1, 300))
def test_stderr_tail_is_bounded_and_summary_is_inert(chunks: list[bytes], keep: int) -> None:
    diag = StdioDiagnostics(StreamBudget(100, 1000, keep))
    for chunk in chunks:
        diag.note_stderr(chunk)
    assert len(diag.stderr_tail) <= keep
    summary = diag.summary()
    assert "\x1b" not in summary and "\r" not in summary and "\x07" not in summary

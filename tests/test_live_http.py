"""Live HTTP policy against real local HTTP servers: redirects, headers, schemes, SSE."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from toolwitness.acquire.launch import LaunchRefused
from toolwitness.acquire.live import LiveOptions, acquire_many
from toolwitness.acquire.live_http import check_url
from toolwitness.cli import main
from toolwitness.model import ServerSpec, Transport

pytestmark = pytest.mark.live


class _Recorder(BaseHTTPRequestHandler):
    """Redirects /redirect to another host; answers everything else 401 and records headers."""

    seen: list[dict[str, str]] = []  # noqa: RUF012  (shared across handler instances on purpose)

    def _answer(self) -> None:
        type(self).seen.append({k.lower(): v for k, v in self.headers.items()})
        if self.path.startswith("/redirect"):
            self.send_response(307)
            self.send_header("Location", "http://localhost:9/elsewhere/mcp")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = json.dumps({"error": "unauthorised"}).encode()
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_DELETE = _answer

    def log_message(self, format: str, *args: Any) -> None:
        return


@pytest.fixture
def recorder() -> Iterator[str]:
    _Recorder.seen = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _scan(url: str, options: LiveOptions, headers: dict[str, str] | None = None) -> str:
    spec = ServerSpec(name="s", transport=Transport(kind="http", url=url, headers=headers or {}))
    outcome = acquire_many([spec], options)[0]
    assert outcome.surface is None and outcome.error is not None
    return outcome.error


def test_redirect_to_another_host_is_not_followed(recorder: str) -> None:
    error = _scan(f"{recorder}/redirect/mcp", LiveOptions(request_timeout=5))
    assert "HTTP 307" in error or "not followed" in error
    # Every request went to our server; none reached the redirect target.
    assert _Recorder.seen and all("localhost:9" not in h.get("host", "") for h in _Recorder.seen)


def test_config_and_flag_headers_and_bearer_are_sent(
    recorder: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "scan", f"{recorder}/mcp", "--header", "X-Team: blue", "--bearer", "tok123",
            "--timeout", "5", "-f", "json",
        ]
    )  # fmt: skip
    out = capsys.readouterr().out
    report = json.loads(out)
    assert code == 3
    assert "tok123" not in out, "a command-line token never lands in the report"
    assert "HTTP 401" in report["servers"][0]["errors"][0]
    first = _Recorder.seen[0]
    assert first["x-team"] == "blue"
    assert first["authorization"] == "Bearer tok123"
    _Recorder.seen = []
    _scan(f"{recorder}/mcp", LiveOptions(request_timeout=5), headers={"X-From-Config": "1"})
    assert _Recorder.seen[0]["x-from-config"] == "1"


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("ftp://example.org/mcp", "not http or https"),
        ("file:///etc/passwd", "not http or https"),
        ("http:///mcp", "no host"),
        ("http://exa mple.org/mcp", "spaces or control"),
    ],
)
def test_url_checks(url: str, why: str) -> None:
    with pytest.raises(LaunchRefused) as info:
        check_url(url, frozenset())
    assert why in info.value.message


def test_allow_host_is_exact() -> None:
    assert check_url("https://api.example.org/mcp", frozenset({"api.example.org"}))
    with pytest.raises(LaunchRefused):
        check_url("https://api.example.org.evil.test/mcp", frozenset({"api.example.org"}))


def test_bad_header_flag_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["scan", "http://127.0.0.1:9/mcp", "--header", "no colon here"]) == 2
    assert "Name: value" in capsys.readouterr().err


def test_bearer_is_not_sprayed_over_a_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "mcp.json"
    config.write_text(json.dumps({"mcpServers": {"r": {"url": "https://a.example.org/mcp"}}}))
    assert main(["scan", "--live", str(config), "--bearer", "tok"]) == 2
    assert "apply to server URLs given on the command line" in capsys.readouterr().err


def test_refused_connection_is_not_retried_over_sse() -> None:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # bound but not listening: connections are refused
        error = _scan(f"http://127.0.0.1:{port}/mcp", LiveOptions(request_timeout=5))
    assert "SSE fallback" not in error
    assert "HTTP failure" in error or "cannot" in error


def test_an_answering_server_gets_the_sse_fallback(recorder: str) -> None:
    error = _scan(f"{recorder}/mcp", LiveOptions(request_timeout=5))
    assert "the SSE fallback failed too: HTTP 401" in error
    methods_seen = len(_Recorder.seen)
    assert methods_seen >= 2  # the Streamable HTTP POST, then the SSE GET

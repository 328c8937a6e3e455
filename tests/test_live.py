"""Live acquisition end to end: real servers over stdio, Streamable HTTP, SSE and the sandbox;
hostile fixture servers that crash, hang, flood, page forever or answer garbage; the policy that
decides what may run. Every server here is a real subprocess spoken to with the MCP SDK client.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import FIXTURES, NPM_MODULES, npm_server_entry, pypi_server_bin, require_tools
from toolwitness.acquire.catalog import load_catalog_file
from toolwitness.acquire.launch import LaunchRefused, check_command
from toolwitness.acquire.live import LiveOptions, acquire_live, acquire_many
from toolwitness.cli import main
from toolwitness.integrity.canonical import digest_surface
from toolwitness.model import ServerSpec, Transport

pytestmark = pytest.mark.live

HOSTILE = FIXTURES / "servers" / "hostile.py"
NODE = shutil.which("node")
needs_node = pytest.mark.requires_tools("node")
needs_bwrap = pytest.mark.requires_tools("bwrap")


def hostile(mode: str, name: str | None = None) -> ServerSpec:
    return ServerSpec(
        name=name or mode,
        transport=Transport(kind="stdio", command=sys.executable, args=(str(HOSTILE), mode)),
    )


def npm_spec(name: str, package: str, *args: str) -> ServerSpec:
    entry = str(npm_server_entry(package))
    return ServerSpec(
        name=name, transport=Transport(kind="stdio", command="node", args=(entry, *args))
    )


def scan_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = main(["scan", "-f", "json", *args])
    out = capsys.readouterr().out
    return code, json.loads(out)


def by_id(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["id"]: s for s in report["servers"]}


# --- policy: what may run --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "why"),
    [
        ("bash", "not on the allowlist"),
        ("sh", "not on the allowlist"),
        ("./node", "relative path"),
        ("bin/node", "relative path"),
        ("/usr/bin/../bin/bash", "'..'"),
        ("node ", "whitespace"),
        ("no\x1bde", "control characters"),
        ("nodejs", "not on the allowlist"),
        ("python3.11evil", "not on the allowlist"),
        ("/nonexistent/dir/node", "not an executable file"),
    ],
)
def test_command_allowlist_refuses(command: str, why: str) -> None:
    with pytest.raises(LaunchRefused) as info:
        check_command(command, frozenset())
    assert why in info.value.message


@pytest.mark.parametrize("command", ["node", "npx", "uvx", "python3", "python3.11", "docker"])
def test_command_allowlist_accepts(command: str) -> None:
    assert check_command(command, frozenset()) == command


def test_allow_command_adds_a_name() -> None:
    with pytest.raises(LaunchRefused):
        check_command("mcp-server-time", frozenset())
    assert check_command("mcp-server-time", frozenset({"mcp-server-time"})) == "mcp-server-time"


def test_refused_command_is_a_per_server_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = scan_json(
        ["--stdio", "bash -c 'echo pwned > /tmp/x'", "--stdio", f"{sys.executable} {HOSTILE} good"],
        capsys,
    )
    assert code == 3
    servers = report["servers"]
    refused = next(s for s in servers if s["incomplete"])
    good = next(s for s in servers if not s["incomplete"])
    assert "refused to run 'bash'" in refused["errors"][0]
    assert "--allow-command bash" in refused["errors"][0]
    assert len(good["tools"]) == 2


# --- the environment a server sees -------------------------------------------------------------


def test_server_gets_minimal_env_temp_home_and_cwd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TW_SCANNER_SECRET", "do-not-leak")
    spec = hostile("environ").model_copy(
        update={
            "transport": Transport(
                kind="stdio",
                command=sys.executable,
                args=(str(HOSTILE), "environ"),
                env={"API_KEY": "from-config"},
            )
        }
    )
    surface = acquire_live(spec, LiveOptions(request_timeout=20))
    facts = json.loads(surface.tools[0].description or "")
    env = facts["env"]
    assert "TW_SCANNER_SECRET" not in env
    assert env["API_KEY"] == "from-config"
    assert env["PATH"] == os.environ["PATH"]
    assert env["HOME"] != os.path.expanduser("~")
    assert "toolwitness-live-" in env["HOME"] and "toolwitness-live-" in facts["cwd"]
    # Only PATH, HOME, TMPDIR, the config's own variable, and what Python sets for itself.
    assert set(env) - {"PATH", "HOME", "TMPDIR", "API_KEY", "LC_CTYPE"} == set()
    assert not os.path.exists(env["HOME"]), "the throwaway HOME is removed after the scan"


def test_whole_process_tree_is_killed() -> None:
    surface = acquire_live(hostile("grandchild"), LiveOptions(request_timeout=20))
    child = int((surface.tools[0].description or "").split("=")[1])
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            return
        # A zombie still answers kill(0); it is gone when its state says so.
        stat = Path(f"/proc/{child}/stat")
        if stat.exists() and stat.read_text().split(")")[-1].split()[0] == "Z":
            return
        time.sleep(0.05)
    pytest.fail(f"grandchild {child} outlived the scan")


# --- hostile servers: each gets its own error, the others complete -----------------------------


def test_hostile_servers_fail_alone(capsys: pytest.CaptureFixture[str]) -> None:
    modes = [
        "crash",
        "hang",
        "flood-stdout",
        "flood-stderr",
        "pages",
        "cursor-loop",
        "garbage",
        "good",
    ]
    stdio: list[str] = []
    for mode in modes:
        stdio += ["--stdio", f"{sys.executable} {HOSTILE} {mode}"]
    code, report = scan_json(
        [*stdio, "--timeout", "2", "--server-timeout", "60", "--concurrency", "8"], capsys
    )
    assert code == 3
    servers = {s["id"].split()[-1]: s for s in report["servers"]}
    assert set(servers) == set(modes)
    good = servers.pop("good")
    assert not good["incomplete"] and len(good["tools"]) == 2
    flood_err = servers.pop("flood-stderr")  # noisy stderr alone is not a failure
    assert not flood_err["incomplete"] and len(flood_err["tools"]) == 2
    expected = {
        "crash": ["closed the connection", "exited with code 3", "RuntimeError: fixture crash"],
        "hang": ["no answer within 2s", "initialize"],
        "flood-stdout": ["stdout", "bytes"],
        "pages": ["more than 100 pages", "--max-pages"],
        "cursor-loop": ["same cursor twice"],
        "garbage": ["no answer within 2s", "not JSON-RPC", "this is not json-rpc"],
    }
    for mode, needles in expected.items():
        server = servers[mode]
        assert server["incomplete"], mode
        assert server["coverage"] == ["config"], mode
        message = server["errors"][0]
        for needle in needles:
            assert needle in message, (mode, message)


def test_slow_servers_are_waited_for_concurrently() -> None:
    """The two servers that never answer are both started before either times out, so their
    waits overlap instead of adding up (an order of events, not a stopwatch)."""
    events: list[tuple[str, str]] = []

    class Recorder:
        def started(self, spec: ServerSpec) -> None:
            events.append(("started", spec.name))

        def finished(self, outcome: Any) -> None:
            events.append(("finished", outcome.spec.name))

    specs = [hostile("hang", "hang-1"), hostile("hang", "hang-2"), hostile("good")]
    outcomes = acquire_many(specs, LiveOptions(request_timeout=2, concurrency=8), Recorder())
    assert [o.error is None for o in outcomes] == [False, False, True]
    first_slow_end = min(events.index(("finished", n)) for n in ("hang-1", "hang-2"))
    assert events.index(("started", "hang-1")) < first_slow_end
    assert events.index(("started", "hang-2")) < first_slow_end


@pytest.mark.parametrize(
    ("mode", "needle"),
    [
        ("duplicate", "metadata is rejected at tools[1]: duplicate tool name 'echo'"),
        ("deep", "JSON-RPC message that cannot be read"),
    ],
)
def test_malformed_metadata_fails_that_server_fast(mode: str, needle: str) -> None:
    outcome = acquire_many([hostile(mode)], LiveOptions(request_timeout=20))[0]
    assert outcome.surface is None and outcome.error is not None
    assert needle in outcome.error
    assert "no answer within" not in outcome.error  # refused on the answer, not at the timeout


def test_tool_a_2026_client_would_hide_is_still_scanned() -> None:
    surface = acquire_live(hostile("x-header"), LiveOptions(request_timeout=20))
    assert surface.protocol_version == "2026-07-28"
    assert [t.name for t in surface.tools] == ["echo", "hidden_tool"]
    assert any("invalid x-mcp-header" in note and "tools[1]" in note for note in surface.notes)


@pytest.mark.parametrize(
    ("mode", "needle"),
    [
        ("flood-stdout", "more than 8000000 bytes"),
        ("notify-flood", "more than 10000 notifications"),
    ],
)
def test_floods_stop_at_their_bound(mode: str, needle: str) -> None:
    options = LiveOptions(max_bytes=8_000_000, request_timeout=20)
    outcome = acquire_many([hostile(mode)], options)[0]
    assert outcome.surface is None and outcome.error is not None
    assert needle in outcome.error
    assert "no answer within" not in outcome.error  # stopped at the bound, not at the timeout


# --- real servers ------------------------------------------------------------------------------


@needs_node
def test_seven_real_servers_from_one_config(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    npm = {
        "filesystem": ("@modelcontextprotocol/server-filesystem", [str(allowed)]),
        "memory": ("@modelcontextprotocol/server-memory", []),
        "everything": ("@modelcontextprotocol/server-everything", []),
        "sequential-thinking": ("@modelcontextprotocol/server-sequential-thinking", []),
    }
    servers: dict[str, Any] = {
        name: {"command": "node", "args": [str(npm_server_entry(pkg)), *args]}
        for name, (pkg, args) in npm.items()
    }
    py = pypi_server_bin
    servers["time"] = {
        "command": str(py("mcp-server-time").parent / "python"),
        "args": ["-m", "mcp_server_time"],
    }
    servers["git"] = {"command": str(py("mcp-server-git"))}  # needs --allow-command
    servers["fetch"] = {
        "command": str(py("mcp-server-fetch").parent / "python"),
        "args": ["-m", "mcp_server_fetch"],
    }
    config = tmp_path / "claude_desktop_config.json"
    config.write_text(json.dumps({"mcpServers": servers}))
    code, report = scan_json(
        ["--live", str(config), "--allow-command", "mcp-server-git", "--concurrency", "7"], capsys
    )
    found = by_id(report)
    assert set(found) == set(servers)
    for server in found.values():
        assert server["coverage"] == ["live"], server["errors"]
        assert not server["incomplete"]
    counts = {name: len(s["tools"]) for name, s in found.items()}
    assert counts["filesystem"] == 14
    assert counts["memory"] == 9
    assert counts["sequential-thinking"] == 1
    assert counts["time"] == 2
    assert counts["fetch"] == 1
    assert counts["git"] >= 10
    assert counts["everything"] >= 10
    assert code in (0, 1)


@needs_node
def test_everything_lists_prompts_resources_templates_and_info() -> None:
    surface = acquire_live(npm_spec("everything", "@modelcontextprotocol/server-everything"))
    assert surface.prompts and surface.resources and surface.resource_templates
    assert surface.server_info is not None and surface.server_info["name"]
    assert surface.protocol_version and surface.capabilities and "tools" in surface.capabilities
    assert surface.instructions
    assert surface.transport is not None and surface.transport.kind == "stdio"
    assert surface.coverage == ("live",)


def test_python_server_from_its_own_venv_via_allow_command() -> None:
    spec = ServerSpec(
        name="time",
        transport=Transport(kind="stdio", command=str(pypi_server_bin("mcp-server-time"))),
    )
    with pytest.raises(LaunchRefused):
        acquire_live(spec, LiveOptions())
    surface = acquire_live(spec, LiveOptions(allow_commands=frozenset({"mcp-server-time"})))
    assert {t.name for t in surface.tools} == {"get_current_time", "convert_time"}


@needs_node
@needs_bwrap
def test_sandboxed_real_server_and_sandbox_facts(tmp_path: Path) -> None:
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    fs = npm_spec("fs", "@modelcontextprotocol/server-filesystem", str(allowed))
    python = str(pypi_server_bin("mcp-server-time").parent / "python")
    time_server = ServerSpec(
        name="time",
        transport=Transport(kind="stdio", command=python, args=("-m", "mcp_server_time")),
    )
    options = LiveOptions(sandbox=True, request_timeout=30)
    specs = [fs, time_server, hostile("probe")]
    outcomes = {o.spec.name: o for o in acquire_many(specs, options)}
    assert outcomes["fs"].surface is not None, outcomes["fs"].error
    assert len(outcomes["fs"].surface.tools) == 14
    assert outcomes["time"].surface is not None, outcomes["time"].error
    assert len(outcomes["time"].surface.tools) == 2
    probe = outcomes["probe"].surface
    assert probe is not None, outcomes["probe"].error
    facts = json.loads(probe.tools[0].description or "")
    assert facts["network"].startswith("blocked")
    assert facts["root_writable"] == "no"
    assert facts["home_writable"] == "yes"


@needs_node
@needs_bwrap
@pytest.mark.parametrize("sandbox", [False, True])
def test_npx_runs_an_installed_package_offline(sandbox: bool) -> None:
    prefix = str(NPM_MODULES.parent)
    spec = ServerSpec(
        name="memory",
        transport=Transport(
            kind="stdio",
            command="npx",
            args=("--prefix", prefix, "--offline", "--yes", "mcp-server-memory"),
        ),
    )
    surface = acquire_live(spec, LiveOptions(sandbox=sandbox, request_timeout=60))
    assert len(surface.tools) == 9


def _processes_with(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes()
                state = (entry / "stat").read_text().rsplit(")", 1)[-1].split()[0]
            except OSError:
                continue
            if marker.encode() in cmdline and state != "Z":
                found.append(int(entry.name))
    return found


@needs_bwrap
def test_sandbox_kills_a_daemon_that_left_the_process_group() -> None:
    marker = f"tw-daemon-{os.getpid()}-{time.monotonic_ns()}"
    spec = ServerSpec(
        name="daemon",
        transport=Transport(
            kind="stdio", command=sys.executable, args=(str(HOSTILE), "daemon", marker)
        ),
    )
    surface = acquire_live(spec, LiveOptions(sandbox=True, request_timeout=20))
    assert len(surface.tools) == 2
    deadline = time.monotonic() + 5
    while _processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _processes_with(marker) == [], "the pid namespace ends with bubblewrap"


@needs_bwrap
def test_sandbox_refuses_docker() -> None:
    spec = ServerSpec(
        name="d", transport=Transport(kind="stdio", command="docker", args=("run", "x"))
    )
    outcome = acquire_many([spec], LiveOptions(sandbox=True))[0]
    assert outcome.error is not None and "cannot confine 'docker'" in outcome.error


# --- Streamable HTTP and SSE -----------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(port: int) -> None:
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)


@pytest.fixture
def everything_http() -> Iterator[str]:
    """server-everything in its Streamable HTTP mode on a free loopback port."""
    require_tools("node")
    port = free_port()
    entry = npm_server_entry("@modelcontextprotocol/server-everything")
    env = {"PATH": os.environ["PATH"], "PORT": str(port)}
    proc = subprocess.Popen(
        [NODE, str(entry), "streamableHttp"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_streamable_http_matches_stdio(
    everything_http: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report = scan_json([everything_http], capsys)
    server = report["servers"][0]
    assert code in (0, 1), server["errors"]
    assert server["coverage"] == ["live"]
    over_stdio = acquire_live(npm_spec("everything", "@modelcontextprotocol/server-everything"))
    assert server["surface_digest"] == digest_surface(over_stdio).surface
    assert len(server["tools"]) == len(over_stdio.tools)


def test_legacy_sse_mode_of_a_real_server(capsys: pytest.CaptureFixture[str]) -> None:
    require_tools("node")
    port = free_port()
    entry = npm_server_entry("@modelcontextprotocol/server-everything")
    env = {"PATH": os.environ["PATH"], "PORT": str(port)}
    proc = subprocess.Popen(
        [NODE, str(entry), "sse"], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        wait_for_port(port)
        code, report = scan_json([f"http://127.0.0.1:{port}/sse"], capsys)
        server = report["servers"][0]
        assert code in (0, 1), server["errors"]
        assert server["coverage"] == ["live"] and len(server["tools"]) >= 10
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_http_policy_and_budget(everything_http: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, report = scan_json([everything_http, "--allow-host", "example.org"], capsys)
    assert code == 3
    assert "not on the --allow-host list" in report["servers"][0]["errors"][0]
    code, report = scan_json([everything_http, "--allow-host", "127.0.0.1"], capsys)
    assert code in (0, 1)
    spec = ServerSpec(name="e", transport=Transport(kind="http", url=everything_http))
    outcome = acquire_many([spec], LiveOptions(max_bytes=2000))[0]
    assert outcome.error is not None and "more than 2000 bytes" in outcome.error


def test_snapshot_round_trip_gives_the_same_digests(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "snap.json"
    server = ServerSpec(
        name="good",
        transport=Transport(
            kind="stdio",
            command=sys.executable,
            args=(str(HOSTILE), "good"),
            env={"TOKEN": "s3cret"},
        ),
    )
    config = tmp_path / "mcp.json"
    config.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "good": {
                        "command": sys.executable,
                        "args": [str(HOSTILE), "good"],
                        "env": {"TOKEN": "s3cret"},
                    }
                }
            }
        )
    )
    assert main(["snapshot", str(config), "-o", str(out)]) == 0
    capsys.readouterr()
    text = out.read_text()
    assert "s3cret" not in text and "<redacted>" in text
    loaded = load_catalog_file(out)
    live = acquire_live(server)
    assert digest_surface(loaded) == digest_surface(live)
    assert loaded.prompts == live.prompts and loaded.resources == live.resources
    assert loaded.coverage == ("live",)
    assert scan_json([str(out)], capsys)[0] in (0, 1)
    report = scan_json([str(out)], capsys)[1]
    assert report["servers"][0]["surface_digest"] == digest_surface(live).surface

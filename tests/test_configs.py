"""Client configs: every documented format parses into the right ServerSpecs; hostile files exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import FIXTURES
from toolwitness.acquire.configs import DiscoveryEnv, discover, find_configs, guess_client
from toolwitness.acquire.jsonc import strip_jsonc
from toolwitness.acquire.package_spec import package_from_command
from toolwitness.acquire.targets import resolve_targets
from toolwitness.cli import main
from toolwitness.errors import InputError
from toolwitness.model import Coverage, PackageRef, ServerSpec

CONFIGS = FIXTURES / "configs"
HOME = CONFIGS / "home"
PROJECT = CONFIGS / "project"


def _specs(path: Path) -> dict[str, ServerSpec]:
    resolved = resolve_targets([path])
    assert not resolved.catalogs, "a client config must not load as a tools catalog"
    return {s.name: s for s in resolved.specs}


def _pkg(spec: ServerSpec) -> tuple[str, str, str | None] | None:
    p = spec.package
    return None if p is None else (p.ecosystem, p.name, p.version)


# --- one test per client format, from each client's documented shape ---------------------------


def test_claude_desktop_macos() -> None:
    specs = _specs(HOME / "Library/Application Support/Claude/claude_desktop_config.json")
    assert set(specs) == {"filesystem", "git"}
    fs = specs["filesystem"]
    assert fs.client == "claude-desktop" and fs.transport.kind == "stdio"
    assert fs.transport.command == "npx"
    assert fs.transport.args[-1] == "/Users/me/Desktop"
    assert _pkg(fs) == ("npm", "@modelcontextprotocol/server-filesystem", "2026.8.31")
    assert _pkg(specs["git"]) == ("pypi", "mcp-server-git", "2025.7.1")
    assert "mcpServers.git" in (specs["git"].origin or "")


def test_claude_code_user_and_per_project_entries() -> None:
    specs = _specs(HOME / ".claude.json")
    assert set(specs) == {"memory", "sentry"}
    assert specs["memory"].client == "claude-code"
    sentry = specs["sentry"]
    assert sentry.transport.kind == "http"
    assert sentry.transport.url == "https://mcp.sentry.dev/mcp"
    assert sentry.transport.headers == {"Authorization": "Bearer ${SENTRY_TOKEN}"}
    assert 'projects["/home/me/src/app"].mcpServers.sentry' in (sentry.origin or "")


def test_claude_code_project_mcp_json_keeps_env_reference() -> None:
    spec = _specs(PROJECT / ".mcp.json")["shared-tools"]
    assert spec.client == "claude-code"
    assert spec.transport.env == {"CACHE_DIR": "${CACHE_DIR:-/tmp}"}  # never expanded


def test_cursor_global_and_project() -> None:
    glob = _specs(HOME / ".cursor/mcp.json")
    assert glob["everything"].client == "cursor"
    assert _pkg(glob["everything"]) == ("npm", "@modelcontextprotocol/server-everything", None)
    assert glob["remote-docs"].transport.kind == "http"
    assert glob["remote-docs"].transport.headers == {"API_KEY": "${env:DOCS_KEY}"}
    proj = _specs(PROJECT / ".cursor/mcp.json")
    assert _pkg(proj["inspector"]) == ("npm", "@modelcontextprotocol/inspector", "0.14.0")


def test_vscode_user_settings_jsonc_mcp_key() -> None:
    spec = _specs(HOME / ".config/Code/User/settings.json")["time"]
    assert spec.client == "vscode"
    assert spec.transport.args == ("mcp-server-time==2026.7.10", "--local-timezone=Europe/Paris")


def test_vscode_user_mcp_json_windows_location() -> None:
    spec = _specs(HOME / "AppData/Roaming/Code/User/mcp.json")["docs"]
    assert spec.client == "vscode" and spec.transport.kind == "http"


def test_vscode_project_servers_inputs_comments_trailing_commas() -> None:
    specs = _specs(PROJECT / ".vscode/mcp.json")
    docker = specs["Perplexity"]
    assert docker.transport.env == {"PERPLEXITY_API_KEY": "${input:perplexity-key}"}
    assert _pkg(docker) == ("docker", "mcp/perplexity-ask", None)
    assert specs["github"].transport.url == "https://api.githubcopilot.com/mcp/"


def test_windsurf_server_url() -> None:
    specs = _specs(HOME / ".codeium/windsurf/mcp_config.json")
    assert specs["figma"].client == "windsurf"
    assert specs["figma"].transport.kind == "http"
    assert specs["figma"].transport.url == "https://figma.example.com/mcp"


def test_continue_yaml_json_and_block_files() -> None:
    yaml_specs = _specs(HOME / ".continue/config.yaml")
    assert _pkg(yaml_specs["SQLite"]) == ("pypi", "mcp-server-sqlite", "2025.4.25")
    remote = yaml_specs["Remote search"]
    assert remote.transport.kind == "http"
    assert remote.transport.headers == {"X-Client": "continue"}
    legacy = _specs(HOME / ".continue/config.json")
    assert [_pkg(s) for s in legacy.values()] == [("pypi", "mcp-server-fetch", "2025.4.7")]
    block = _specs(PROJECT / ".continue/mcpServers/playwright.yaml")["Browser search"]
    assert block.client == "continue"
    assert _pkg(block) == ("npm", "@playwright/mcp", "latest")
    copied = _specs(PROJECT / ".continue/mcpServers/copied.json")["time-copied"]
    assert _pkg(copied) == ("pypi", "mcp-server-time", "2026.7.10")


def test_gemini_cli_url_is_sse_http_url_is_streamable() -> None:
    specs = _specs(HOME / ".gemini/settings.json")
    assert specs["sseServer"].transport.kind == "sse"
    assert specs["httpServer"].transport.kind == "http"
    assert specs["pythonTools"].transport.cwd == "./mcp-servers/python"
    assert specs["pythonTools"].client == "gemini-cli"


def test_zed_context_servers_all_shapes() -> None:
    specs = _specs(HOME / ".config/zed/settings.json")
    assert set(specs) == {
        "local-mcp-server",
        "legacy-shape",
        "remote-mcp-server",
    }  # extension skipped
    legacy = specs["legacy-shape"].transport
    assert (legacy.command, legacy.args, legacy.env) == (
        "node",
        ("/opt/mcp/server.js",),
        {"DEBUG": "1"},
    )
    assert specs["remote-mcp-server"].transport.kind == "http"


def test_codex_toml_tables_and_bearer_env_var() -> None:
    specs = _specs(HOME / ".codex/config.toml")
    assert specs["docs"].client == "codex"
    assert _pkg(specs["docs"]) == ("npm", "mcp-remote", "0.1.15")
    assert specs["docs"].transport.env == {"LOG": "1"}
    linear = specs["linear"].transport
    assert linear.kind == "http"
    assert linear.headers == {"Authorization": "Bearer ${env:LINEAR_TOKEN}"}


def test_kiro_user_and_project_disabled_flag() -> None:
    user = _specs(HOME / ".kiro/settings/mcp.json")["fetch"]
    assert user.client == "kiro" and user.enabled is False
    project = _specs(PROJECT / ".kiro/settings/mcp.json")["aws-docs"]
    assert project.enabled is True
    assert _pkg(project) == ("pypi", "awslabs.aws-documentation-mcp-server", None)


def test_opencode_v1_and_v2_shapes() -> None:
    v1 = _specs(HOME / ".config/opencode/opencode.json")
    local = v1["my-local-mcp-server"].transport
    assert (local.command, local.args) == ("bun", ("x", "my-mcp-command"))
    assert local.env == {"MY_ENV_VAR": "my_env_var_value"}
    assert v1["my-remote-mcp"].enabled is False
    v2 = _specs(PROJECT / "opencode.jsonc")["mcp_everything"]
    assert v2.client == "opencode"
    assert _pkg(v2) == ("npm", "@modelcontextprotocol/server-everything", "2026.8.31")


def test_discovery_finds_every_fixture_file_with_its_client() -> None:
    env = DiscoveryEnv.from_environ({}, home=HOME, project=PROJECT)
    found = {c.path.relative_to(CONFIGS).as_posix(): c.client for c in find_configs(env)}
    on_disk = {
        p.relative_to(CONFIGS).as_posix()
        for p in CONFIGS.rglob("*")
        if p.is_file() and p.parent != CONFIGS
    }
    assert set(found) == on_disk
    assert found["home/.codex/config.toml"] == "codex"
    assert found["project/opencode.jsonc"] == "opencode"
    assert len(set(found.values())) == 11  # every client in the table has a fixture


def test_environment_variables_move_locations(tmp_path: Path) -> None:
    xdg = tmp_path / "xdg"
    (xdg / "zed").mkdir(parents=True)
    (xdg / "zed" / "settings.json").write_text('{"context_servers": {"a": {"command": "node"}}}')
    env = DiscoveryEnv.from_environ({"HOME": str(tmp_path / "nohome"), "XDG_CONFIG_HOME": str(xdg)})
    assert [c.client for c in find_configs(env)] == ["zed"]


def test_guess_client_from_path_tail() -> None:
    assert guess_client(Path("/x/.cursor/mcp.json"), "mcp-servers") == "cursor"
    assert guess_client(Path("/x/claude_desktop_config.json"), "mcp-servers") == "claude-desktop"
    assert guess_client(Path("/x/anything.json"), "mcp-servers") == "generic"


def test_config_surfaces_are_config_only_and_say_nothing_was_listed() -> None:
    surfaces = resolve_targets([HOME / ".cursor/mcp.json"]).surfaces()
    assert all(s.coverage == (Coverage.CONFIG,) and not s.tools for s in surfaces)
    assert all(any("nothing was listed" in n for n in s.notes) for s in surfaces)


def test_scan_of_config_reports_no_meta_001_and_keeps_catalogs_working(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    catalog = tmp_path / "cat.json"
    catalog.write_text(
        json.dumps(
            {"tools": [{"name": "t", "description": "d", "inputSchema": {"type": "object"}}]}
        )
    )
    code = main(["scan", "-f", "json", str(HOME / ".cursor/mcp.json"), str(catalog)])
    doc = json.loads(capsys.readouterr().out)
    assert code == 0
    by_id = {s["id"]: s for s in doc["servers"]}
    assert by_id["cat"]["coverage"] == ["manifest"] and len(by_id["cat"]["tools"]) == 1
    assert by_id["everything"]["coverage"] == ["config"]
    assert not any(f["rule_id"] == "TW-META-001" for s in doc["servers"] for f in s["findings"])
    assert any("nothing was listed" in n for n in by_id["everything"]["notes"])


def test_duplicate_names_across_configs_get_distinct_ids() -> None:
    surfaces = resolve_targets(
        [PROJECT / ".continue/mcpServers/copied.json", HOME / ".continue/config.yaml",
         CONFIGS / "home/.config/Code/User/settings.json"]
    ).surfaces()  # fmt: skip
    ids = [s.id for s in surfaces]
    assert len(ids) == len(set(ids))


# --- package specs -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "args", "expected"),
    [
        ("npx", ["-y", "@scope/pkg@1.2.3", "/tmp"], ("npm", "@scope/pkg", "1.2.3")),
        ("npx", ["--yes", "pkg@latest"], ("npm", "pkg", "latest")),
        ("npx", ["-p", "@scope/pkg@2.0.0", "bin-name"], ("npm", "@scope/pkg", "2.0.0")),
        ("/usr/local/bin/npx", ["pkg"], ("npm", "pkg", None)),
        ("npx.cmd", ["-y", "pkg@^1.0.0"], ("npm", "pkg", "^1.0.0")),
        ("cmd", ["/c", "npx", "-y", "pkg@1.0.0"], ("npm", "pkg", "1.0.0")),
        ("npm", ["exec", "--", "pkg@3.0.0"], ("npm", "pkg", "3.0.0")),
        ("bunx", ["pkg@1.0.0"], ("npm", "pkg", "1.0.0")),
        ("npx", ["github:user/repo"], ("npm", "github:user/repo", None)),
        ("uvx", ["mcp-server-git==1.0"], ("pypi", "mcp-server-git", "1.0")),
        ("uvx", ["--from", "pkg==2.1", "cmd"], ("pypi", "pkg", "2.1")),
        ("uvx", ["--python", "3.12", "pkg@0.3"], ("pypi", "pkg", "0.3")),
        ("uvx", ["pkg[extra]==1.0"], ("pypi", "pkg", "1.0")),
        ("uvx", ["pkg>=1.0"], ("pypi", "pkg", None)),
        ("uvx", ["git+https://example.com/x.git"], ("pypi", "git+https://example.com/x.git", None)),
        ("uv", ["tool", "run", "pkg==1"], ("pypi", "pkg", "1")),
        ("pipx", ["run", "--spec", "pkg==1.0", "cmd"], ("pypi", "pkg", "1.0")),
        ("pipx", ["run", "pkg"], ("pypi", "pkg", None)),
        (
            "docker",
            ["run", "-i", "--rm", "-e", "TOKEN", "ghcr.io/o/img:1.2"],
            ("docker", "ghcr.io/o/img", "1.2"),
        ),
        ("docker", ["run", "img@sha256:abc123"], ("docker", "img", "sha256:abc123")),
        (
            "docker",
            ["run", "--name", "x", "localhost:5000/img"],
            ("docker", "localhost:5000/img", None),
        ),
    ],
)
def test_package_from_command(
    command: str, args: list[str], expected: tuple[str, str, str | None]
) -> None:
    ref = package_from_command(command, args)
    assert isinstance(ref, PackageRef)
    assert (ref.ecosystem, ref.name, ref.version) == expected


@pytest.mark.parametrize(
    ("command", "args"), [("node", ["server.js"]), ("python", ["-m", "x"]), ("npx", [])]
)
def test_no_package_for_plain_commands(command: str, args: list[str]) -> None:
    assert package_from_command(command, args) is None


# --- JSONC --------------------------------------------------------------------------------------


def test_jsonc_respects_strings_and_keeps_lines() -> None:
    text = '{\n  "url": "http://x//y", // a comment\n  "s": "/* not a comment */",\n  /* block\n */ "a": [1,2,],\n}'
    out = strip_jsonc(text, "t")
    assert json.loads(out) == {"url": "http://x//y", "s": "/* not a comment */", "a": [1, 2]}
    assert out.count("\n") == text.count("\n")


def test_jsonc_escaped_quote_and_unterminated_comment() -> None:
    assert json.loads(strip_jsonc('{"a": "q\\"//x", }', "t")) == {"a": 'q"//x'}
    with pytest.raises(InputError, match="unterminated"):
        strip_jsonc('{"a": 1 /* open', "t")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-1000, 1000) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(json_values)
def test_jsonc_is_identity_on_plain_json(value: object) -> None:
    text = json.dumps(value)
    assert json.loads(strip_jsonc(text, "t")) == value


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_jsonc_never_crashes_on_garbage(text: str) -> None:
    try:
        strip_jsonc(text, "t")
    except InputError:
        pass


# --- hostile configs: exit 2 with the file and the path ----------------------------------------


HOSTILE = [
    ("deep.json", '{"mcpServers": ' + '{"a": ' * 200 + "1" + "}" * 201, "nesting deeper"),
    ("dup.json", '{"mcpServers": {"a": {"command": "x"}, "a": {"command": "y"}}}', "duplicate key"),
    (
        "args.json",
        '{"mcpServers": {"a": {"command": "npx", "args": "pkg"}}}',
        "'args' must be an array",
    ),
    (
        "envobj.json",
        '{"mcpServers": {"a": {"command": "npx", "env": {"K": {"x": 1}}}}}',
        "'env' values",
    ),
    ("cmdnum.json", '{"mcpServers": {"a": {"command": 5}}}', "'command' must be a string"),
    (
        "both.json",
        '{"mcpServers": {"a": {"command": "x", "url": "https://h/"}}}',
        "both a 'command' and a URL",
    ),
    ("neither.json", '{"mcpServers": {"a": {"args": []}}}', "neither a 'command' nor a URL"),
    (
        "type.json",
        '{"servers": {"a": {"type": "carrier-pigeon", "url": "https://h"}}}',
        "unknown transport",
    ),
    (
        "scheme.json",
        '{"mcpServers": {"a": {"url": "file:///etc/passwd"}}}',
        "well-formed http(s) URL",
    ),
    ("ipv6.json", '{"mcpServers": {"a": {"url": "http://[::1"}}}', "well-formed http(s) URL"),
    ("port.json", '{"mcpServers": {"a": {"url": "http://h:99999/"}}}', "well-formed http(s) URL"),
    ("entry.json", '{"mcpServers": {"a": "npx pkg"}}', "server entry must be an object"),
    (
        "list.json",
        '{"mcpServers": {"a": {"command": "npx"}}, "projects": {"p": {"mcpServers": []}}}',
        "must be an object",
    ),
    ("dup.yaml", "mcpServers:\n  - name: a\n    command: x\n    command: y\n", "duplicate key"),
    ("bomb.yaml", "a: &a [1,2]\nb: [*a, *a]\nmcpServers: []\n", "anchors and aliases"),
    ("twodocs.yaml", "mcpServers: []\n---\nmcpServers: []\n", "more than one YAML document"),
    ("deep.yaml", "mcpServers: " + "[" * 100 + "]" * 100 + "\n", "nesting deeper"),
    ("notconfig.yaml", "hello: world\n", "not an MCP client config"),
    (
        "dup.toml",
        '[mcp_servers.a]\ncommand = "x"\n[mcp_servers.a]\ncommand = "y"\n',
        "not valid TOML",
    ),
    ("date.toml", '[mcp_servers.a]\ncommand = "x"\nenv = { K = 1979-05-27 }\n', "'env' values"),
]


@pytest.mark.parametrize(("name", "content", "needle"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_config_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, content: str, needle: str
) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    code = main(["scan", str(path)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert needle in err and str(path) in err
    assert "Traceback" not in err


def test_huge_config_is_rejected_not_truncated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "big.json"
    filler = "x" * (1024 * 1024 + 10)
    path.write_text(json.dumps({"mcpServers": {}, "pad": filler}))
    code = main(["scan", "--max-file-mib", "1", str(path)])
    assert code == 2
    assert "over the 1048576-byte limit" in capsys.readouterr().err


def test_non_utf8_config_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "x.yaml"
    path.write_bytes(b"mcpServers: [\xff]\n")
    assert main(["scan", str(path)]) == 2
    assert "not UTF-8" in capsys.readouterr().err


def test_catalog_with_comments_stays_strict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cat.json"
    path.write_text('{"tools": [] // comment\n}')
    assert main(["scan", str(path)]) == 2
    assert "not valid JSON" in capsys.readouterr().err


entry_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 5) | st.sampled_from(
        ["npx", "uvx", "stdio", "http", "sse", "local", "remote", "https://h.example/mcp", "x", ""]
    ),
    lambda children: st.lists(children, max_size=3)
    | st.dictionaries(
        st.sampled_from(
            ["command", "args", "env", "url", "serverUrl", "httpUrl", "type", "headers", "cwd",
             "transport", "environment", "disabled", "enabled", "name", "requestOptions", "path"]
        ),
        children,
        max_size=5,
    ),
    max_leaves=15,
)  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(["mcp-servers", "zed", "codex", "continue", "opencode", "vscode-mcp"]),
    entry_values,
)
def test_any_entry_shape_is_a_spec_or_an_input_error(fmt: str, entry: object) -> None:
    from toolwitness.acquire.config_formats import specs_from_document
    from toolwitness.acquire.limits import InputLimits

    key = {"mcp-servers": "mcpServers", "zed": "context_servers", "codex": "mcp_servers",
           "continue": "mcpServers", "opencode": "mcp", "vscode-mcp": "servers"}[fmt]  # fmt: skip
    doc = {key: [entry] if fmt == "continue" else {"srv": entry}}
    try:
        specs = specs_from_document(doc, fmt, client="t", source="t.json", limits=InputLimits())
    except InputError:
        return
    for spec in specs:
        assert spec.transport.kind in ("stdio", "http", "sse")
        assert (spec.transport.command is None) != (spec.transport.url is None)


def test_windows_variables_resolve(tmp_path: Path) -> None:
    profile = tmp_path / "Users" / "me"
    appdata = tmp_path / "Roaming"
    (appdata / "Claude").mkdir(parents=True)
    (appdata / "Claude" / "claude_desktop_config.json").write_text(
        '{"mcpServers": {"a": {"command": "npx.cmd", "args": ["-y", "p@1.0.0"]}}}'
    )
    (profile / ".cursor").mkdir(parents=True)
    (profile / ".cursor" / "mcp.json").write_text(
        '{"mcpServers": {"b": {"url": "https://h.example/mcp"}}}'
    )
    env = DiscoveryEnv.from_environ({"USERPROFILE": str(profile), "APPDATA": str(appdata)})
    assert [c.client for c in find_configs(env)] == ["claude-desktop", "cursor"]


def test_entry_and_glob_counts_are_bounded(tmp_path: Path) -> None:
    from toolwitness.acquire.config_formats import specs_from_document
    from toolwitness.acquire.limits import InputLimits

    doc = {"mcpServers": {f"s{i}": {"command": "npx"} for i in range(5)}}
    with pytest.raises(InputError, match="more than 3 server entries"):
        specs_from_document(
            doc, "mcp-servers", client="t", source="t", limits=InputLimits(max_items=3)
        )
    blocks = tmp_path / "p" / ".continue" / "mcpServers"
    blocks.mkdir(parents=True)
    for i in range(201):
        (blocks / f"b{i}.yaml").write_text("mcpServers: []\n")
    env = DiscoveryEnv.from_environ({}, home=tmp_path / "h", project=tmp_path / "p")
    found = discover(env)  # an overflow is a problem on record, not the end of discovery
    (problem,) = found.problems
    assert "more than 200 files match" in problem.reason and problem.client == "continue"
    assert len(found.files()) == 200
    assert sorted(found.files())[0].endswith("b0.yaml")


def test_yaml_node_flood_is_refused_quickly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "flood.yaml"
    path.write_text("mcpServers: [" + "1," * 260_000 + "1]\n")
    assert main(["scan", str(path)]) == 2
    assert "more than 250000 YAML nodes" in capsys.readouterr().err


def test_oversized_toml_is_refused_before_parsing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "config.toml"
    path.write_text("# pad\n" * 400_000 + '[mcp_servers.a]\ncommand = "npx"\n')
    assert main(["scan", str(path)]) == 2
    assert "over the 2097152-byte limit" in capsys.readouterr().err

"""data/clients.yaml: valid against its schema, every location found on every platform it names,
and docs/configs.md's table generated from it."""

from __future__ import annotations

import copy
import json
import tempfile
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
import yaml

from conftest import ROOT
from toolwitness.acquire.clients import ClientFile, client_table, parse_client_table
from toolwitness.acquire.discovery import OPAQUE_REASON, discover
from toolwitness.acquire.locations import DiscoveryEnv
from toolwitness.configs_doc import current_block, render_clients_table
from toolwitness.errors import InternalError

_SERVER = {"command": "npx", "args": ["-y", "some-mcp@1.0.0"]}
# The smallest document of each format that defines the server `s` (what the docs show).
_DOCS: dict[str, str] = {
    "mcp-servers": json.dumps({"mcpServers": {"s": _SERVER}}),
    "mcp-json": json.dumps({"mcpServers": {"s": _SERVER}}),
    "gemini": json.dumps({"mcpServers": {"s": _SERVER}}),
    "claude-code": json.dumps({"mcpServers": {"s": _SERVER}}),
    "claude-plugin": json.dumps({"name": "p", "mcpServers": {"s": _SERVER}}),
    "mcpb-manifest": json.dumps(
        {"manifest_version": "0.2", "name": "s", "server": {"type": "node", "mcp_config": _SERVER}}
    ),
    "vscode-mcp": json.dumps({"servers": {"s": _SERVER}}),
    "vscode-settings": json.dumps({"mcp": {"servers": {"s": _SERVER}}}),
    "augment-settings": json.dumps(
        {"augment.advanced": {"mcpServers": [{"name": "s", **_SERVER}]}}
    ),
    "amp-settings": json.dumps({"amp.mcpServers": {"s": _SERVER}}),
    "zed": json.dumps({"context_servers": {"s": _SERVER}}),
    "codex": '[mcp_servers.s]\ncommand = "npx"\nargs = ["-y", "some-mcp@1.0.0"]\n',
    "opencode": json.dumps({"mcp": {"s": {"type": "local", "command": ["npx", "some-mcp"]}}}),
    "crush": json.dumps({"mcp": {"s": {"type": "stdio", **_SERVER}}}),
    "goose": "extensions:\n  s:\n    type: stdio\n    cmd: npx\n    args: [-y, some-mcp]\n",
    "opaque": "mcp add s --type stdio --command npx\n",
}
_CONTINUE_JSON = {"name": "s", "transport": {"type": "stdio", "command": "npx"}}
_CONTINUE = {
    "yaml": "mcpServers:\n  - name: s\n    command: npx\n",
    "json": json.dumps({"experimental": {"modelContextProtocolServers": [_CONTINUE_JSON]}}),
}


def _raw_table() -> dict[str, object]:
    text = resources.files("toolwitness.data").joinpath("clients.yaml").read_text("utf-8")
    doc = yaml.safe_load(text)
    assert isinstance(doc, dict)
    return doc


def test_the_table_matches_its_schema() -> None:
    schema = json.loads(
        resources.files("toolwitness.data").joinpath("clients.schema.json").read_text("utf-8")
    )
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.validate(_raw_table(), schema)
    bad = copy.deepcopy(_raw_table())
    bad["clients"][0]["files"][0]["format"] = "nonsense"  # type: ignore[index]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("clients", 0, "files", 0, "path"), "~/x.json", "must be a string starting with"),
        (("clients", 0, "files", 0, "path"), "{NOPE}/x.json", "unknown variable"),
        (("clients", 0, "docs"), ["http://insecure"], "https://"),
        (("clients", 1, "files", 1, "scope"), "user", "only they, start with {PROJECT}"),
        (("schema",), "toolwitness.clients/1", "schema marker"),
    ],
)
def test_the_loader_refuses_a_broken_table(
    path: tuple[object, ...], value: object, message: str
) -> None:
    doc = copy.deepcopy(_raw_table())
    node: object = doc
    for key in path[:-1]:
        node = node[key]  # type: ignore[index]
    node[path[-1]] = value  # type: ignore[index]
    with pytest.raises(InternalError, match=message):
        parse_client_table(doc)


def test_at_least_the_clients_the_issue_names() -> None:
    ids = {c.id for c in client_table().clients}
    assert len(ids) >= 30
    assert {
        "claude-desktop", "claude-code", "cursor", "vscode", "vscode-insiders", "vscodium",
        "windsurf", "continue", "gemini-cli", "zed", "codex", "kiro", "opencode", "cline",
        "roo-code", "amazon-q", "copilot-cli", "antigravity", "goose", "lm-studio", "junie",
        "crush", "qwen-code", "augment",
    } <= ids  # fmt: skip
    for client in client_table().clients:
        assert client.docs, client.id


def _content(entry: ClientFile) -> str:
    if entry.format == "continue":
        return _CONTINUE["yaml" if entry.syntax == "yaml" else "json"]
    return _DOCS[entry.format]


def _cases() -> list[tuple[ClientFile, int]]:
    table = client_table()
    return [(f, i) for f in table.files() for i in range(len(table.expand(f.path)))]


@pytest.mark.parametrize(
    ("entry", "variant"), _cases(), ids=lambda v: v.path if isinstance(v, ClientFile) else str(v)
)
def test_every_location_is_found_on_each_platform_it_names(entry: ClientFile, variant: int) -> None:
    """Write the client's smallest document at the location (each platform's folder in turn,
    system folders under a fake root) and discovery reads it as that client's server."""
    table = client_table()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        environ = {
            "HOME": str(root / "home"), "APPDATA": str(root / "appdata"),
            "LOCALAPPDATA": str(root / "local"), "ProgramData": str(root / "programdata"),
            "ProgramFiles": str(root / "programfiles"),
        }  # fmt: skip
        project = root / "project"
        project.mkdir()
        env = DiscoveryEnv.from_environ(
            environ, projects=((project, "--project"),), root=str(root / "sysroot")
        )
        resolved = env.resolve(entry.path, table, project if entry.scope == "project" else None)
        path = Path(str(resolved[variant][0]).replace("*", "x"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_content(entry), encoding="utf-8")
        found = discover(env)
        if entry.format == "opaque":
            assert [p.reason for p in found.problems] == [OPAQUE_REASON]
            return
        assert not found.problems, found.problems
        assert [(s.name, s.client) for s in found.specs] == [("s", entry.client)], found.specs
        assert any(loc.path == str(path) and loc.state == "found" for loc in found.locations)


def test_the_docs_table_is_current() -> None:
    expected = render_clients_table(client_table())
    actual = current_block((ROOT / "docs" / "configs.md").read_text("utf-8"))
    assert actual == expected, "regenerate: python -m toolwitness.configs_doc docs/configs.md"
    for client in client_table().clients:
        assert f"**{client.label}** (`{client.id}`)" in expected

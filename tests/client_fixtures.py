"""A home folder and a project folder with config files for 30 MCP clients, written by tests.

Each snippet follows the client's documented format (data/clients.yaml names the sources) with
the kind of servers people configure. Three files are damaged the way real ones are: Cursor's
`mcp.json` is truncated mid-write, Goose's YAML has a 5,000-digit integer, and the project's
`.mcp.json` uses Claude Code's `${VAR:-default}` (valid, and must be read). A token is planted in
env, headers, arguments and a reference default so tests can prove it never reaches a report.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TOKEN = "ghp_" + "Zq7Lw2Rk9Tx4Vb8Nc3Md" * 2  # a GitHub-shaped token, built here, never in a file
SECRET_BODY = TOKEN[4:]


@dataclass
class ClientTree:
    home: Path
    project: Path
    extra_project: Path  # recorded by ~/.claude.json only: found through the registry
    servers: dict[str, str] = field(default_factory=dict)  # server name -> client id
    lost: set[str] = field(default_factory=set)  # servers in the damaged files
    unreadable: dict[Path, str] = field(default_factory=dict)  # file -> words of its reason
    clients: set[str] = field(default_factory=set)

    def write(self, path: Path, text: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    def json(self, path: Path, doc: dict[str, Any], client: str, names: list[str]) -> None:
        self.write(path, json.dumps(doc, indent=2))
        self.add(client, names)

    def add(self, client: str, names: list[str]) -> None:
        self.clients.add(client)
        for name in names:
            assert name not in self.servers, name
            self.servers[name] = client


def _npx(package: str, *args: str) -> dict[str, Any]:
    return {"command": "npx", "args": ["-y", package, *args]}


def build_client_tree(root: Path) -> ClientTree:
    home, project, extra = root / "home", root / "work" / "app", root / "work" / "tools"
    for folder in (home, project, extra):
        folder.mkdir(parents=True)
    t = ClientTree(home, project, extra)
    _home_desktop_and_code(t)
    _home_editors(t)
    _home_agents(t)
    _home_cli_tools(t)
    _project(t)
    return t


def _home_desktop_and_code(t: ClientTree) -> None:
    h = t.home
    desktop = h / "Library/Application Support/Claude"
    t.json(desktop / "claude_desktop_config.json", {"mcpServers": {
        "desktop-filesystem": _npx("@modelcontextprotocol/server-filesystem@2026.8.31", "/Users/me"),
        "desktop-github": {**_npx("@modelcontextprotocol/server-github"),
                           "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": TOKEN}},
    }}, "claude-desktop", ["desktop-filesystem", "desktop-github"])  # fmt: skip
    t.json(desktop / "Claude Extensions/ant.dir.notes/manifest.json", {
        "manifest_version": "0.2", "name": "desktop-notes", "version": "1.0.0",
        "server": {"type": "node", "entry_point": "server/index.js", "mcp_config": {
            "command": "node", "args": ["${__dirname}/server/index.js"],
            "env": {"NOTES_DIR": "${user_config.notes_dir}"}}},
    }, "claude-desktop", ["desktop-notes"])  # fmt: skip
    t.json(h / ".claude.json", {
        "numStartups": 41, "installMethod": "npm",
        "mcpServers": {"code-memory": {"type": "stdio", **_npx("@modelcontextprotocol/server-memory")}},
        "projects": {
            str(t.project): {"allowedTools": [], "mcpServers": {"code-sentry": {
                "type": "http", "url": "https://mcp.sentry.dev/mcp",
                "headers": {"Authorization": "Bearer ${SENTRY_TOKEN}"}}}},
            str(t.extra_project): {"allowedTools": []},
            "/home/someone-else/gone": {"allowedTools": []},
        },
    }, "claude-code", ["code-memory", "code-sentry"])  # fmt: skip
    plugin = h / ".claude/plugins/cache/acme-marketplace/db-tools/1.2.0"
    t.json(plugin / ".mcp.json", {"mcpServers": {"plugin-db": {
        "command": "${CLAUDE_PLUGIN_ROOT}/servers/db-server", "args": ["--config",
        "${CLAUDE_PLUGIN_ROOT}/config.json"], "env": {"DB_URL": "${DB_URL}"}}}},
        "claude-code", ["plugin-db"])  # fmt: skip
    # Cursor: truncated mid-write (an editor crashed); its one server is lost.
    t.write(h / ".cursor/mcp.json", '{\n  "mcpServers": {\n    "cursor-browser": {\n'
            '      "command": "npx",\n      "args": ["-y", "@browsermcp/mcp@0.1.3"')  # fmt: skip
    t.add("cursor", ["cursor-browser"])
    t.lost.add("cursor-browser")
    t.unreadable[h / ".cursor/mcp.json"] = "not valid JSON"


def _home_editors(t: ClientTree) -> None:
    h = t.home
    code = h / ".config/Code/User"
    t.write(
        code / "mcp.json",
        """{
  // VS Code user MCP servers
  "inputs": [{"type": "promptString", "id": "perplexity-key", "password": true}],
  "servers": {
    "vscode-perplexity": {"type": "stdio", "command": "docker",
      "args": ["run", "-i", "--rm", "-e", "PERPLEXITY_API_KEY", "mcp/perplexity-ask"],
      "env": {"PERPLEXITY_API_KEY": "${input:perplexity-key}"}},
    "vscode-github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/"},
  },
}
""",
    )
    t.add("vscode", ["vscode-perplexity", "vscode-github"])
    t.write(
        code / "settings.json",
        """{
  "editor.fontSize": 13,
  "mcp": {"servers": {"vscode-legacy-fetch": {"command": "uvx", "args": ["mcp-server-fetch"]}}},
  "augment.advanced": {"mcpServers": [
    {"name": "augment-context7", "command": "npx", "args": ["-y", "@upstash/context7-mcp"]}
  ]},
  "amp.mcpServers": {"amp-editor-playwright": {"command": "npx", "args": ["-y", "@playwright/mcp@0.0.41"]}},
}
""",
    )
    t.add("vscode", ["vscode-legacy-fetch"])
    t.add("augment", ["augment-context7"])
    t.add("amp", ["amp-editor-playwright"])
    t.json(h / ".config/Code - Insiders/User/mcp.json", {"servers": {
        "insiders-time": {"command": "uvx", "args": ["mcp-server-time==2025.9.25"]}}},
        "vscode-insiders", ["insiders-time"])  # fmt: skip
    t.json(h / ".config/VSCodium/User/mcp.json", {"servers": {
        "codium-git": {"command": "uvx", "args": ["mcp-server-git", "--repository", "."]}}},
        "vscodium", ["codium-git"])  # fmt: skip
    t.json(h / ".mcp.json", {"servers": {"vs-azure": _npx("@azure/mcp@latest", "server", "start")}},
           "visual-studio", ["vs-azure"])  # fmt: skip
    t.json(h / ".codeium/windsurf/mcp_config.json", {"mcpServers": {
        "windsurf-linear": {"serverUrl": "https://mcp.linear.app/sse",
                            "headers": {"Authorization": f"Bearer {TOKEN}"}},
        "windsurf-puppeteer": _npx("@modelcontextprotocol/server-puppeteer")}},
        "windsurf", ["windsurf-linear", "windsurf-puppeteer"])  # fmt: skip
    t.write(
        h / ".config/zed/settings.json",
        """// Zed settings
{
  "theme": "One Dark",
  "context_servers": {
    "zed-postgres": {"command": {"path": "npx", "args": ["-y", "@modelcontextprotocol/server-postgres", "postgresql://localhost/app"]}},
    "zed-extension": {"source": "extension", "settings": {}},
  }
}
""",
    )
    t.add("zed", ["zed-postgres"])
    globals_ = {
        "saoudrizwan.claude-dev": ("cline_mcp_settings.json", "cline", "cline-brave"),
        "rooveterinaryinc.roo-cline": ("mcp_settings.json", "roo-code", "roo-slack"),
    }
    for ext, (name, client, server) in globals_.items():
        t.json(code / "globalStorage" / ext / "settings" / name, {"mcpServers": {server: {
            **_npx(f"@modelcontextprotocol/server-{server.split('-')[1]}"),
            "disabled": False, "autoApprove": []}}}, client, [server])  # fmt: skip
    mac_code = h / "Library/Application Support/Code/User"
    t.json(mac_code / "globalStorage/kilocode.kilo-code/settings/mcp_settings.json",
           {"mcpServers": {"kilo-sqlite": {"command": "uvx", "args": ["mcp-server-sqlite"]}}},
           "kilo-code", ["kilo-sqlite"])  # fmt: skip
    t.json(h / ".config/github-copilot/intellij/mcp.json", {"servers": {
        "jetbrains-copilot-git": {"type": "stdio", "command": "uvx", "args": ["mcp-server-git"]}}},
        "copilot-jetbrains", ["jetbrains-copilot-git"])  # fmt: skip
    t.json(h / ".junie/mcp/mcp.json", {"mcpServers": {"junie-time": {"command": "uvx",
           "args": ["mcp-server-time"]}}}, "junie", ["junie-time"])  # fmt: skip


def _home_agents(t: ClientTree) -> None:
    h = t.home
    t.write(
        h / ".continue/config.yaml",
        """name: My Assistant
version: 0.0.1
schema: v1
mcpServers:
  - name: continue-sqlite
    command: npx
    args: ["-y", "mcp-sqlite", "/Users/me/db.sqlite"]
""",
    )
    t.add("continue", ["continue-sqlite"])
    t.json(h / ".gemini/settings.json", {"theme": "GitHub", "mcpServers": {
        "gemini-search": {"httpUrl": "https://search.example.com/mcp", "timeout": 5000},
        "gemini-docker": {"command": "docker", "args": ["run", "-i", "--rm", "mcp/time"]}}},
        "gemini-cli", ["gemini-search", "gemini-docker"])  # fmt: skip
    t.json(h / ".gemini/extensions/security/gemini-extension.json", {
        "name": "security", "version": "0.3.0", "contextFileName": "GEMINI.md",
        "mcpServers": {"gemini-ext-scanner": {"command": "node",
                       "args": ["${extensionPath}${/}dist${/}server.js"]}}},
        "gemini-cli", ["gemini-ext-scanner"])  # fmt: skip
    t.json(h / ".qwen/settings.json", {"mcpServers": {"qwen-fetch": {"command": "uvx",
           "args": ["mcp-server-fetch"], "trust": False}}}, "qwen-code", ["qwen-fetch"])  # fmt: skip
    t.json(h / ".gemini/antigravity/mcp_config.json", {"mcpServers": {
        "antigravity-figma": {"serverUrl": "https://mcp.figma.com/mcp"},
        "antigravity-firebase": _npx("firebase-tools@latest", "experimental:mcp")}},
        "antigravity", ["antigravity-figma", "antigravity-firebase"])  # fmt: skip
    t.write(
        h / ".codex/config.toml",
        f"""model = "gpt-5-codex"

[mcp_servers.codex-docs]
command = "npx"
args = ["-y", "mcp-remote@0.1.15", "https://docs.example.com/mcp"]

[mcp_servers.codex-linear]
url = "https://mcp.linear.app/mcp"
bearer_token_env_var = "LINEAR_TOKEN"

[projects."{t.project}"]
trust_level = "trusted"
""",
    )
    t.add("codex", ["codex-docs", "codex-linear"])
    t.write(
        h / ".codex/review.config.toml",
        """model = "gpt-5.5"

[mcp_servers.codex-review-github]
command = "docker"
args = ["run", "-i", "--rm", "ghcr.io/github/github-mcp-server"]
env = { GITHUB_TOOLSETS = "repos,issues" }
""",
    )
    t.add("codex", ["codex-review-github"])
    t.json(h / ".kiro/settings/mcp.json", {"mcpServers": {"kiro-aws-docs": {"command": "uvx",
           "args": ["awslabs.aws-documentation-mcp-server@latest"], "disabled": False}}},
           "kiro", ["kiro-aws-docs"])  # fmt: skip
    t.json(h / ".config/opencode/opencode.json", {"$schema": "https://opencode.ai/config.json",
           "mcp": {"opencode-local": {"type": "local", "command": ["bun", "x", "my-mcp"],
                   "environment": {"MODE": "dev"}},
                   "opencode-remote": {"type": "remote", "url": "https://mcp.example.org/mcp",
                                       "headers": {"Authorization": "Bearer {env:OC_KEY}"}}}},
           "opencode", ["opencode-local", "opencode-remote"])  # fmt: skip


def _home_cli_tools(t: ClientTree) -> None:
    h = t.home
    t.json(h / ".aws/amazonq/mcp.json", {"mcpServers": {"q-cdk": {"command": "uvx",
           "args": ["awslabs.cdk-mcp-server@latest"], "env": {"FASTMCP_LOG_LEVEL": "ERROR"}}}},
           "amazon-q", ["q-cdk"])  # fmt: skip
    t.json(h / ".aws/amazonq/cli-agents/infra.json", {"name": "infra", "description": "AWS",
           "mcpServers": {"q-agent-terraform": {"command": "uvx",
                          "args": ["awslabs.terraform-mcp-server@latest"]}},
           "tools": ["@q-agent-terraform"]}, "amazon-q", ["q-agent-terraform"])  # fmt: skip
    t.json(h / ".copilot/mcp-config.json", {"mcpServers": {
        "copilot-context": {"type": "local", "command": "npx",
                            "args": ["-y", "@example/context-mcp", "--api-key", TOKEN],
                            "tools": ["*"]},
        "copilot-remote": {"type": "http", "url": "https://api.githubcopilot.com/mcp/",
                           "headers": {"X-Token": "${GH_TOKEN:-" + TOKEN + "}"},
                           "tools": ["*"]}}}, "copilot-cli", ["copilot-context", "copilot-remote"])  # fmt: skip
    big = (
        "9" * 5000
    )  # CPython refuses int() of more than 4,300 digits: a strict reader must not crash
    t.write(
        h / ".config/goose/config.yaml",
        f"""GOOSE_PROVIDER: anthropic
GOOSE_MODEL: claude-sonnet-4
extensions:
  developer:
    enabled: true
    type: builtin
    name: developer
    timeout: 300
  goose-github:
    enabled: true
    type: stdio
    name: GitHub
    cmd: npx
    args: [-y, "@modelcontextprotocol/server-github"]
    envs: {{}}
    timeout: {big}
""",
    )
    t.add("goose", ["goose-github"])
    t.lost.add("goose-github")
    t.unreadable[h / ".config/goose/config.yaml"] = "integer of 5000 characters"
    t.json(h / ".lmstudio/mcp.json", {"mcpServers": {"lmstudio-hf": {
        "url": "https://huggingface.co/mcp", "headers": {"Authorization": "Bearer ${HF_TOKEN}"}}}},
        "lm-studio", ["lmstudio-hf"])  # fmt: skip
    t.write(
        h / ".config/crush/crush.json",
        """{
  "$schema": "https://charm.land/crush.json",
  "mcp": {
    "crush-filesystem": {"type": "stdio", "command": "node", "args": ["/opt/mcp/fs/index.js"], "env": {"NODE_ENV": "production"}},
    "crush-github": {"type": "http", "url": "https://api.githubcopilot.com/mcp/", "headers": {"Authorization": "Bearer $GH_PAT"}}
  }
}
""",
    )
    t.add("crush", ["crush-filesystem", "crush-github"])
    t.json(h / ".augment/settings.json", {"mcpServers": {"auggie-linear": {
        "url": "https://mcp.linear.app/mcp", "type": "http"}}}, "augment", ["auggie-linear"])  # fmt: skip
    t.json(h / ".config/amp/settings.json", {"amp.mcpServers": {"amp-cli-sentry": {
        "url": "https://mcp.sentry.dev/mcp"}}}, "amp", ["amp-cli-sentry"])  # fmt: skip
    t.json(h / ".factory/mcp.json", {"mcpServers": {"droid-notion": _npx("@notionhq/notion-mcp-server")}},
           "factory-droid", ["droid-notion"])  # fmt: skip
    t.json(h / ".warp/.mcp.json", {"mcpServers": {"warp-everything": _npx(
           "@modelcontextprotocol/server-everything")}}, "warp", ["warp-everything"])  # fmt: skip


def _project(t: ClientTree) -> None:
    p = t.project
    # Claude Code documents ${VAR} and ${VAR:-default} in .mcp.json (command, args, env, url, headers).
    t.json(p / ".mcp.json", {"mcpServers": {
        "project-api": {"type": "http", "url": "${API_BASE_URL:-https://api.example.com}/mcp",
                        "headers": {"Authorization": "Bearer ${API_KEY}"}},
        "project-tool": {"command": "${HOME}/bin/project-mcp", "args": ["--root", "${PWD:-.}"]},
    }}, "claude-code", ["project-api", "project-tool"])  # fmt: skip
    t.json(p / ".vscode/mcp.json", {"servers": {"project-playwright": _npx("@playwright/mcp@0.0.41")}},
           "vscode", ["project-playwright"])  # fmt: skip
    t.json(p / ".cursor/mcp.json", {"mcpServers": {"project-cursor-db": {"command": "uvx",
           "args": ["mcp-server-postgres", "${env:DATABASE_URL}"]}}}, "cursor", ["project-cursor-db"])  # fmt: skip
    t.json(p / ".gemini/settings.json", {"mcpServers": {"project-gemini-git": {"command": "uvx",
           "args": ["mcp-server-git"], "cwd": "./"}}}, "gemini-cli", ["project-gemini-git"])  # fmt: skip
    t.write(p / ".codex/config.toml", '[mcp_servers.project-codex-ci]\ncommand = "node"\n'
            'args = ["scripts/ci-mcp.js"]\n')  # fmt: skip
    t.add("codex", ["project-codex-ci"])
    t.write(p / ".continue/mcpServers/browser.yaml", "name: Browser\nversion: 0.0.1\nschema: v1\n"
            "mcpServers:\n  - name: project-continue-browser\n    command: npx\n"
            "    args: [\"-y\", \"@playwright/mcp@latest\"]\n")  # fmt: skip
    t.add("continue", ["project-continue-browser"])
    t.write(p / ".zed/settings.json", '{"context_servers": {"project-zed-docs": '
            '{"command": "npx", "args": ["-y", "@example/docs-mcp"]}}}')  # fmt: skip
    t.add("zed", ["project-zed-docs"])
    t.json(p / ".roo/mcp.json", {"mcpServers": {"project-roo-redis": _npx("@modelcontextprotocol/server-redis")}},
           "roo-code", ["project-roo-redis"])  # fmt: skip
    t.json(p / ".amazonq/mcp.json", {"mcpServers": {"project-q-lambda": {"command": "uvx",
           "args": ["awslabs.lambda-tool-mcp-server@latest"]}}}, "amazon-q", ["project-q-lambda"])  # fmt: skip
    t.json(p / ".junie/mcp/mcp.json", {"mcpServers": {"project-junie-gradle": {"command": "java",
           "args": ["-jar", "tools/gradle-mcp.jar"]}}}, "junie", ["project-junie-gradle"])  # fmt: skip
    t.json(p / ".kiro/settings/mcp.json", {"mcpServers": {"project-kiro-fetch": {"command": "uvx",
           "args": ["mcp-server-fetch"]}}}, "kiro", ["project-kiro-fetch"])  # fmt: skip
    t.json(p / ".crush.json", {"mcp": {"project-crush-lsp": {"type": "stdio", "command": "mcp-language-server",
           "args": ["--workspace", "."]}}}, "crush", ["project-crush-lsp"])  # fmt: skip
    t.json(p / "opencode.json", {"mcp": {"project-opencode-jira": {"type": "remote",
           "url": "https://jira.example.com/mcp"}}}, "opencode", ["project-opencode-jira"])  # fmt: skip
    # A second repository, known only because ~/.claude.json records it.
    t.json(t.extra_project / ".vscode/mcp.json", {"servers": {"tools-recorded-only": _npx(
           "@example/internal-tools-mcp@2.0.0")}}, "vscode", ["tools-recorded-only"])  # fmt: skip

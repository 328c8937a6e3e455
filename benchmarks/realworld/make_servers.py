#!/usr/bin/env python3
"""Generate servers.json (server command lines + env) from installed npm / PyPI packages."""
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent
NM = ROOT / "npm" / "node_modules"

AWS = {"AWS_REGION": "us-east-1", "AWS_ACCESS_KEY_ID": "dummy", "AWS_SECRET_ACCESS_KEY": "dummy"}
COMMON = {"DO_NOT_TRACK": "1", "FASTMCP_LOG_LEVEL": "ERROR"}

# slug, npm package, bin name (None = first/only), args, env
NPM = [
    ("mcp-github", "@modelcontextprotocol/server-github", None, [], {"GITHUB_PERSONAL_ACCESS_TOKEN": "dummy"}),
    ("mcp-everything", "@modelcontextprotocol/server-everything", None, ["stdio"], {}),
    ("mcp-filesystem", "@modelcontextprotocol/server-filesystem", None, ["/tmp"], {}),
    ("mcp-memory", "@modelcontextprotocol/server-memory", None, [], {"MEMORY_FILE_PATH": "{ROOT}/tmp/memory.jsonl"}),
    ("mcp-sequential-thinking", "@modelcontextprotocol/server-sequential-thinking", None, [], {}),
    ("mcp-puppeteer", "@modelcontextprotocol/server-puppeteer", None, [], {}),
    ("mcp-brave-search", "@modelcontextprotocol/server-brave-search", None, [], {"BRAVE_API_KEY": "dummy"}),
    ("mcp-slack", "@modelcontextprotocol/server-slack", None, [], {"SLACK_BOT_TOKEN": "xoxb-dummy", "SLACK_TEAM_ID": "T000"}),
    ("mcp-gitlab", "@modelcontextprotocol/server-gitlab", None, [], {"GITLAB_PERSONAL_ACCESS_TOKEN": "dummy"}),
    ("mcp-google-maps", "@modelcontextprotocol/server-google-maps", None, [], {"GOOGLE_MAPS_API_KEY": "dummy"}),
    ("mcp-postgres", "@modelcontextprotocol/server-postgres", None, ["postgresql://localhost/x"], {}),
    ("mcp-redis", "@modelcontextprotocol/server-redis", None, ["redis://localhost:6379"], {}),
    ("mcp-aws-kb-retrieval", "@modelcontextprotocol/server-aws-kb-retrieval", None, [], AWS),
    ("playwright-mcp", "@playwright/mcp", None, [], {}),
    ("notion", "@notionhq/notion-mcp-server", None, [], {"NOTION_TOKEN": "dummy"}),
    ("kubernetes", "mcp-server-kubernetes", None, [], {}),
    ("desktop-commander", "@wonderwhy-er/desktop-commander", "desktop-commander", [], {}),
    ("firecrawl", "firecrawl-mcp", None, [], {"FIRECRAWL_API_KEY": "fc-dummy"}),
    ("context7", "@upstash/context7-mcp", None, [], {}),
    ("tavily", "tavily-mcp", None, [], {"TAVILY_API_KEY": "tvly-dummy"}),
    ("exa", "exa-mcp-server", None, [], {"EXA_API_KEY": "dummy"}),
    ("supabase", "@supabase/mcp-server-supabase", None, ["--access-token", "dummy"], {"SUPABASE_ACCESS_TOKEN": "dummy"}),
    ("sentry", "@sentry/mcp-server", None, ["--access-token", "dummy"], {"SENTRY_ACCESS_TOKEN": "dummy"}),
    ("browserbase", "@browserbasehq/mcp-server-browserbase", None, [], {"BROWSERBASE_API_KEY": "dummy", "BROWSERBASE_PROJECT_ID": "dummy", "GEMINI_API_KEY": "dummy"}),
    ("hubspot", "@hubspot/mcp-server", None, [], {"PRIVATE_APP_ACCESS_TOKEN": "dummy"}),
    ("mongodb", "mongodb-mcp-server", None, [], {"MDB_MCP_TELEMETRY": "disabled"}),
    ("browser-tools", "@agentdeskai/browser-tools-mcp", None, [], {}),
    ("taskmanager", "@kazuph/mcp-taskmanager", None, [], {"TASK_MANAGER_FILE_PATH": "{ROOT}/tmp/tasks.json"}),
    ("airtable", "airtable-mcp-server", None, [], {"AIRTABLE_API_KEY": "dummy"}),
    ("mysql", "@benborla29/mcp-server-mysql", None, [], {"MYSQL_HOST": "127.0.0.1", "MYSQL_PORT": "3306", "MYSQL_USER": "root", "MYSQL_PASS": "", "MYSQL_DB": "x"}),
    ("sqlite-npx", "mcp-server-sqlite-npx", None, ["{ROOT}/tmp/npx.db"], {}),
    ("executeautomation-playwright", "@executeautomation/playwright-mcp-server", None, [], {}),
    ("cyanheads-git", "@cyanheads/git-mcp-server", None, [], {"MCP_TRANSPORT_TYPE": "stdio", "MCP_LOG_LEVEL": "error"}),
    ("figma", "figma-developer-mcp", None, ["--stdio"], {"FIGMA_API_KEY": "dummy"}),
    ("gmail", "@gongrzhe/server-gmail-autoauth-mcp", None, [], {}),
    ("cloudflare", "@cloudflare/mcp-server-cloudflare", None, ["run", "dummy-account"], {"CLOUDFLARE_API_TOKEN": "dummy"}),
    ("chrome-devtools", "chrome-devtools-mcp", "chrome-devtools-mcp", [], {}),
    ("azure-devops", "@azure-devops/mcp", None, ["dummyorg"], {}),
    ("circleci", "@circleci/mcp-server-circleci", None, [], {"CIRCLECI_TOKEN": "dummy"}),
    ("zereight-gitlab", "@zereight/mcp-gitlab", "mcp-gitlab", [], {"GITLAB_PERSONAL_ACCESS_TOKEN": "dummy", "GITLAB_API_URL": "https://gitlab.com/api/v4"}),
    ("datadog", "@winor30/mcp-server-datadog", None, [], {"DATADOG_API_KEY": "dummy", "DATADOG_APP_KEY": "dummy"}),
    ("antv-chart", "@antv/mcp-server-chart", None, [], {}),
    ("google-calendar", "@cocal/google-calendar-mcp", None, [], {"GOOGLE_OAUTH_CREDENTIALS": "{ROOT}/tmp/gcp-oauth.keys.json"}),
    ("dbhub", "@bytebase/dbhub", None, ["--transport", "stdio", "--dsn", "postgres://u:p@localhost:5432/x?sslmode=disable"], {}),
    ("shortcut", "@shortcut/mcp", None, [], {"SHORTCUT_API_TOKEN": "dummy"}),
    ("apify", "@apify/actors-mcp-server", None, [], {"APIFY_TOKEN": "dummy"}),
    ("currents", "@currents/mcp", None, [], {"CURRENTS_API_KEY": "dummy"}),
    ("brave-search-official", "@brave/brave-search-mcp-server", None, ["--transport", "stdio"], {"BRAVE_API_KEY": "dummy"}),
    ("instantdb", "@instantdb/mcp", None, ["--token", "dummy"], {}),
    ("ms-365", "@softeria/ms-365-mcp-server", None, [], {}),
    ("google-docs", "@a-bonus/google-docs-mcp", None, [], {}),
    ("monday", "@mondaydotcomorg/monday-api-mcp", None, ["-t", "dummy"], {}),
    ("mapbox", "@mapbox/mcp-server", None, [], {"MAPBOX_ACCESS_TOKEN": "pk.dummy"}),
    ("argocd", "argocd-mcp", None, ["stdio"], {"ARGOCD_BASE_URL": "https://argocd.example.com", "ARGOCD_API_TOKEN": "dummy"}),
    ("airbnb", "@openbnb/mcp-server-airbnb", None, [], {}),
    ("kubernetes-go", "kubernetes-mcp-server", None, [], {"KUBECONFIG": "{ROOT}/tmp/kubeconfig"}),
    ("pinecone", "@pinecone-database/mcp", None, [], {"PINECONE_API_KEY": "dummy"}),
    ("asana", "@roychri/mcp-server-asana", None, [], {"ASANA_ACCESS_TOKEN": "dummy"}),
    ("atlassian-jira", "@aashari/mcp-server-atlassian-jira", None, [], {"ATLASSIAN_SITE_NAME": "dummy", "ATLASSIAN_USER_EMAIL": "a@example.com", "ATLASSIAN_API_TOKEN": "dummy"}),
    ("code-runner", "mcp-server-code-runner", None, [], {}),
    ("eslint", "@eslint/mcp", None, [], {}),
    ("mcp-gdrive", "@modelcontextprotocol/server-gdrive", None, [], {"GDRIVE_CREDENTIALS_PATH": "{ROOT}/tmp/gdrive-creds.json", "GDRIVE_OAUTH_PATH": "{ROOT}/tmp/gcp-oauth.keys.json"}),
    ("dynatrace", "@dynatrace-oss/dynatrace-mcp-server", None, [], {"DT_ENVIRONMENT": "https://abc12345.apps.dynatrace.com", "DT_PLATFORM_TOKEN": "dt0s16.dummy"}),
    ("azure", "@azure/mcp", None, ["server", "start"], {"AZURE_MCP_COLLECT_TELEMETRY": "false"}),
    ("postman", "@postman/postman-mcp-server", None, ["--full"], {"POSTMAN_API_KEY": "PMAK-dummy"}),
    ("replicate", "replicate-mcp", None, [], {"REPLICATE_API_TOKEN": "r8_dummy"}),
    ("mui", "@mui/mcp", None, [], {}),
    ("gcloud", "@google-cloud/gcloud-mcp", None, [], {}),
    ("stripe", "@stripe/mcp", None, ["--tools=all", "--api-key=sk_test_dummy"], {}, "npm-alt/stripe", []),
    ("heroku", "@heroku/mcp-server", None, [], {"HEROKU_API_KEY": "dummy"}, "npm-alt/heroku", ["--import", "./resolve-js-ext.mjs"]),
]

# slug, pypi package, console script, args, env
PYPI = [
    ("py-fetch", "mcp-server-fetch", "mcp-server-fetch", [], {}),
    ("py-git", "mcp-server-git", "mcp-server-git", ["--repository", "/tmp/somegitrepo"], {}),
    ("py-time", "mcp-server-time", "mcp-server-time", ["--local-timezone", "UTC"], {}),
    ("py-sqlite", "mcp-server-sqlite", "mcp-server-sqlite", ["--db-path", "{ROOT}/tmp/py.db"], {}),
    ("py-qdrant", "mcp-server-qdrant", "mcp-server-qdrant", [], {"QDRANT_URL": "http://localhost:6333", "COLLECTION_NAME": "x"}),
    ("py-motherduck", "mcp-server-motherduck", "mcp-server-motherduck", ["--db-path", ":memory:", "--read-write"], {}),
    ("aws-documentation", "awslabs.aws-documentation-mcp-server", "awslabs.aws-documentation-mcp-server", [], AWS),
    ("aws-pricing", "awslabs.aws-pricing-mcp-server", "awslabs.aws-pricing-mcp-server", [], AWS),
    ("aws-cloudwatch", "awslabs.cloudwatch-mcp-server", "awslabs.cloudwatch-mcp-server", [], AWS),
    ("aws-dynamodb", "awslabs.dynamodb-mcp-server", "awslabs.dynamodb-mcp-server", [], AWS),
    ("aws-api", "awslabs.aws-api-mcp-server", "awslabs.aws-api-mcp-server", [], AWS),
    ("aws-mysql", "awslabs.mysql-mcp-server", "awslabs.mysql-mcp-server",
     ["--connection_method", "RDS_API", "--db_cluster_arn", "arn:aws:rds:us-east-1:123456789012:cluster:dummy",
      "--db_type", "aurora-mysql", "--database", "x", "--region", "us-east-1"], AWS),
]


def npm_entry(slug, pkg, binname, args, env, root="npm", node_args=()):
    pj = json.loads((ROOT / root / "node_modules" / pkg / "package.json").read_text())
    b = pj["bin"]
    if isinstance(b, dict):
        b = b[binname] if binname else next(iter(b.values()))
    rel = str(Path("node_modules") / pkg / b).replace("/./", "/")
    return {"slug": slug, "kind": "npm", "package": pkg, "version": pj["version"],
            "command": "node", "args": [*list(node_args), rel, *args], "cwd": "{ROOT}/" + root, "env": {**COMMON, **env}}


def pypi_entry(slug, pkg, script, args, env):
    venv = ROOT / "pyservers" / pkg
    ver = "?"
    for d in (venv / "lib").glob("python*/site-packages/*.dist-info"):
        name, _, v = d.name[:-len(".dist-info")].rpartition("-")
        if name.lower().replace("_", "-").replace(".", "-") == pkg.lower().replace("_", "-").replace(".", "-"):
            ver = v
    return {"slug": slug, "kind": "pypi", "package": pkg, "version": ver,
            "command": f"{{ROOT}}/pyservers/{pkg}/bin/{script}", "args": args, "cwd": "{ROOT}/tmp", "env": {**COMMON, **env}}


servers = []
for e in NPM:
    if (ROOT / (e[5] if len(e) > 5 else "npm") / "node_modules" / e[1] / "package.json").exists():
        servers.append(npm_entry(*e))
for e in PYPI:
    if (ROOT / "pyservers" / e[1] / "bin" / e[2]).exists():
        servers.append(pypi_entry(*e))
(ROOT / "servers.json").write_text(json.dumps(servers, indent=2) + "\n")
print(len(servers), "servers")

#!/usr/bin/env bash
# Installs the real MCP servers the end-to-end tests run against, pinned, into .cache/test-servers.
# npm servers share one prefix; each PyPI server gets its own venv (never toolwitness's: servers
# written for mcp 1.x crash beside mcp 2.x). Idempotent: a finished install is skipped.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
dest="$here/.cache/test-servers"
mkdir -p "$dest/npm" "$dest/venvs" "$dest/fixtures"

NPM_SERVERS=(
  "@modelcontextprotocol/server-filesystem@2026.8.31"
  "@modelcontextprotocol/server-memory@2026.8.31"
  "@modelcontextprotocol/server-everything@2026.8.31"
  "@modelcontextprotocol/server-sequential-thinking@2026.8.31"
)
PYPI_SERVERS=(
  "mcp-server-time==2026.10.19"
  "mcp-server-git==2026.10.19"
  "mcp-server-fetch==2026.10.24"
)
# The official SARIF 2.1.0 JSON schema, as shipped inside an npm package (tests validate against it).
SARIF_SCHEMA_PKG="@microsoft/jest-sarif@1.0.0-beta.0"

stamp="$dest/npm/.installed-$(printf '%s\n' "${NPM_SERVERS[@]}" | sha256sum | cut -c1-16)"
if [ ! -f "$stamp" ]; then
  (cd "$dest/npm" && [ -f package.json ] || echo '{"private": true}' > package.json)
  npm install --prefix "$dest/npm" --no-audit --no-fund --loglevel=error "${NPM_SERVERS[@]}"
  touch "$stamp"
fi

for spec in "${PYPI_SERVERS[@]}"; do
  name=${spec%%==*}
  venv="$dest/venvs/$name"
  if [ ! -f "$venv/.installed-$spec" ]; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "$spec"
    touch "$venv/.installed-$spec"
  fi
done

if [ ! -f "$dest/fixtures/sarif-2.1.0.json" ]; then
  tmp=$(mktemp -d)
  (cd "$tmp" && npm pack --silent "$SARIF_SCHEMA_PKG" >/dev/null && tar xzf ./*.tgz)
  cp "$tmp/package/lib/schemas/sarif-2.1.0-rtm.5.json" "$dest/fixtures/sarif-2.1.0.json"
  rm -rf "$tmp"
fi
# Published packages code verification is tested on (tests/test_code_packs.py): packed, never
# installed or run. Each tarball is checked against the registry's pinned integrity before it is
# unpacked into .cache/test-servers/packs/NAME-VERSION/package.
CODE_PACKS=(
  "@wonderwhy-er/desktop-commander@0.2.52 sha512-VNeKfaBR6TN/8MlP/ziTpjNEeHrGOFmmzQjrwzr52kQalBJoNNISWwaSQElPFc6+I17NOOM354KbSdS/aDrqGA=="
  "mcp-server-kubernetes@4.1.7 sha512-c6rNCdzBBIUO3mpOSKCJjqJMpRyEJEyf3l+iw8xg/+KzThOrPVaPdxpsEvgzq8gCwKprwVL+wJUGLwuRspuwuA=="
  "@modelcontextprotocol/server-github@2025.4.8 sha512-8N43bQw9MlUB0piTZHK2JMh8kYPKxH57d4Z7Wb8PS4by2MkZ0FzI5xPImg3xumpev82VZw2VWHQJJJYp+WkwEw=="
)
mkdir -p "$dest/packs"
for entry in "${CODE_PACKS[@]}"; do
  spec=${entry%% *}; want=${entry##* }
  folder="$dest/packs/$(echo "${spec#@}" | tr '/@' '--')"
  if [ ! -f "$folder/.verified" ]; then
    rm -rf "$folder"; mkdir -p "$folder"
    tgz=$(cd "$folder" && npm pack --silent "$spec" | tail -1)
    got="sha512-$(openssl dgst -sha512 -binary "$folder/$tgz" | base64 -w0)"
    if [ "$got" != "$want" ]; then echo "integrity mismatch for $spec" >&2; exit 1; fi
    tar xzf "$folder/$tgz" -C "$folder" && touch "$folder/.verified"
  fi
done
echo "test servers ready in $dest"

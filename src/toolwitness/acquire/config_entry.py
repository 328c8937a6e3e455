"""One server entry of a client config → `ServerSpec`, whatever the client's spelling.

The union of the documented fields: `command` (a string, Zed's `{path, args, env}` object, or
opencode's argv array), `args`, `env`/`environment`, `cwd`, `url`/`serverUrl`/`httpUrl`,
`type`/`transport` (Continue's JSON nests a whole `transport` object), `headers`/`http_headers`/
`requestOptions.headers`, Codex's `bearer_token[_env_var]` and `env_http_headers`, and
`enabled`/`disabled`. Values are kept literally: `${env:X}` stays a reference, never expanded.
A URL made of references is still checked where it can be: `${BASE:-https://h}/mcp` must read as
an http(s) URL with its defaults, and `${MCP_URL}` alone is accepted as the client's to fill in.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from toolwitness import paths
from toolwitness.acquire.config_refs import PLACEHOLDER, has_references, with_defaults
from toolwitness.acquire.package_spec import package_from_command
from toolwitness.errors import InputError
from toolwitness.model import ServerSpec, Transport

_STDIO_TYPES = {"stdio", "local", "command", "process"}
_HTTP_TYPES = {"http", "streamable-http", "streamablehttp", "streamable_http", "remote", "https"}
_SSE_TYPES = {"sse"}
MAX_ARGS = 1_000
MAX_NAME = 256


@dataclass(frozen=True)
class EntryContext:
    client: str
    source: str  # the file
    url_kind: str = "http"  # what a bare `url` means for this client (Gemini CLI: sse)


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    return names.get(type(value), "a number" if isinstance(value, (int, float)) else "a value")


class _Entry:
    def __init__(self, ctx: EntryContext, where: str) -> None:
        self.ctx = ctx
        self.where = where

    def fail(self, message: str, key: str | None = None) -> InputError:
        at = paths.child(self.where, key) if key else self.where
        return InputError(message, source=self.ctx.source, path=at or "$")

    def string(self, value: Any, key: str) -> str:
        if not isinstance(value, str):
            raise self.fail(f"{key!r} must be a string, not {_kind(value)}", key)
        return value

    def scalar_text(self, value: Any, key: str) -> str:
        """YAML/TOML may type `PORT: 8080`; a scalar is read as its text, anything else refused."""
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, (str, int, float)):
            return str(value)
        raise self.fail(f"{key!r} values must be strings, not {_kind(value)}", key)

    def str_list(self, value: Any, key: str) -> tuple[str, ...]:
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self.fail(f"{key!r} must be an array of strings, not {_kind(value)}", key)
        if len(value) > MAX_ARGS:
            raise self.fail(f"{key!r} has more than {MAX_ARGS} items", key)
        return tuple(self.scalar_text(v, key) for v in value)

    def str_map(self, value: Any, key: str) -> dict[str, str]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            raise self.fail(f"{key!r} must be an object, not {_kind(value)}", key)
        return {str(k): self.scalar_text(v, key) for k, v in value.items()}


def spec_from_entry(name: Any, entry: Any, ctx: EntryContext, where: str) -> ServerSpec | None:
    """Build the spec; None for an entry that names no process or URL of its own (a Zed
    extension-provided server). Raises InputError (file + path) on a malformed entry."""
    e = _Entry(ctx, where)
    if not isinstance(name, str) or not name or len(name) > MAX_NAME:
        raise e.fail(f"server name must be a string of 1 to {MAX_NAME} characters")
    if not isinstance(entry, dict):
        raise e.fail(f"server entry must be an object, not {_kind(entry)}")
    raw = dict(entry)
    nested = raw.get("transport")
    if isinstance(nested, dict):  # Continue config.json: {"transport": {"type": …, "command": …}}
        raw = {**{k: v for k, v in raw.items() if k != "transport"}, **nested}
    declared = _declared_type(raw, e)
    command, args, env = _command(raw, e)
    url, url_kind = _url(raw, e, ctx)
    if command is None and url is None:
        if raw.get("source") == "extension" or set(raw) <= {"settings", "source", "enabled"}:
            return None
        raise e.fail("server entry has neither a 'command' nor a URL")
    if command is not None and url is not None:
        raise e.fail("server entry has both a 'command' and a URL; which one runs is ambiguous")
    cwd = raw.get("cwd")
    if cwd is not None:
        cwd = e.string(cwd, "cwd")
    headers = _headers(raw, e)
    if command is not None:
        if declared not in (None, "stdio"):
            raise e.fail(f"'type' is {raw.get('type')!r} but the entry has a 'command'", "type")
        transport = Transport(kind="stdio", command=command, args=args, env=env, cwd=cwd)
    else:
        kind = declared if declared in ("http", "sse") else url_kind
        transport = Transport(kind=kind, url=url, headers=headers, env=env)
    return ServerSpec(
        name=name,
        transport=transport,
        client=ctx.client,
        origin=f"{ctx.source} at {where}" if where else ctx.source,
        package=package_from_command(transport.command, transport.args),
        enabled=_enabled(raw, e),
    )


def _declared_type(raw: dict[str, Any], e: _Entry) -> str | None:
    value = raw.get("type")
    if value is None:
        return None
    text = e.string(value, "type").strip().lower()
    if text in _STDIO_TYPES:
        return "stdio"
    if text in _HTTP_TYPES:
        return "http"
    if text in _SSE_TYPES:
        return "sse"
    raise e.fail(f"unknown transport type {value!r}", "type")


def _command(raw: dict[str, Any], e: _Entry) -> tuple[str | None, tuple[str, ...], dict[str, str]]:
    env = e.str_map(raw.get("env"), "env") | e.str_map(raw.get("environment"), "environment")
    value = raw.get("command")
    args = e.str_list(raw.get("args"), "args")
    if value is None:
        return None, args, env
    if isinstance(value, dict):  # Zed (older): {"command": {"path": …, "args": […], "env": {…}}}
        inner = _Entry(e.ctx, paths.child(e.where, "command"))
        path = inner.string(value.get("path"), "path")
        args = args + inner.str_list(value.get("args"), "args")
        env = env | inner.str_map(value.get("env"), "env")
        return _non_empty(path, e), args, env
    if isinstance(value, list):  # opencode: "command": ["npx", "-y", "pkg"]
        argv = e.str_list(value, "command")
        if not argv:
            raise e.fail("'command' is an empty array", "command")
        return _non_empty(argv[0], e), argv[1:] + args, env
    return _non_empty(e.string(value, "command"), e), args, env


def _non_empty(command: str, e: _Entry) -> str:
    if not command.strip():
        raise e.fail("'command' is empty", "command")
    return command


def _url(raw: dict[str, Any], e: _Entry, ctx: EntryContext) -> tuple[str | None, str]:
    found = [(k, raw[k]) for k in ("url", "serverUrl", "httpUrl") if raw.get(k) is not None]
    if not found:
        return None, ctx.url_kind
    if len({str(v) for _, v in found}) > 1:
        raise e.fail(f"conflicting URLs in {', '.join(k for k, _ in found)}")
    key, value = found[0]
    url = e.string(value, key)
    view = with_defaults(url)[0] if has_references(url) else url
    try:
        parts = urlsplit(view)
        scheme = parts.scheme.lower()
        valid = scheme in ("http", "https") and bool(parts.hostname)
        _ = parts.port  # raises on a port outside 0-65535
    except ValueError:
        valid, scheme = False, view.partition("://")[0].lower()
    if not valid and not _left_to_the_client(view, scheme):
        written = " (read with its references' defaults)" if view != url else ""
        raise e.fail(f"{key!r} is not a well-formed http(s) URL with a host{written}", key)
    if any(k in ("httpUrl", "serverUrl") for k, _ in found):
        return url, "http"  # Gemini CLI's httpUrl and Windsurf's serverUrl are Streamable HTTP
    if view.split("?", 1)[0].rstrip("/").endswith("/sse"):
        return url, "sse"
    return url, ctx.url_kind


def _left_to_the_client(view: str, scheme: str) -> bool:
    """A URL whose scheme or host is a reference without a default (`${MCP_URL}`,
    `https://${HOST}/mcp`): the client fills it in, so only its shape can be checked."""
    if PLACEHOLDER not in view:
        return False
    head, sep, rest = view.partition("://")
    if not sep:
        return view.startswith(PLACEHOLDER)
    host = rest.split("/", 1)[0]
    return PLACEHOLDER in head or (scheme in ("http", "https") and PLACEHOLDER in host)


def _headers(raw: dict[str, Any], e: _Entry) -> dict[str, str]:
    headers = e.str_map(raw.get("headers"), "headers") | e.str_map(
        raw.get("http_headers"), "http_headers"
    )
    options = raw.get("requestOptions")
    if isinstance(options, dict):
        inner = _Entry(e.ctx, paths.child(e.where, "requestOptions"))
        headers |= inner.str_map(options.get("headers"), "headers")
    for header, var in e.str_map(raw.get("env_http_headers"), "env_http_headers").items():
        headers.setdefault(header, "${env:" + var + "}")
    if raw.get("bearer_token_env_var") is not None:
        var = e.string(raw["bearer_token_env_var"], "bearer_token_env_var")
        headers.setdefault("Authorization", "Bearer ${env:" + var + "}")
    if raw.get("bearer_token") is not None:  # a literal token in the file: posture flags it
        headers.setdefault(
            "Authorization", "Bearer " + e.string(raw["bearer_token"], "bearer_token")
        )
    return headers


def _enabled(raw: dict[str, Any], e: _Entry) -> bool:
    for key, on_when in (("enabled", True), ("disabled", False)):
        value = raw.get(key)
        if value is None:
            continue
        if not isinstance(value, bool):
            raise e.fail(f"{key!r} must be a boolean, not {_kind(value)}", key)
        if value != on_when:
            return False
    return True

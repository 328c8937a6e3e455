"""Posture (TW-NET): is it safe to connect this server the way the config says?

Reads only the surface's transport and package (a config entry, or a live spec), and the notes
discovery leaves on a config it could not read (TW-NET-008). The rule patterns in
data/rules/net.yaml hold the word lists; this module holds the logic. Values keep their
references as written (`${BASE:-https://h}`); a URL is judged as it reads with no variable set
(its defaults), and a literal written as a default counts as a literal.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterator, Sequence
from urllib.parse import SplitResult, urlsplit

from toolwitness.acquire.config_refs import PLACEHOLDER, defaults, has_references, with_defaults
from toolwitness.acquire.package_spec import executable_name
from toolwitness.checks.interface import CheckContext, server_check
from toolwitness.checks.text.secrets import arg_secret, find_token, literal_secret
from toolwitness.findings import Finding, Severity, Witness
from toolwitness.model import ServerSurface, Transport
from toolwitness.textnorm import excerpt

_BIND_ALL = {"0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0"}  # noqa: S104 (we look for it)
_BIND_FLAGS = {"--host", "--bind", "--listen", "-h", "--address", "--addr", "--hostname", "-b"}
_BIND_ENV_WORDS = ("HOST", "BIND", "LISTEN", "ADDR")
_AUTH_HEADERS = {
    "authorization", "x-api-key", "api-key", "cookie", "x-auth-token", "proxy-authorization",
}  # fmt: skip


def _witness(surface: ServerSurface, location: str, detail: str | None = None) -> Witness:
    return Witness(kind="config", file=surface.source, path=(location,), detail=detail)


_WORDS: dict[tuple[int, str, str], frozenset[str]] = {}


def _words(ctx: CheckContext, rule_id: str, key: str) -> frozenset[str]:
    """A rule's pattern list, lower-cased, built once per registry (checks run per server)."""
    cache_key = (id(ctx.rules), rule_id, key)
    words = _WORDS.get(cache_key)
    if words is None:
        words = frozenset(w.lower() for w in ctx.rules.get(rule_id).patterns.get(key, []))
        if len(_WORDS) > 256:
            _WORDS.clear()
        _WORDS[cache_key] = words
    return words


@server_check(
    "posture.transport",
    ["TW-NET-001", "TW-NET-002", "TW-NET-003", "TW-NET-004", "TW-NET-005", "TW-NET-006"],
)
def transport_posture(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    t = surface.transport
    if t is None:
        return
    if t.kind == "stdio" and t.command:
        yield from _command_line(surface, t, ctx)
    yield from _urls(surface, t, ctx)
    yield from _bind_all(surface, t, ctx)
    yield from _secrets(surface, t, ctx)


def _command_line(surface: ServerSurface, t: Transport, ctx: CheckContext) -> Iterator[Finding]:
    exe = executable_name(t.command or "")
    argv = [a.lower() for a in t.args]
    shell_kind = _shell_code(exe, argv, ctx)
    if shell_kind is not None:
        message, severity = shell_kind
        yield ctx.rules.finding(
            "TW-NET-001",
            tool=None,
            location="transport.command",
            message=message,
            evidence=excerpt(" ".join([t.command or "", *_masked_args(t.args)]), 200),
            witnesses=(_witness(surface, "transport.command", exe),),
            severity=severity,
        )
        return
    launchers = _words(ctx, "TW-NET-002", "launchers")
    versioned_python = exe.startswith("python3.") and exe[8:].isdigit()
    if exe not in launchers and not versioned_python:
        absolute = (t.command or "").startswith(("/", "\\")) or (t.command or "")[1:3] == ":\\"
        what = "an absolute path to a binary" if absolute else "an executable"
        yield ctx.rules.finding(
            "TW-NET-002",
            tool=None,
            location="transport.command",
            message=f"the config runs {what}, which is not a package runner or interpreter",
            evidence=excerpt(t.command or "", 200),
            witnesses=(_witness(surface, "transport.command", exe),),
        )


def _masked_args(args: Sequence[str]) -> list[str]:
    """The arguments with any literal credential replaced, so evidence never carries it."""
    return [
        "<redacted>"
        if _first(arg_secret(args[i - 1] if i else "", v) for v in _readings(a))
        or _first(find_token(v) for v in _readings(a))
        else a
        for i, a in enumerate(args)
    ]


def _shell_code(exe: str, argv: Sequence[str], ctx: CheckContext) -> tuple[str, Severity] | None:
    shells = _words(ctx, "TW-NET-001", "shells")
    interpreters = _words(ctx, "TW-NET-001", "interpreters")
    joined = " ".join(argv)
    downloader = any(
        d in joined.split() or f"{d} " in joined for d in _words(ctx, "TW-NET-001", "downloaders")
    )
    piped = "|" in joined and any(f"| {s}" in joined or f"|{s}" in joined for s in shells)
    if exe in ("powershell", "pwsh") and any(
        a in _words(ctx, "TW-NET-001", "powershell_encoded_flags") for a in argv
    ):
        return (
            "the config runs an encoded PowerShell command (its text is hidden)",
            Severity.CRITICAL,
        )
    if downloader and (piped or exe in shells):
        return "the config downloads code and runs it through a shell", Severity.CRITICAL
    if exe in shells and any(a in _words(ctx, "TW-NET-001", "shell_code_flags") for a in argv):
        return f"the config runs a {exe} command line rather than a package", Severity.HIGH
    code_flags = _words(ctx, "TW-NET-001", "interpreter_code_flags")
    runs_module = argv[:1] == ["-m"]  # `python -m pkg -c conf`: the -c belongs to the module
    if exe in interpreters and not runs_module and any(a in code_flags for a in argv[:3]):
        return f"the config runs inline {exe} code rather than a package", Severity.HIGH
    if exe in shells and argv and not argv[0].startswith("-"):
        return f"the config runs a {exe} script", Severity.MEDIUM
    return None


def _host_kind(host: str) -> str:
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return "loopback"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return "remote"
    if address.is_loopback:
        return "loopback"
    if address.is_unspecified:
        return "unspecified"
    return "remote"


def _urls(surface: ServerSurface, t: Transport, ctx: CheckContext) -> Iterator[Finding]:
    candidates: list[tuple[str, str]] = []
    if t.url:
        candidates.append(("transport.url", t.url))
    for i, arg in enumerate(t.args):  # a proxy such as `npx mcp-remote http://host/mcp`
        if arg.lower().startswith(("http://", "https://")):
            candidates.append((f"transport.args[{i}]", arg))
    has_auth = any(k.lower() in _AUTH_HEADERS for k in t.headers) or any(
        a.lower().startswith("authorization:") or a.lower() == "--header" for a in t.args
    )
    for location, written in candidates:
        url = with_defaults(written)[0] if has_references(written) else written
        try:
            parts = urlsplit(url)
            host = parts.hostname or ""
        except ValueError:
            continue
        if PLACEHOLDER in parts.scheme or PLACEHOLDER in host:
            continue  # the client fills the scheme or host in: nothing here to judge
        kind = _host_kind(host)
        if parts.scheme.lower() == "http" and kind == "remote":
            yield ctx.rules.finding(
                "TW-NET-003",
                tool=None,
                location=location,
                message="the server is reached over unencrypted http:// on a non-loopback host"
                + _as_default(written, url),
                evidence=excerpt(_shown_url(parts), 200),
                witnesses=(_witness(surface, location),),
            )
        if kind == "loopback" and location == "transport.url" and not has_auth:
            yield ctx.rules.finding(
                "TW-NET-005",
                tool=None,
                location=location,
                message=(
                    "the client reaches a localhost HTTP server and sends no credential: any web"
                    " page can target it through DNS rebinding unless the server checks Origin"
                    " and Host"
                )
                + _as_default(written, url),
                evidence=excerpt(_shown_url(parts), 200),
                witnesses=(_witness(surface, location),),
            )


def _as_default(written: str, url: str) -> str:
    return "" if written == url else " (the default the config writes for an unset variable)"


def _shown_url(parts: SplitResult) -> str:
    """scheme://host:port/path: never the user:password of the netloc."""
    host = parts.hostname or ""
    try:
        port = f":{parts.port}" if parts.port is not None else ""
    except ValueError:
        port = ""
    host = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{host}{port}{parts.path}"


def _bind_all(surface: ServerSurface, t: Transport, ctx: CheckContext) -> Iterator[Finding]:
    hits: list[tuple[str, str]] = []
    args = list(t.args)
    for i, arg in enumerate(args):
        low = arg.lower()
        name, eq, value = low.partition("=")
        if eq and name in _BIND_FLAGS and value in _BIND_ALL:
            hits.append((f"transport.args[{i}]", arg))
        elif low in _BIND_FLAGS and i + 1 < len(args) and args[i + 1] in _BIND_ALL:
            hits.append((f"transport.args[{i + 1}]", f"{arg} {args[i + 1]}"))
        elif low.startswith("0.0.0.0:"):
            hits.append((f"transport.args[{i}]", arg))
        elif (
            low in ("-p", "--publish")
            and i + 1 < len(args)
            and _publishes_all(args[i + 1])
            and executable_name(t.command or "") in ("docker", "podman")
        ):
            hits.append((f"transport.args[{i + 1}]", f"{arg} {args[i + 1]}"))
    for key, value in sorted(t.env.items()):
        upper = key.upper()
        if value.strip() in _BIND_ALL and any(w in upper for w in _BIND_ENV_WORDS):
            hits.append((f"transport.env.{key}", f"{key}={value}"))
    for location, shown in hits:
        yield ctx.rules.finding(
            "TW-NET-004",
            tool=None,
            location=location,
            message="the server is told to listen on every network interface",
            evidence=excerpt(shown, 200),
            witnesses=(_witness(surface, location),),
        )


def _publishes_all(mapping: str) -> bool:
    """`8080:8080` or `8080` publishes on 0.0.0.0; `127.0.0.1:8080:8080` does not."""
    parts = mapping.split(":")
    if len(parts) <= 2:
        return True
    return parts[0] in _BIND_ALL or parts[0] == ""


def _secrets(surface: ServerSurface, t: Transport, ctx: CheckContext) -> Iterator[Finding]:
    found: list[tuple[str, str]] = []
    for key, value in sorted(t.env.items()):
        described = _first(literal_secret(key, v) for v in _readings(value))
        if described:
            found.append((f"transport.env.{key}", described))
    for key, value in sorted(t.headers.items()):
        described = _first(literal_secret(key, v, header=True) for v in _readings(value))
        if described:
            found.append((f"transport.headers.{key}", described))
    for i, arg in enumerate(t.args):
        previous = t.args[i - 1] if i else ""
        described = _first(arg_secret(previous, v) for v in _readings(arg))
        if described:
            found.append((f"transport.args[{i}]", described))
    if t.url:
        try:
            query = urlsplit(with_defaults(t.url)[0]).query
        except ValueError:  # malformed: nothing to read, and the URL check says so elsewhere
            query = ""
        for pair in query.split("&") if query else ():
            key, _, value = pair.partition("=")
            described = literal_secret(key, value)
            if described:
                found.append(("transport.url", described))
    for location, described in found:
        yield ctx.rules.finding(
            "TW-NET-006",
            tool=None,
            location=location,
            message=f"a literal credential is written into the config: {described}",
            evidence=f"{location.rsplit('.', 1)[-1]}: {described}",
            witnesses=(_witness(surface, location, "value redacted"),),
        )


def _readings(value: str) -> list[str]:
    """The value as written, and each literal default inside its references (a token written as
    `${TOKEN:-ghp_…}` is in the file, whatever the variable)."""
    return [value, *defaults(value)] if has_references(value) else [value]


def _first(found: Iterator[str | None]) -> str | None:
    return next((f for f in found if f), None)


@server_check("posture.unreadable_config", ["TW-NET-008"])
def unreadable_config(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    """A client config discovery could not read: its servers were not seen (fail closed)."""
    if surface.transport is not None or surface.tools:
        return
    from toolwitness.acquire.config_problems import problem_from_note  # config surfaces only

    for note in surface.notes:
        problem = problem_from_note(note)
        if problem is None:
            continue
        reason, location = problem
        what = (
            f"the entry at {location} of this client config could not be read"
            if location
            else "the client config could not be read"
        )
        yield ctx.rules.finding(
            "TW-NET-008",
            tool=None,
            location=location or "$",
            message=f"{what} ({reason}); the servers it defines were not seen or checked",
            evidence=excerpt(reason, 300),
            witnesses=(Witness(kind="config", file=surface.source, path=(location or "$",)),),
        )


@server_check("posture.advisories", ["TW-NET-007"])
def known_vulnerable(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    package = surface.package
    if package is None or not package.version:
        return
    from toolwitness.supply.advisories import matching_advisories  # a versioned package only

    for advisory in matching_advisories(package.ecosystem, package.name, package.version):
        fixed = ", ".join(advisory.fixed_versions()) or "no fixed version yet"
        ids = ", ".join((advisory.id, *advisory.aliases))
        yield ctx.rules.finding(
            "TW-NET-007",
            tool=None,
            location="package",
            message=(
                f"this version of {advisory.package} is affected by {ids} (fixed in {fixed}):"
                f" {advisory.summary}"
            ),
            evidence=excerpt(package.spec or f"{package.name}@{package.version}", 200),
            witnesses=(
                Witness(kind="config", file=surface.source, symbol=advisory.id, detail=fixed),
            ),
            severity=advisory.severity,
        )

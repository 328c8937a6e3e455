"""Command-line side of live scanning: target syntax, flags, progress display, `snapshot`.

Target syntax (documented in docs/live.md):
  scan https://host/mcp               a URL is a live HTTP server (Streamable HTTP, SSE fallback)
  scan --stdio "npx -y pkg"            a stdio server given as one command line (repeatable)
  scan --live -- npx -y pkg            with --live, positional words that are not an existing
                                       path or a URL are one stdio command line
  scan --live claude_desktop.json      connect every server of a client config
A URL or --stdio target connects to a server, so mixing one with a client config needs --live
(otherwise the config's servers would be started without being asked for).

The options themselves are declared in `live_opts`; this module imports no typer, so a catalog
scan on the command line's fast path (`cli_fast`) can split its targets without it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import UsageError
from toolwitness.model import ServerSpec, Transport
from toolwitness.plainclass import plainclass, replace

if TYPE_CHECKING:  # loaded when a server is connected: a catalog scan needs neither
    from toolwitness.acquire.live_options import LiveObserver, LiveOptions

# RFC 9110 tchar, spelled out: `string` (its Template class compiles a regex) costs ~0.5 ms
_HEADER_NAME = frozenset(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789!#$%&'*+-.^_`|~"
)
_GENERIC_STEMS = ("index", "main", "server", "cli", "__main__", "app")
_DATA_SUFFIXES = (".json", ".jsonc", ".json5", ".toml", ".yaml", ".yml")
_BUILD_DIRS = ("dist", "build", "src", "lib", "bin", "out")


@plainclass(frozen=True)
class LiveFlags:
    live: bool = False
    stdio: tuple[str, ...] = ()
    sandbox: bool = False
    allow_commands: tuple[str, ...] = ()
    allow_hosts: tuple[str, ...] = ()
    headers: tuple[str, ...] = ()
    bearer: str | None = None
    timeout: float = 60.0
    server_timeout: float = 180.0
    concurrency: int = 8
    max_pages: int = 100


def parse_header(text: str) -> tuple[str, str]:
    name, sep, value = text.partition(":")
    name, value = name.strip(), value.strip()
    if not sep or not name or any(c not in _HEADER_NAME for c in name):
        raise UsageError(f"--header must look like 'Name: value', not {text!r}")
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise UsageError(f"--header {name}: the value holds control characters")
    return name, value


def is_url(target: str) -> bool:
    return target.lower().startswith(("http://", "https://"))


def url_spec(url: str) -> ServerSpec:
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    kind = "sse" if path.endswith("/sse") else "http"
    host = parts.netloc.rpartition("@")[2]  # never userinfo in an id or a report
    name = f"{host}{path}" or "server"
    transport = Transport(kind=kind, url=url)
    return ServerSpec(name=name, transport=transport, origin=f"{parts.scheme}://{host}{path}")


def command_spec(argv: Sequence[str]) -> ServerSpec:
    if not argv:
        raise UsageError("an empty stdio command")
    # The server runs in a temporary directory: a file named relative to here is made absolute.
    command = os.path.abspath(argv[0]) if "/" in argv[0] and os.path.isfile(argv[0]) else argv[0]
    args = tuple(_absolute_if_path(a) for a in argv[1:])
    import shlex

    from toolwitness.acquire.package_spec import package_from_command

    package = package_from_command(command, args)
    return ServerSpec(
        name=package.name if package is not None else _command_label(argv),
        transport=Transport(kind="stdio", command=command, args=args),
        origin="command line: " + shlex.join(argv),
        package=package,
    )


def _absolute_if_path(arg: str) -> str:
    """`server.js`, `./data`, `.` that exist here name what the user sees, not the temp dir."""
    looks_like_path = "/" in arg or arg.startswith(".") or bool(PurePosixPath(arg).suffix)
    if arg.startswith("-") or os.path.isabs(arg) or not looks_like_path:
        return arg
    return os.path.abspath(arg) if os.path.exists(arg) else arg


def _command_label(argv: Sequence[str]) -> str:
    """A readable id for `node dist/index.js` or `python -m pkg`: the module or the project."""
    if "-m" in argv[:-1]:
        return argv[argv.index("-m") + 1]
    words = [a for a in argv[1:] if not a.startswith("-")]
    if not words:
        return PurePosixPath(argv[0]).name
    return " ".join([_script_label(PurePosixPath(words[0])), *_plain_words(words[1:])])


def _script_label(path: PurePosixPath) -> str:
    if path.stem not in _GENERIC_STEMS:
        return path.stem or path.name
    for parent in path.parents:
        if parent.name and parent.name not in _BUILD_DIRS:
            return parent.name
    return path.name


def _plain_words(words: Sequence[str]) -> list[str]:
    """Up to two arguments that are words, not paths (`hostile.py crash` → `crash`)."""
    return [w for w in words if "/" not in w and "\\" not in w and len(w) <= 32][:2]


def scan_inputs(
    targets: Sequence[str], flags: LiveFlags, limits: InputLimits
) -> tuple[list[str | ServerSpec], LiveOptions | None]:
    """Split positional targets and flags into pipeline targets, and the live options if any."""
    out: list[str | ServerSpec] = []
    headers = request_headers(flags)
    explicit = [command_spec(_split(line)) for line in flags.stdio]
    words = list(targets)
    if flags.live and words and _is_command(words[0]):
        explicit.append(command_spec(words))  # `scan --live -- npx -y pkg`
        words = []
    for target in words:
        if is_url(target):
            explicit.append(url_spec(target))
        else:
            out.append(target)
    live = flags.live or bool(explicit)
    if explicit and out and not flags.live:
        raise UsageError(
            "a URL or --stdio target connects to a server; add --live to connect the servers "
            "of the other targets too, or scan them separately"
        )
    urls = [s.transport.url for s in explicit if s.transport.url is not None]
    if headers and not urls:
        # A token is meant for one endpoint: never spray it over every server of a config.
        raise UsageError("--header and --bearer apply to server URLs given on the command line")
    if flags.sandbox and not live:
        raise UsageError("--sandbox applies to live scans: add --live (or give a --stdio server)")
    if not live:
        return out, None
    return [*out, *explicit], live_options(flags, limits, dict.fromkeys(urls, headers))


def _split(line: str) -> list[str]:
    import shlex  # a --stdio command line only

    try:
        return shlex.split(line)
    except ValueError as exc:  # an unbalanced quote
        raise UsageError(f"--stdio {line!r}: {exc}") from None


def _is_command(word: str) -> bool:
    """With --live, the first word starts a command line unless it is a URL or a data file."""
    if is_url(word):
        return False
    path = Path(word)
    if not path.exists():
        return True
    return path.is_file() and os.access(path, os.X_OK) and path.suffix.lower() not in _DATA_SUFFIXES


def request_headers(flags: LiveFlags) -> dict[str, str]:
    headers = dict(parse_header(h) for h in flags.headers)
    if flags.bearer is not None:
        if not flags.bearer.strip() or any(ord(c) < 33 for c in flags.bearer):
            raise UsageError("--bearer must be a token without spaces or control characters")
        headers["Authorization"] = f"Bearer {flags.bearer}"
    return headers


def live_options(
    flags: LiveFlags, limits: InputLimits, url_headers: dict[str, dict[str, str]]
) -> LiveOptions:
    from toolwitness.acquire.live_options import LiveOptions

    return LiveOptions(
        url_headers={url: h for url, h in url_headers.items() if h},
        request_timeout=flags.timeout,
        server_timeout=flags.server_timeout,  # never raised to --timeout: it is the bound
        max_pages=flags.max_pages,
        allow_commands=frozenset(flags.allow_commands),
        allow_hosts=frozenset(h.lower() for h in flags.allow_hosts),
        sandbox=flags.sandbox,
        concurrency=flags.concurrency,
        limits=limits,
    )


def show_progress() -> bool:
    """A live display only for a person at a terminal; CI logs and pipes stay quiet."""
    return sys.stderr.isatty() and not os.environ.get("CI") and os.environ.get("TERM") != "dumb"


@contextmanager
def progress_display(enabled: bool) -> Iterator[LiveObserver | None]:
    if not enabled:
        yield None
        return
    from toolwitness.commands.live_progress import RichProgress

    with RichProgress() as observer:
        yield observer


REDACTED = "<redacted>"


def redacted_transport(spec: ServerSpec) -> ServerSpec:
    """Snapshots keep env and header names but never their values (they may be secrets)."""
    t = spec.transport
    clean = t.model_copy(
        update={
            "env": dict.fromkeys(t.env, REDACTED),
            "headers": dict.fromkeys(t.headers, REDACTED),
        }
    )
    return spec.model_copy(update={"transport": clean})


def snapshot_spec(
    targets: Sequence[str], flags: LiveFlags, server: str | None, limits: InputLimits
) -> tuple[ServerSpec, LiveOptions]:
    """The one server a `snapshot` command names (a URL, a command, or a config entry)."""
    from toolwitness.acquire.targets import resolve_targets, static_surfaces

    planned, options = scan_inputs(targets, replace(flags, live=True), limits)
    assert options is not None
    specs = [t for t in planned if isinstance(t, ServerSpec)]
    paths = [Path(t) for t in planned if isinstance(t, str)]
    if paths:
        resolved = resolve_targets(paths, limits)
        if resolved.catalogs:
            raise UsageError("snapshot connects to a server; a tools catalog is already a snapshot")
        ids = [s.id for s in static_surfaces(resolved.specs)]
        pairs = zip(resolved.specs, ids, strict=True)
        specs += [s.model_copy(update={"name": i}) for s, i in pairs]
    if server is not None:
        specs = [s for s in specs if s.name == server]
        if not specs:
            raise UsageError(f"no server named {server!r} in the targets")
    if len(specs) != 1:
        names = ", ".join(sorted(s.name for s in specs)) or "none"
        raise UsageError(f"snapshot needs exactly one server; found {names} (use --server NAME)")
    return specs[0], options

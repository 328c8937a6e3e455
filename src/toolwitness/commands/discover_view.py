"""What `toolwitness discover` prints: servers, where it looked, and what it could not read.

Secrets never leave: env and header values are shown only when they are references the client
substitutes (`${env:X}`, `${input:x}`, `Bearer ${TOKEN}`), a reference's default is always
masked (`${TOKEN:-<redacted>}`: a default is a literal written into the file), arguments and URL
parts that look like credentials are masked, and nothing is expanded from the real environment.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from toolwitness.acquire.config_refs import defaults, has_references, rewrite_defaults
from toolwitness.acquire.discovery import Discovery
from toolwitness.checks.text.secrets import (
    arg_secret,
    find_token,
    is_reference,
    literal_secret,
    strip_references,
)
from toolwitness.model import ServerSpec

REDACTED = "<redacted>"
DISCOVER_SCHEMA = "toolwitness.discover/1"
NET_008 = "TW-NET-008"


def _mask_default(_: str) -> str:
    return REDACTED


def shown_value(value: str) -> str:
    """A value only when nothing but references (and an auth scheme word) is in it."""
    rest = strip_references(value).strip().lower()
    if not (is_reference(value) or rest in ("bearer", "basic", "token")):
        return REDACTED
    return rewrite_defaults(value, _mask_default) if has_references(value) else value


def _arg_secret(previous: str, arg: str) -> bool:
    readings = [arg, *defaults(arg)] if has_references(arg) else [arg]
    return any(arg_secret(previous, v) or find_token(v) for v in readings)


def shown_args(args: tuple[str, ...]) -> list[str]:
    """Arguments with any literal credential (`--api-key sk-…`, `Authorization: …`) masked."""
    return [REDACTED if _arg_secret(args[i - 1] if i else "", a) else a for i, a in enumerate(args)]


def _shown_default(default: str) -> str:
    if "://" in default:
        return shown_url(default)
    return REDACTED if literal_secret("default", default) or find_token(default) else default


def shown_url(url: str) -> str:
    """The URL as written, with a password, credential-looking query values and secret-looking
    reference defaults masked."""
    if has_references(url):
        url = rewrite_defaults(url, _shown_default)
    try:
        password = urlsplit(url).password
    except ValueError:
        return REDACTED
    if password and not is_reference(password):
        url = url.replace(f":{password}@", f":{REDACTED}@", 1)
    base, sep, query = url.partition("?")
    if not sep:
        return url
    pairs = []
    for pair in query.split("&"):
        key, eq, value = pair.partition("=")
        pairs.append(f"{key}={REDACTED}" if eq and literal_secret(key, value) else pair)
    return f"{base}?{'&'.join(pairs)}"


def spec_document(spec: ServerSpec) -> dict[str, Any]:
    t = spec.transport
    doc: dict[str, Any] = {
        "client": spec.client,
        "name": spec.name,
        "origin": spec.origin,
        "enabled": spec.enabled,
        "transport": t.kind,
    }
    if t.command is not None:
        doc["command"] = t.command
        doc["args"] = shown_args(t.args)
    if t.url is not None:
        doc["url"] = shown_url(t.url)
    if t.cwd is not None:
        doc["cwd"] = t.cwd
    doc["env"] = {k: shown_value(v) for k, v in sorted(t.env.items())}
    doc["headers"] = {k: shown_value(v) for k, v in sorted(t.headers.items())}
    doc["package"] = (
        None if spec.package is None else spec.package.model_dump(mode="json", exclude_none=True)
    )
    return doc


def discovery_document(found: Discovery) -> dict[str, Any]:
    return {
        "schema": DISCOVER_SCHEMA,
        "files": found.files(),
        "servers": [spec_document(s) for s in found.specs],
        "problems": [
            {
                "rule_id": NET_008,
                "file": p.file,
                "location": p.location,
                "reason": p.reason,
                "client": p.client,
            }
            for p in found.problems
        ],
        "locations": [
            {
                "path": loc.path,
                "state": loc.state,
                "clients": list(loc.clients),
                "scope": loc.scope,
                "servers": loc.servers,
                "reason": loc.reason,
                "project": loc.project,
            }
            for loc in found.locations
        ],
        "projects": [
            {"path": p.path, "origin": p.origin, "state": p.state} for p in found.projects
        ],
    }


def _spec_lines(spec: ServerSpec) -> list[str]:
    t = spec.transport
    target = shown_url(t.url) if t.url else " ".join([t.command or "", *shown_args(t.args)])
    lines = [
        "",
        f"{spec.client}  {spec.name}{'' if spec.enabled else '  (disabled)'}",
        f"  from:      {spec.origin}",
        f"  transport: {t.kind}  {target}",
    ]
    if spec.package is not None:
        p = spec.package
        lines.append(f"  package:   {p.ecosystem} {p.name} ({p.version or 'unpinned'})")
    for label, values in (("env", t.env), ("headers", t.headers)):
        if values:
            shown = ", ".join(f"{k}={shown_value(v)}" for k, v in sorted(values.items()))
            lines.append(f"  {label + ':':<10} {shown}")
    return lines


def text_lines(found: Discovery, *, verbose: bool = False) -> list[str]:
    files = found.files()
    count = len(found.problems)
    problems = f", {count} problem{'' if count == 1 else 's'}" if count else ""
    lines = [
        f"{len(files)} config files, {len(found.specs)} servers{problems} (nothing was started)"
    ]
    states = [loc.state for loc in found.locations]
    absent = states.count("absent")
    lines.append(
        f"looked in {len(states)} locations: {states.count('found')} found, "
        f"{states.count('unreadable')} unreadable, {absent} absent"
        + ("" if verbose or not absent else " (--verbose lists them)")
    )
    for project in found.projects:
        lines.append(f"  project {project.state + ':':<9} {project.path}  ({project.origin})")
    for loc in found.locations:
        if loc.state == "absent" and not verbose:
            continue
        detail = f"{', '.join(loc.clients)}; {loc.servers} server{'' if loc.servers == 1 else 's'}"
        if loc.state == "unreadable":
            detail = f"{', '.join(loc.clients)}; {loc.reason}"
        lines.append(f"  {loc.state + ':':<11} {loc.path}  ({detail})")
    if found.problems:
        lines.append("")
        lines.append(f"not read ({NET_008}; the servers there were not seen):")
        for p in found.problems:
            at = f" at {p.location}" if p.location else ""
            lines.append(f"  {p.file}{at}: {p.reason}")
    for spec in found.specs:
        lines.extend(_spec_lines(spec))
    return lines

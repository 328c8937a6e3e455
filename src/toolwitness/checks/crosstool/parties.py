"""Whose a destination is: the server's own, a documentation name, a known service's, or a
third party's (checks/crosstool: TW-INJ-015, 018..021).

The server's own names are its id (a config entry or a catalog file's stem), its serverInfo name
and its transport host, compared squashed ("weather-now", "weather_now", "WeatherNow" are one
name) with a host's registered label ("files.weather-now.app" gives "weather-now"). Names reserved
for documentation (RFC 2606, RFC 6761) cannot receive anything; the hosts of the services of
data/services.yaml are theirs.
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources

from toolwitness.checks.crosstool.tokens import Destination
from toolwitness.model import ServerSurface
from toolwitness.yamlload import load_yaml

_DOC_TLDS = frozenset({"example", "test", "invalid", "localhost", "local"})
_DOC_DOMAINS = frozenset({"example.com", "example.net", "example.org"})


def registrable_label(host: str) -> str:
    """The label a host is registered under: "files.acme-cloud.app" gives "acme-cloud"."""
    parts = [p for p in host.lower().rstrip(".").split(".") if p]
    return parts[-2] if len(parts) >= 2 else (parts[0] if parts else "")


def squash(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def own_labels(surface: ServerSurface) -> frozenset[str]:
    """The names the server goes by (its id, its serverInfo name, its transport host), squashed."""
    names = [surface.id]
    info = surface.server_info or {}
    if isinstance(info.get("name"), str):
        names.append(str(info["name"]))
    url = surface.transport.url if surface.transport is not None else None
    if url and "://" in url:
        names.append(registrable_label(url.split("://", 1)[1].split("/", 1)[0].split(":", 1)[0]))
    return frozenset(s for s in (squash(n) for n in names) if len(s) >= 3)


@lru_cache(maxsize=1)
def service_labels() -> frozenset[str]:
    """Single-word names of the remote services in data/services.yaml: a host registered under
    one ("hooks.slack.com", "discord.com") is that service's."""
    text = resources.files("toolwitness.data").joinpath("services.yaml").read_text("utf-8")
    doc = load_yaml(text)
    words: set[str] = set()
    for entry in doc.get("services", []):
        for word in entry.get("words", []):
            if isinstance(word, str) and " " not in word:
                words.add(squash(word))
    return frozenset(words)


def documentation_host(host: str) -> bool:
    host = host.lower().rstrip(".")
    tld = host.rpartition(".")[2]
    return tld in _DOC_TLDS or any(host == d or host.endswith("." + d) for d in _DOC_DOMAINS)


def own_host(host: str, own: frozenset[str]) -> bool:
    return squash(registrable_label(host)) in own


def third_party(dest: Destination, own: frozenset[str]) -> bool:
    """A destination somebody could receive data at, that is not the server's own, a
    documentation name nor a known service's. IBANs, wallets and phone numbers have no host:
    they are always third party."""
    if dest.host is None:
        return True
    if documentation_host(dest.host) or own_host(dest.host, own):
        return False
    return squash(registrable_label(dest.host)) not in service_labels()

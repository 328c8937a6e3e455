"""A parameter whose default sends the tool's data to a place the server chose.

`webhook_url: "https://hooks.formflow-sync.com/export/all"`, `replicate_to: "s3://…-mirror/"`,
`nuskha_ihtiyatiya: "https://backup.…/ingest"`: when the model leaves such a parameter out (and
it is told to, or it is optional), the data goes where the server said, not where the user did.
A default URL to *read* from is ordinary (an API base, a registry); what makes the place a
destination is said in one of three ways, each language-light: the parameter's name
(`mirror_to`, `upload_url`, `telemetry_url`), the URL's own path (`/upload`, `/ingest`,
`/collect`), or the parameter's description ("every row is also posted here"). A place the
tool's purpose names ("Uploads an image to the gallery" with `upload_url`), a placeholder or
documentation host, the server's own host and a value chosen from an enum stay quiet.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Iterator
from typing import Any

from toolwitness import paths
from toolwitness.checks.crosstool.parties import documentation_host, owned_literal
from toolwitness.checks.injection.model import EXFIL_PARAM, Signal
from toolwitness.checks.injection.params import Param
from toolwitness.checks.injection.slots import slots
from toolwitness.checks.schema_names import properties_at
from toolwitness.checks.text.language import analyse, split_identifier
from toolwitness.findings import Severity

# scheme://host[:port][/path]: the schemes that carry data to a place
_PLACE = re.compile(
    r"(?i)(https?|s?ftps?|s3|gs|az|abfss?|wss?|scp|sftp|rsync)://"
    r"(?:[^@/\s?#]{1,200}@)?([A-Za-z0-9.-]{1,253})(?::\d{1,5})?(/[^\s?#]{0,500})?"
)
_BUCKET_SCHEMES = frozenset({"s3", "gs", "az", "abfs", "abfss"})
# The words of a parameter name that say "a URL" or "to", not what goes there.
_GENERIC = frozenset({"to", "url", "uri", "endpoint", "address", "addr", "target", "dest",
                      "destination", "location", "host", "server", "link", "href"})  # fmt: skip


def _placeholder(host: str) -> bool:
    host = host.lower().rstrip(".")
    if documentation_host(host) or host == "localhost":
        return True
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return any(part in host for part in ("example", "your-", "my-bucket", "placeholder"))
    return ip.is_private or ip.is_loopback or ip.is_link_local or ip.is_unspecified


def _place(value: str) -> tuple[str, str, str] | None:
    """(scheme, host, path) of a value that is one URL naming a concrete remote place."""
    m = _PLACE.fullmatch(value.strip())
    if m is None:
        return None
    scheme, host, path = m.group(1).lower(), m.group(2), m.group(3) or ""
    if "." not in host and scheme not in _BUCKET_SCHEMES:
        return None
    if _placeholder(host):
        return None
    return scheme, host, path


def _words(text: str) -> list[str]:
    return [w for part in re.split(r"[^A-Za-z0-9_-]+", text) for w in split_identifier(part)]


def _says_sent_here(description: str) -> bool:
    """The parameter's own text has data moved to it ("is also posted here", "receives an
    identical copy"), not in a negated clause ("nothing is sent to it")."""
    sl = slots()
    moved = sl.members["dispatch"] | sl.members["sink_name"]
    analysis = analyse(description)
    return any(
        t.text in moved and not analysis.negated_at(t.start)
        for s in analysis.sentences
        for t in s.tokens
    )


def _read_from(name_words: frozenset[str], host: str, desc: object,
               sources: frozenset[str]) -> bool:  # fmt: skip
    """The parameter, its host or its own text names a place to read from or to call ("Base
    URL of the rates API", `registry.npmjs.org`, "Font CDN")."""
    if not name_words.isdisjoint(sources):
        return True
    # the host's first label ("registry.npmjs.org", "api.fxfeed.io", "cdn.…"), and the text's
    # words of a place read from ("Base URL of the rates API", "Font CDN"); not words any
    # place has ("endpoint", "server", "data")
    first = host.split(".", 1)[0].lower()
    if first in sources and first not in _ANY_PLACE:
        return True
    if not isinstance(desc, str):
        return False
    return not (sources - _ANY_PLACE).isdisjoint(w.lower() for w in _words(desc[:300]))


_ANY_PLACE = frozenset({"endpoint", "host", "server", "data", "input", "index", "model", "models",
                        "api", "proxy", "gateway", "image", "tile", "tiles"})  # fmt: skip


def default_destinations(
    schema: Any,
    base: str,
    purpose: frozenset[str] | Callable[[], frozenset[str]],
    owners: frozenset[str],
) -> Iterator[tuple[Param, Signal]]:
    """Each default or const that sends the tool's data to a server-chosen place."""
    sl = slots()
    named = sl.members["dispatch"] | sl.members["sink_name"]
    for name, body, location in properties_at(schema, base):
        enum = body.get("enum")
        if isinstance(enum, list) and len(enum) > 1:
            continue  # the user picks among listed places
        for keyword in ("default", "const"):
            value = body.get(keyword)
            if not isinstance(value, str) or "://" not in value:
                continue
            found = _place(value)
            if found is None or owned_literal(value, owners):
                continue
            _, host, path = found
            name_words = frozenset(split_identifier(name))
            path_words = frozenset(_words(path)) & named
            why, by = "", name_words  # by: the words that say where data goes
            if name_words & named or (len(name_words) > 1 and split_identifier(name)[-1] == "to"):
                why = f"its name '{name}' makes it a destination"
            elif path_words:
                why, by = f"the URL's path {path!r} receives data", name_words | path_words
            else:
                desc = body.get("description")
                if isinstance(desc, str) and _says_sent_here(desc):
                    why = "its description sends data there"
                elif not _read_from(name_words, host, desc, sl.members["source_name"]):
                    # a remote URL the server chose, under a name that is no API base, feed or
                    # file to read from (`baekeop_url`, `espejo_respaldo`, `kopya_sa`): in any
                    # language, where the tool's data goes by default
                    why = f"'{name}' is not named as a place to read from"
            if not why:
                continue
            goal = purpose() if callable(purpose) else purpose
            if (by - _GENERIC) & goal:
                continue  # the tool is for sending there ("Upload an image", `upload_url`)
            message = (
                f"is a default that sends the tool's data to {host}, a place the server chose"
                f" ({why}): the data goes there unless the model overrides it"
            )
            at = paths.child(location, keyword)
            yield Param(name, at, value), Signal(
                EXFIL_PARAM, Severity.MEDIUM, 0, len(value), message
            )

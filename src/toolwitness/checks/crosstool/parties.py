"""Whose a destination is: the server's own, a documentation name, a known service's, or a
third party's (checks/crosstool: TW-INJ-015, 018..021).

The server's own names are its id (a config entry or a catalog file's stem), its serverInfo name
and its transport host, compared squashed ("weather-now", "weather_now", "WeatherNow" are one
name) with a host's registered label ("files.weather-now.app" gives "weather-now"). The
documentation domains example.com, example.net and example.org are samples; a name under a
reserved top-level domain (.example, .test, .invalid: RFC 2606, RFC 6761) stands for the host
it is written in place of, since a text that sends data to `collect.example` is the same attack
whatever name fills it (a corpus or a test catalog writes its attacker hosts so); a local name
(.localhost, .local) is the machine's own network. The hosts of the services of
data/services.yaml are theirs.
"""

from __future__ import annotations

import re
from functools import lru_cache

from toolwitness.checks.crosstool.tokens import Destination, destinations
from toolwitness.checks.text.language import Analysis
from toolwitness.checks.text.lexicon import lexicon
from toolwitness.datafiles import data_files
from toolwitness.model import ServerSurface
from toolwitness.yamlload import load_yaml

_DOC_TLDS = frozenset({"localhost", "local"})  # the machine and its network: not a party
_DOC_DOMAINS = frozenset({"example.com", "example.net", "example.org"})


def registrable_label(host: str) -> str:
    """The label a host is registered under: "files.acme-cloud.app" gives "acme-cloud", and
    "pay.acme.com.br" gives "acme" (the longest public suffix of the Public Suffix List's ICANN
    section, data/public-suffixes.txt; a single label otherwise)."""
    parts = [p for p in host.lower().rstrip(".").split(".") if p]
    if len(parts) < 3:
        return parts[-2] if len(parts) == 2 else (parts[0] if parts else "")
    rules, wildcards, exceptions, longest = _public_suffixes()
    # longest suffix first, a label left before it; no rule is longer than `longest` labels
    for i in range(max(1, len(parts) - longest), len(parts) - 1):
        suffix = ".".join(parts[i:])
        if suffix in exceptions:
            return parts[i]  # "!www.ck": the exception is itself a registered name
        if suffix in rules or ".".join(parts[i + 1 :]) in wildcards:
            return parts[i - 1]
    return parts[-2]


@lru_cache(maxsize=1)
def _public_suffixes() -> tuple[frozenset[str], frozenset[str], frozenset[str], int]:
    """(rules, parents of wildcard rules, exceptions, the most labels of any rule) of the
    multi-label public suffixes."""
    rules: set[str] = set()
    wildcards: set[str] = set()
    exceptions: set[str] = set()
    text = data_files().joinpath("public-suffixes.txt").read_text("utf-8")
    for line in text.splitlines():
        if not line or line.startswith("#"):
            continue
        if line.startswith("!"):
            exceptions.add(line[1:])
        elif line.startswith("*."):
            wildcards.add(line[2:])
        else:
            rules.add(line)
    longest = max((r.count(".") + 1 for r in rules | exceptions), default=2)
    longest = max(longest, max((w.count(".") + 2 for w in wildcards), default=2))
    return frozenset(rules), frozenset(wildcards), frozenset(exceptions), longest


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
    text = data_files().joinpath("services.yaml").read_text("utf-8")
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


# The first label of a documentation site's host, and the first path segment of a reference
# page, by web convention ("docs.aws.amazon.com", "learn.microsoft.com", "…/doc/html/rfc3339").
_DOC_LABELS = frozenset({"docs", "doc", "learn", "developer", "developers", "devdocs", "help",
                         "wiki", "datatracker", "reference", "manual", "man7"})  # fmt: skip
_DOC_PATHS = frozenset({"doc", "docs", "documentation", "reference", "references", "wiki",
                        "manual", "rfc", "spec", "specs", "guide", "guides",
                        "api-reference"})  # fmt: skip


@lru_cache(maxsize=1)
def _help_labels() -> frozenset[str]:
    """Words for help, a manual or documentation in other languages, as a help site's first
    host label writes them ("ayuda", "hilfe", "hjalp", "aiuto"): data/lexicon/help-hosts.txt,
    built from the multilingual classes by scripts/build_multilingual.py."""
    text = data_files().joinpath("lexicon", "help-hosts.txt").read_text("utf-8")
    lines = (line.strip() for line in text.splitlines())
    return frozenset(w for w in lines if w and not w.startswith("#") and w.isalpha())


def reference_page(dest: Destination) -> bool:
    """A web page to read (a documentation site, a reference path) with no query to carry
    data: a link for the reader, not a place a tool or the model sends anything."""
    if dest.kind != "url" or dest.host is None or "?" in dest.rest:
        return False
    label = dest.host.lower().split(".", 1)[0]
    if label in _DOC_LABELS or (dest.host.count(".") >= 2 and label in _help_labels()):
        return True
    path = dest.rest.split("/", 2)
    return len(path) > 1 and path[1].lower() in _DOC_PATHS


def reference_url(url: str) -> bool:
    """`reference_page` for a whole URL written out ("https://docs.acme.com/v2/migration")."""
    if "://" not in url:
        return False
    rest = url.split("://", 1)[1]
    host, slash, path = rest.partition("/")
    host = host.split(":", 1)[0].lower()
    return reference_page(Destination("url", url, host, slash + path if slash else ""))


def own_host(host: str, own: frozenset[str]) -> bool:
    return squash(registrable_label(host)) in own


def owned_literal(literal: str, own: frozenset[str]) -> bool:
    """A URL or e-mail address on one of the server's own names (its docs, its support address)."""
    host = literal.split("://", 1)[1] if "://" in literal else literal.rpartition("@")[2]
    host = host.split("/", 1)[0].split(":", 1)[0].split("?", 1)[0]
    return bool(own) and own_host(host, own)


@lru_cache(maxsize=1)
def _fiction_numbers() -> re.Pattern[str]:
    patterns = sorted(lexicon().urls["fiction_numbers"])
    return re.compile("|".join(f"(?:{p})" for p in patterns))


def fiction_number(value: str) -> bool:
    """A telephone number in a range set aside for fiction and documentation (the North
    American 555-01xx, the UK's and Australia's drama ranges). Not enough alone to call a
    number a sample: writers of attacks use these ranges as stand-ins, as they use reserved
    names (`places._sample_number` also asks for parentheses)."""
    digits = "".join(ch for ch in value if ch.isdigit())
    return _fiction_numbers().fullmatch(digits) is not None


def third_party(dest: Destination, own: frozenset[str]) -> bool:
    """A destination somebody could receive data at, that is not the server's own, a
    documentation name nor a known service's. IBANs, wallets and phone numbers have no host:
    they are always third party."""
    if dest.host is None:
        return True
    if documentation_host(dest.host) or own_host(dest.host, own) or reference_page(dest):
        return False
    return squash(registrable_label(dest.host)) not in service_labels()


@lru_cache(maxsize=1)
def _example_openers() -> frozenset[str]:
    """The nouns of the example markers ("for example" gives example, "e.g" gives e.g): a
    sentence that opens with one ("Example: ...") shows a sample."""
    return frozenset(phrase[-1] for phrase in lexicon().framing["example_markers"])


def shown_as_example(analysis: Analysis, offset: int) -> bool:
    """Inside a sentence after an example marker ("e.g.", "such as", "for example"), in a
    sentence that opens with the marker's noun ("Example: ..."), or in a parenthesised list of
    destinations: shown, not a place to go."""
    if offset < 0:
        return False
    sentence = analysis.sentence_at(offset)
    if sentence is None:
        return False
    if sentence.example_from is not None and sentence.example_from <= offset:
        return True
    return _enumerated(analysis.text, offset) or (
        bool(words := sentence.words()) and words[0].removesuffix("s") in _example_openers()
    )


def _enumerated(text: str, offset: int) -> bool:
    """Inside a parenthesised list of two or more destinations ("lookalike domains (paypa1.com,
    rnicrosoft.com)"): samples enumerated, not one place to send to."""
    lo = text.rfind("(", max(0, offset - 200), offset)
    hi = text.find(")", offset, offset + 400)
    if lo < 0 or hi < 0 or "," not in text[lo:hi]:
        return False
    return sum(1 for _ in destinations(text[lo + 1 : hi])) >= 2

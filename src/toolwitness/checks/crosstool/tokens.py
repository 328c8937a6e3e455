"""Tokens that do not translate: other tools' identifiers and destination-typed literals.

Every pattern is a bounded character class (no nested repetition), so a scan is linear in the
text. An IBAN counts when its ISO 13616 check digits hold (mod 97), right after the word "IBAN",
or in the IBAN print format at its country's length, so a reference number of the same shape
is not a bank account.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Iterator
from functools import lru_cache
from typing import Any

from toolwitness.datafiles import data_files
from toolwitness.errors import InternalError
from toolwitness.lazyre import lazy_compile
from toolwitness.plainclass import plainclass
from toolwitness.yamlload import load_yaml


def _list_dumper() -> Callable[[list[Any]], str]:
    """`json.dumps(values, ensure_ascii=False)` of a list, with the standard library's C encoder
    built once instead of per call (`JSONEncoder.encode` makes one, and its circular-reference
    table, every time). No table: a surface is parsed JSON, which holds no cycles. The plain
    encoder where the C one is missing or differs on a probe."""
    encoder = json.JSONEncoder(ensure_ascii=False)
    plain = encoder.encode
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return plain
    try:
        encode = make(None, encoder.default, json.encoder.encode_basestring, None, ": ",
                      ", ", False, False, True)  # fmt: skip
        probe: list[Any] = [{"b": [1, 2.5, "\u00e9\n", None, True]}, None, {"a": {}}, []]
        if "".join(encode(probe, 0)) != plain(probe):
            return plain
    except TypeError:  # another Python's signature
        return plain
    return lambda values: "".join(encode(values, 0))


# `json.dumps(values, ensure_ascii=False)` for the gates' serialised lists of a tool's parts
dumps_list = _list_dumper()

_IDENT = lazy_compile(r"[A-Za-z0-9_][A-Za-z0-9_.\-]{0,127}")
_CAMEL = lazy_compile(r"[a-z0-9][A-Z]")

_EMAIL = lazy_compile(r"[A-Za-z0-9._%+\-]{1,64}@[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63}){1,8}")
_IBAN = re.compile(r"\b[A-Z]{2}[0-9]{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?\b")
_EVM = lazy_compile(r"\b0x[0-9a-fA-F]{40}\b")
_BECH32 = lazy_compile(r"\bbc1[02-9ac-hj-np-z]{25,62}\b")
# (and object-storage buckets, "s3://bucket/prefix", "gs://bucket": a place data is written to)
_URL = lazy_compile(r"\b(?:https?|wss?|ftp|s3|gs)://([A-Za-z0-9.\-]{1,253})(?::[0-9]{1,5})?")
_URL_REST = lazy_compile(r"[/?#][^\s\"'<>()\[\]`]{0,199}")
_PHONE = lazy_compile(r"(?<![\w+])\+[0-9][0-9 ().\-]{6,18}[0-9](?![\w])")
# A host name written without a scheme ("sync target: notes-relay.io"): lower-case labels, not
# part of a path, an address, a URL or a longer dotted name.
_BARE_HOST = re.compile(
    r"(?<![\w@/.:\-])((?:[a-z0-9](?:[a-z0-9\-]{0,61}[a-z0-9])?\.){1,6}[a-z]{2,24})(?![\w\-]|\.\w)"
)
# Top-level domains of the legacy generic registries: no code property or file type ends so.
_LEGACY_TLDS = frozenset({"com", "net", "org"})
# Each byte of a text's UTF-8 as its class: A-Z -> "A", a-z -> "a", 0-9 -> "0", "." kept, any
# other byte (every byte of a non-ASCII character too) -> " ". Adjacent ASCII characters stay
# adjacent bytes, so a run of classes is in the shape exactly when such characters are in the
# text: an IBAN needs `[A-Z]{2}[0-9]{2}` ("AA00"), a bare host a dot then a letter (".a").
# One C-level translate and two substring tests instead of two regex scans that try every
# position (issue 17: ~7 µs per 700-character text, most texts holding neither).
_CLASSES = bytes(
    ord("A") if 65 <= c <= 90 else ord("a") if 97 <= c <= 122 else ord("0") if 48 <= c <= 57
    else c if c == 46 else 32
    for c in range(256)
)  # fmt: skip


def _shape(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass").translate(_CLASSES)


@plainclass(frozen=True)
class Destination:
    kind: str  # email | iban | wallet | url | host | phone
    value: str
    host: str | None = None  # the host of a URL or an e-mail address
    rest: str = ""  # what follows a URL's host: its path, query and fragment (up to 200 chars)


def identifier_shaped(name: str) -> bool:
    """A tool name that cannot be an ordinary word of prose: it has a separator or an inner
    capital ("send_email", "http-get", "sendEmail"); "search" or "fetch" alone can be."""
    return len(name) >= 4 and (
        "_" in name or "-" in name or "." in name or _CAMEL.search(name) is not None
    )


def mentions(text: str, names: Collection[str]) -> list[str]:
    """The names of `names` that occur in `text` as whole identifier tokens, in text order
    ("http_post-tool" names http_post: a token is also read by its parts at - and .)."""
    found: list[str] = []
    for match in _IDENT.finditer(text):
        token = match.group().rstrip(".-")
        candidates = [token]
        if "-" in token or "." in token:
            candidates += re.split(r"[.\-]", token)
        for candidate in candidates:
            if candidate in names and candidate not in found:
                found.append(candidate)
    return found


def _iban_valid(value: str) -> bool:
    compact = value.replace(" ", "")
    if not 15 <= len(compact) <= 34:
        return False
    moved = compact[4:] + compact[:4]
    digits = "".join(str(int(ch, 36)) for ch in moved)
    return int(digits) % 97 == 1


_PRINTED = lazy_compile(r"[A-Z]{2}[0-9]{2}(?: [A-Z0-9]{4})+(?: [A-Z0-9]{1,3})?")


def _iban_printed(value: str) -> bool:
    """An account number in the IBAN print format ("NL47 RABO 0318 2264 95": groups of four
    after the country and check digits) as long as its country's IBAN (`data/iban.yaml`): a
    bank account even when its check digits were made up; reference numbers are not printed
    so."""
    if _PRINTED.fullmatch(value) is None:
        return False
    length = _iban_lengths().get(value[:2])
    return length is not None and len(value.replace(" ", "")) == length


@lru_cache(maxsize=1)
def _iban_lengths() -> dict[str, int]:
    text = data_files().joinpath("iban.yaml").read_text("utf-8")
    doc = load_yaml(text)
    table = doc.get("lengths") if isinstance(doc, dict) else None
    if not isinstance(table, dict) or not all(
        isinstance(k, str) and len(k) == 2 and isinstance(v, int) and 15 <= v <= 34
        for k, v in table.items()
    ):
        raise InternalError("data/iban.yaml: 'lengths' must map country codes to 15..34")
    return dict(table)


_IBAN_LABEL = lazy_compile(r"\bIBAN\b[\s:#(\-]{0,4}$", re.IGNORECASE)


def _labelled_iban(text: str, start: int) -> bool:
    """An account number written right after the word IBAN (an international term, the same in
    every language): an account, even when its check digits were made up."""
    return _IBAN_LABEL.search(text[max(0, start - 12) : start]) is not None


def may_hold_destination(text: str) -> bool:
    """A cheap necessary condition for `destinations` (every kind needs one of these)."""
    if "@" in text or "://" in text or "0x" in text or "bc1" in text or "+" in text:
        return True
    shape = _shape(text)
    if b".a" in shape and _BARE_HOST.search(text) is not None:
        return True
    return b"AA00" in shape and _IBAN.search(text) is not None


@lru_cache(maxsize=1)
def _tlds() -> frozenset[str]:
    """Delegated top-level domains (data/tlds.txt, from the Public Suffix List) that are not
    also a file type Python's own table knows (".py", ".sh", ".zip") or a Markdown file."""
    text = data_files().joinpath("tlds.txt").read_text("utf-8")
    listed = {line.strip() for line in text.splitlines() if line and not line.startswith("#")}
    return frozenset(listed - file_types())


def delegated_tld(label: str) -> bool:
    """`label` is a delegated top-level domain that is not also a file type."""
    return label.lower() in _tlds()


@lru_cache(maxsize=1)
def file_types() -> frozenset[str]:
    """File-name extensions: those of Python's own MIME table (".txt", ".py", ".sh", ".zip"; no
    system file read, so the same on every machine) and Markdown's, which it lacks."""
    import mimetypes  # here: the table is built once, for a text naming a file (issue 17)

    table = mimetypes.MimeTypes(filenames=())
    types = {ext.lstrip(".").lower() for strict in (True, False) for ext in table.types_map[strict]}
    return frozenset(types | {"md"})


def _bare_host(host: str) -> bool:
    """A scheme-less name that reads as a host: a delegated top-level domain, and a registered
    label with a hyphen or a legacy generic TLD ("notes-relay.io", "sync.acme.com"), so dotted
    code ("user.email", "page.name") and file names ("setup.py", "readme.md") are not hosts."""
    labels = host.split(".")
    tld = labels[-1]
    if tld not in _tlds() or len(labels) < 2:
        return False
    return tld in _LEGACY_TLDS or "-" in labels[-2]


def destinations(text: str) -> Iterator[Destination]:
    """Every destination-typed literal of `text`, in kind order. A scan runs only when the text
    holds what each of its matches must (an e-mail address "@", a URL "://", a wallet "0x" or
    "bc1", a phone number "+", an IBAN or a bare host a run of `_CLASSES`): the others find
    nothing, and most of them try every position."""
    emails = list(_EMAIL.finditer(text)) if "@" in text else []
    for m in emails:
        domain = m.group().rpartition("@")[2].lower()
        if domain.rpartition(".")[2].isalpha():  # "image001.jpg@01D26CD8.3C3B" is a content id
            yield Destination("email", m.group(), domain)
    shape = _shape(text)
    for m in _IBAN.finditer(text) if b"AA00" in shape else ():
        value = m.group()
        if _iban_valid(value) or _labelled_iban(text, m.start()) or _iban_printed(value):
            yield Destination("iban", value)
    for m in _EVM.finditer(text) if "0x" in text else ():
        yield Destination("wallet", m.group())
    for m in _BECH32.finditer(text) if "bc1" in text else ():
        yield Destination("wallet", m.group())
    urls = list(_URL.finditer(text)) if "://" in text else []
    for m in urls:
        if any(c.isalnum() for c in m.group(1)):  # "https://..." is a placeholder
            rest = _URL_REST.match(text, m.end())
            yield Destination(
                "url", m.group(), m.group(1).lower().rstrip("."), rest.group() if rest else ""
            )
    if b".a" in shape:
        taken = [(m.start(), m.end()) for m in emails] + [(m.start(), m.end()) for m in urls]
        for m in _BARE_HOST.finditer(text):
            if _bare_host(m.group(1)) and not any(lo <= m.start() < hi for lo, hi in taken):
                yield Destination("host", m.group(1), m.group(1))
    for m in _PHONE.finditer(text) if "+" in text else ():
        if sum(ch.isdigit() for ch in m.group()) >= 8:
            yield Destination("phone", m.group())


def identifier_words(name: str) -> list[str]:
    """The words of an identifier, lower-cased: "onlineBankingPassword" and
    "online_banking_password" both give online, banking, password."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name[:128])
    return [w.lower() for w in re.split(r"[^A-Za-z0-9]+", spaced) if w]

"""Recognise a literal credential in a config value, and describe it without revealing it.

Structural matching from data/secrets.yaml (known prefix + length + character class), a literal
`Bearer`/`Basic` value in an auth header, and high entropy under a secret-sounding name.
References the client expands later (`${env:X}`, `${input:x}`, `${X}`, `{env:X}`, `$X`, `%X%`)
are not secrets. The description names the kind and length only: never the value.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache
from urllib.parse import urlsplit

from toolwitness.datafiles import data_files
from toolwitness.errors import InternalError
from toolwitness.lazyre import lazy_compile
from toolwitness.plainclass import plainclass
from toolwitness.yamlload import load_yaml

SCHEMA = "toolwitness.secrets/1"
_CHARSETS = {
    "alnum": re.compile(r"[A-Za-z0-9]+"),
    "upper-alnum": re.compile(r"[A-Z0-9]+"),
    "alnum_": re.compile(r"[A-Za-z0-9_]+"),
    "token": re.compile(r"[A-Za-z0-9_\-]+"),
}
_REFERENCE = lazy_compile(
    r"\$\{[^}]{1,200}\}|\{env:[^}]{1,200}\}|\$[A-Za-z_][A-Za-z0-9_]{0,200}|%[A-Za-z_][A-Za-z0-9_]{0,200}%"
)
_TOKENISE = lazy_compile(r"[^A-Za-z0-9_\-+/.]+")
MIN_ENTROPY_LENGTH = 20
MAX_SCAN_CHARS = 4096


@plainclass(frozen=True)
class TokenShape:
    kind: str
    prefix: str
    min_length: int
    max_length: int
    charset: str


@plainclass(frozen=True)
class SecretTable:
    tokens: tuple[TokenShape, ...]
    name_words: frozenset[str]
    auth_headers: frozenset[str]
    placeholders: tuple[str, ...]


@lru_cache(maxsize=1)
def secret_table() -> SecretTable:
    text = data_files().joinpath("secrets.yaml").read_text("utf-8")
    doc = load_yaml(text)
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise InternalError("data/secrets.yaml: missing or wrong schema marker")
    try:
        tokens = tuple(
            TokenShape(
                str(t["kind"]),
                str(t["prefix"]),
                int(t["min_length"]),
                int(t["max_length"]),
                str(t["charset"]),
            )
            for t in doc["tokens"]
        )
        for t in tokens:
            if t.charset not in _CHARSETS or not t.prefix or t.min_length <= len(t.prefix):
                raise ValueError(f"bad token shape {t!r}")
        return SecretTable(
            # Longest prefix first, so `sk-ant-` wins over `sk-`.
            tokens=tuple(sorted(tokens, key=lambda t: -len(t.prefix))),
            name_words=frozenset(str(w).upper() for w in doc["secret_name_words"]),
            auth_headers=frozenset(str(h).lower() for h in doc["auth_headers"]),
            placeholders=tuple(str(p).lower() for p in doc["placeholder_words"]),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise InternalError(f"data/secrets.yaml: {exc}") from None


def is_reference(value: str) -> bool:
    """The whole value is something the client substitutes (an env or input reference)."""
    return bool(_REFERENCE.fullmatch(value.strip()))


def strip_references(value: str) -> str:
    return _REFERENCE.sub(" ", value)


def shannon_entropy(text: str) -> float:
    if not text:
        return 0.0
    counts = Counter(text)
    n = len(text)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def secret_name(name: str) -> bool:
    words = set(re.split(r"[^A-Z0-9]+", name.upper()))
    joined = name.upper().replace("-", "_")
    return bool(words & secret_table().name_words) or "API_KEY" in joined or "APIKEY" in joined


def _placeholder(value: str) -> bool:
    low = value.lower()
    return any(p in low for p in secret_table().placeholders) or len(set(low)) <= 3


def describe(kind: str, value: str, prefix: str = "") -> str:
    shown = f" {prefix}…" if prefix else ""
    return f"{kind}{shown} ({len(value)} characters, redacted)"


def find_token(value: str) -> str | None:
    """A description of a known-format token anywhere in `value`, else None."""
    table = secret_table()
    shortest = min(t.min_length for t in table.tokens)
    text = strip_references(value[:MAX_SCAN_CHARS])
    for piece in _TOKENISE.split(text):
        if len(piece) < shortest:
            continue
        for shape in table.tokens:
            if not piece.startswith(shape.prefix):
                continue
            body = piece[len(shape.prefix) :]
            if shape.min_length <= len(piece) <= shape.max_length and _CHARSETS[
                shape.charset
            ].fullmatch(body):
                if _placeholder(body):
                    break
                return describe(shape.kind, piece, shape.prefix)
            break
    return None


def literal_secret(name: str, value: str, *, header: bool = False) -> str | None:
    """Describe the literal secret `name=value` holds, or None. `header` for HTTP headers."""
    if not value or is_reference(value):
        return None
    found = find_token(value) or _url_password(value)
    if found is not None:
        return found
    text = value.strip()
    table = secret_table()
    if header and name.lower() in table.auth_headers:
        scheme, _, credential = text.partition(" ")
        if scheme.lower() in ("bearer", "basic", "token") and credential:
            if is_reference(credential) or _placeholder(credential):
                return None
            return describe(f"{scheme.title()} credential", credential)
        if not _placeholder(text) and not is_reference(text):
            return describe("authentication header value", text)
        return None
    if secret_name(name) and _high_entropy(text):
        return describe("high-entropy value under a secret name", text)
    if len(text) >= 32 and " " not in text and "/" not in text and shannon_entropy(text) >= 4.5:
        return None if _placeholder(text) else describe("high-entropy value", text)
    return None


_ENV_NAME = lazy_compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")


def arg_secret(previous: str, arg: str) -> str | None:
    """A literal credential in one command-line argument: `--api-key VALUE`, `--token=VALUE`,
    `NAME=VALUE` (docker -e, env-style), `Authorization: …`, or a known token anywhere."""
    if arg.lower().startswith("authorization:"):
        return literal_secret("authorization", arg.split(":", 1)[1].strip(), header=True)
    name, eq, value = arg.partition("=")
    if eq and (_ENV_NAME.fullmatch(name) or (name.startswith("-") and len(name) > 1)):
        return literal_secret(name.lstrip("-"), value)
    flag = previous.lstrip("-") if previous.startswith("-") else ""
    return literal_secret(flag, arg)


def _url_password(value: str) -> str | None:
    """`postgres://user:password@host/db`: a password written into a connection URL."""
    text = value.strip()
    if "://" not in text or "@" not in text or len(text) > MAX_SCAN_CHARS:
        return None
    try:
        password = urlsplit(text).password
    except ValueError:
        return None
    if not password or is_reference(password) or _placeholder(password):
        return None
    return describe("password in a connection URL", password)


def _high_entropy(text: str) -> bool:
    if len(text) < MIN_ENTROPY_LENGTH or " " in text or _placeholder(text):
        return False
    return shannon_entropy(text) >= 3.5

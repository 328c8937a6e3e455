"""Embedded credentials: known token shapes, private-key blocks and high-entropy assignments.

Token shapes come from the shared table `data/secrets.yaml` (prefix + character class + length,
also used by the config-posture checks); private-key markers and assignment names from
`lexicon/secrets.yaml`. The scan is a
`str.find` per prefix plus one bounded character-class run, so it is linear. Every caller shows
a credential only through `redact`, which keeps a short prefix and the shape's name.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from functools import lru_cache

from toolwitness.checks.text.lexicon import Lexicon, lexicon
from toolwitness.checks.text.secrets import SecretTable, secret_table
from toolwitness.lazyre import lazy_compile
from toolwitness.plainclass import plainclass
from toolwitness.textnorm import REDACTED

_ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
# Character classes of the shared token table (data/secrets.yaml, owned by checks/text/secrets.py).
_CHARSETS = {
    "alnum": frozenset(_ALNUM),
    "upper-alnum": frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
    "alnum_": frozenset(_ALNUM + "_"),
    "token": frozenset(_ALNUM + "_-"),
    "base64url": frozenset(_ALNUM + "_-"),
}
_VALUE_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/=_-.")
_ASSIGN = lazy_compile(r"[A-Za-z_\-]{3,40}[\"']?\s{0,3}[:=]\s{0,3}[\"']?")


@plainclass(frozen=True)
class SecretHit:
    start: int
    end: int
    kind: str

    def redacted(self, text: str) -> str:
        shown = text[self.start : self.start + 4]
        return f"{shown}…{REDACTED} ({self.kind})"


_RUNS: dict[tuple[frozenset[str], int], re.Pattern[str]] = {}


def _run(text: str, start: int, chars: frozenset[str], limit: int) -> int:
    """End of the run of `chars` starting at `start`, at most `limit` + 1 long (one regex step)."""
    pattern = _RUNS.get((chars, limit))
    if pattern is None:
        body = "".join(sorted(re.escape(c) for c in chars))
        pattern = _RUNS[(chars, limit)] = re.compile(f"[{body}]{{0,{limit + 1}}}")
    match = pattern.match(text, start)
    return match.end() if match else start


def _jwts(text: str) -> list[SecretHit]:
    """header.payload.signature, each base64url; scanned by hand so it stays linear."""
    b64 = _CHARSETS["base64url"]
    found, at = [], text.find("eyJ")
    while at >= 0:
        end = at
        parts = 0
        while parts < 3:
            run_end = _run(text, end, b64, 4000)
            if run_end - end < 8:
                break
            parts += 1
            end = run_end
            if parts < 3 and (end >= len(text) or text[end] != "."):
                break
            end += 1 if parts < 3 else 0
        if parts == 3:
            found.append(SecretHit(at, end, "JSON Web Token"))
        at = text.find("eyJ", max(end, at + 1))
    return found


def entropy(value: str) -> float:
    counts = Counter(value)
    n = len(value)
    return -sum(c / n * math.log2(c / n) for c in counts.values())


def _looks_secret(value: str, lex: Lexicon) -> bool:
    low = value.lower()
    if any(p in low for p in lex.secrets["placeholders"]):
        return False
    classes = sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
        )
    )
    return len(value) >= 16 and classes >= 2 and entropy(value) >= 3.5


Needles = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]
_NEEDLES: dict[int, tuple[SecretTable, Needles]] = {}


def _needles(table: SecretTable) -> Needles:
    """The literal prefixes and the JWT header, split by a character they hold ("-", else "_",
    else neither): a prefix holding "-" cannot occur in a text without "-", and so on."""
    held = _NEEDLES.get(id(table))
    if held is None or held[0] is not table:
        prefixes = ["eyJ", *(shape.prefix for shape in table.tokens)]
        dash = tuple(p for p in prefixes if "-" in p)
        under = tuple(p for p in prefixes if "_" in p and "-" not in p)
        plain = tuple(p for p in prefixes if "_" not in p and "-" not in p)
        held = _NEEDLES[id(table)] = (table, (plain, under, dash))
    return held[1]


def may_hold_token(text: str) -> bool:
    """A known token prefix or a JWT header occurs (the other shapes need ':', '=' or '-')."""
    return holds_needle(text, token_needles())


def token_needles() -> Needles:
    """The needles of `may_hold_token` for the shared token table."""
    return _needles(secret_table())


def holds_needle(text: str, needles: Needles) -> bool:
    """`may_hold_token` given the needles."""
    plain, under, dash = needles
    for p in plain:
        if p in text:
            return True
    if "_" in text:
        for p in under:
            if p in text:
                return True
    return "-" in text and any(p in text for p in dash)


def may_hold_secret(text: str, needles: Needles, lex: Lexicon) -> bool:
    """Necessary for `find_secrets(text, lex)` to find anything: a token prefix or JWT header
    (`holds_needle`), a private-key marker in the lower-cased text, or an assignment name in
    the lower-cased text followed by what `_ASSIGN` puts between a name and its value (an
    optional quote, up to three spaces, ':' or '='; see `_name_before_colon`)."""
    if holds_needle(text, needles):
        return True
    _, markers, shared, opening = _marker_table(lex)
    colon = ":" in text or "=" in text
    if not colon and shared is not None and shared not in text:
        return False  # `shared` is in every marker: a text without it holds none
    low = text.lower()
    # every marker opens with `opening` ("-----begin "): without it, none is there
    if opening in low and any(marker in low for marker in markers):
        return True
    return colon and _name_before_colon(low, lex)


_MARKER_TABLES: dict[int, tuple[Lexicon, tuple[str, ...], str | None, str]] = {}


def _marker_table(lex: Lexicon) -> tuple[Lexicon, tuple[str, ...], str | None, str]:
    """The lexicon's private-key markers, the character they all hold (`_shared_char`) and
    the longest opening they share ("" when none or no markers), read once per lexicon."""
    held = _MARKER_TABLES.get(id(lex))
    if held is None or held[0] is not lex:
        markers = tuple(lex.secrets["private_key_markers"])
        opening = min(markers, default="")
        last = max(markers, default="")
        n = 0
        while n < len(opening) and opening[n] == last[n]:
            n += 1  # the common opening of the first and last in order is everyone's
        held = _MARKER_TABLES[id(lex)] = (lex, markers, _shared_char(markers), opening[:n])
    return held


_NAME_TABLES: dict[int, tuple[Lexicon, tuple[str, ...]]] = {}


def _assignable_names(lex: Lexicon) -> tuple[str, ...]:
    """The assignment names `_ASSIGN` can give: lower-case runs of `[a-z_-]` (its name is the
    run of `[A-Za-z_-]` before the quote and spaces, lower-cased)."""
    held = _NAME_TABLES.get(id(lex))
    if held is None or held[0] is not lex:
        names = lex.secrets["assignment_names"]
        usable = tuple(
            sorted(n for n in names if n and not n.strip("abcdefghijklmnopqrstuvwxyz_-"))
        )
        held = _NAME_TABLES[id(lex)] = (lex, usable)
    return held[1]


def _name_before_colon(low: str, lex: Lexicon) -> bool:
    """An assignment name right before an optional quote, up to three spaces and ':' or '=',
    in the lower-cased text. `scan_secrets` reports an assignment only when `_ASSIGN` matches
    and its name (the letters before the quote and spaces, which `strip` removes; a tab is not
    removed, so only spaces count) is one of the names: those letters are ASCII, so they
    lower-case alone, and the name, the quote, the spaces and the ':' or '=' stand as they are
    in the lower-cased text. Read back from each ':' and '=' (a name ends in neither a space
    nor a quote, so taking them greedily is exact)."""
    names = _assignable_names(lex)
    if not names:
        return False
    find = low.find
    for colon in ":=":
        at = find(colon)
        while at >= 0:
            end = at
            while end > 0 and at - end < 3 and low[end - 1] == " ":
                end -= 1
            if end > 0 and low[end - 1] in "\"'":
                end -= 1
            if low.endswith(names, 0, end):
                return True
            at = find(colon, at + 1)
    return False


@lru_cache(maxsize=8)
def _shared_char(markers: tuple[str, ...]) -> str | None:
    """An ASCII punctuation or digit character every marker holds, if any (lower-casing
    neither produces nor removes one, so it is in the text exactly when in its lower case)."""
    common = set.intersection(*(set(m) for m in markers)) if markers else set()
    usable = (c for c in common if c.isascii() and not c.isalpha() and not c.isspace())
    return min(usable, default=None)


def find_secrets(text: str, lex: Lexicon | None = None) -> list[SecretHit]:
    lex = lex or lexicon()
    if not may_hold_secret(text, token_needles(), lex):
        return []  # its necessary condition, a few substring tests instead of every shape's scan
    return scan_secrets(text, lex)


def scan_secrets(text: str, lex: Lexicon) -> list[SecretHit]:
    """`find_secrets` without its gate (tests hold the two equal)."""
    hits: list[SecretHit] = []
    covered: set[int] = set()  # start offsets inside a hit (hits are bounded, so this is linear)
    for shape in secret_table().tokens:  # longest prefix first
        at = text.find(shape.prefix)
        while at >= 0:
            body_start = at + len(shape.prefix)
            end = _run(
                text,
                body_start,
                _CHARSETS.get(shape.charset, _CHARSETS["token"]),
                shape.max_length + 1,
            )
            before_ok = at == 0 or not text[at - 1].isalnum()
            taken = at in covered
            fits = shape.min_length <= end - at <= shape.max_length
            if before_ok and fits and not taken and _looks_secret(text[at:end], lex):
                hits.append(SecretHit(at, end, shape.kind))
                covered.update(range(at, end))
            at = text.find(shape.prefix, max(end, at + 1))
    low = text.lower()
    for marker in lex.secrets["private_key_markers"]:
        at = low.find(marker)
        if at >= 0 and _key_body(text, at + len(marker)):
            hits.append(SecretHit(at, min(len(text), at + len(marker) + 64), "private key block"))
    hits.extend(_jwts(text))
    names = lex.secrets["assignment_names"]
    # Without a name before a colon (see `_name_before_colon`) no match below is kept.
    assignments = _ASSIGN.finditer(text) if _name_before_colon(low, lex) else ()
    for m in assignments:
        name = m.group().split("=")[0].split(":")[0].strip(" \"'").lower()
        if name not in names:
            continue
        end = _run(text, m.end(), _VALUE_CHARS, 300)
        value = text[m.end() : end]
        if m.end() not in covered and _looks_secret(value, lex):
            hits.append(SecretHit(m.end(), end, f"high-entropy value assigned to {name}"))
            covered.update(range(m.end(), end))
    return sorted(hits, key=lambda h: (h.start, h.end))


_KEY_BODY = frozenset(_ALNUM + "+/=")


def _key_body(text: str, at: int) -> bool:
    """A key block has a Base64 body after its header; a header alone ("headers like
    -----BEGIN … PRIVATE KEY-----" in a scanner's description) holds no key."""
    while at < len(text) and text[at] in " \t\r\n":
        at += 1
    return _run(text, at, _KEY_BODY, 64) - at >= 40


def redact(text: str, hits: list[SecretHit] | None = None) -> str:
    """The text with every credential replaced by its redacted form."""
    hits = find_secrets(text) if hits is None else hits
    if not hits:
        return text
    out, pos = [], 0
    for hit in hits:
        if hit.start < pos:
            continue
        out.append(text[pos : hit.start])
        out.append(hit.redacted(text))
        pos = hit.end
    out.append(text[pos:])
    return "".join(out)

"""Decode before judging: every encoding a payload hides in, bounded, with the chain named.

One level of `decode_once` finds, in a text: Base64 and Base64url, Base32, hex (plain, and
bytes separated by spaces, commas, `\\x` or `0x`), decimal and octal character codes, HTML
numeric and named entities, percent-encoding, `\\uXXXX` escapes, ROT13, reversed text (also the
display order under a right-to-left override), keywords spelled with confusable letters (the
UTS #39 skeleton of `checks.unicode.script`) and keywords split by zero-width characters.
`decode_chains` applies it again to what it decoded, up to `MAX_DEPTH` levels, and names each
result's chain ("base64 → rot13"). The detectors then judge the decoded text like any other:
the fact of encoding is never a finding above low on its own.

Bounds, so hostile input costs linear time: every pattern is a bounded character-class run
(no nesting), each level reads each text once per decoder, a field yields at most
`MAX_PAYLOADS` results and `MAX_DECODED_CHARS` decoded characters in all, and ROT13 and reversal
are only tried when the transformed text reads better than the original (`transforms`: more
English function words, the marks of reversal gone, a web address revealed; ordinary prose
never qualifies), on the whole field and on each of its segments. The bounds are counts, not
clock time: a result never depends on how loaded the machine is.
"""

from __future__ import annotations

import binascii
import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache
from urllib.parse import unquote

from toolwitness.checks.injection.slots import slots
from toolwitness.checks.injection.transforms import ROT13, may_transform_any, transforms
from toolwitness.checks.text.words import reader_words
from toolwitness.checks.unicode.bidi import logical_and_displayed
from toolwitness.checks.unicode.data import tables
from toolwitness.checks.unicode.script import _ascii_prototypes
from toolwitness.lazyre import lazy_compile
from toolwitness.plainclass import plainclass

MAX_DEPTH = 3
MAX_PAYLOADS = 24
MAX_DECODED_CHARS = 65_536

_B64 = lazy_compile(r"[A-Za-z0-9+/_\-]{24,8000}={0,2}")
_B32 = lazy_compile(r"[A-Z2-7]{16,8000}={0,6}")
_HEX = lazy_compile(r"(?:\\x|0x)?[0-9A-Fa-f]{32,8000}")
_HEX_ESC = lazy_compile(r"(?:\\x[0-9A-Fa-f]{2}){8,4000}")
# A hex byte of readable text always holds a digit (printable ASCII is 0x20-0x7e; a UTF-8 lead
# or continuation byte of letters is 0xc3 0xa9, …): items without one ("be ad") are not bytes.
_HEX_ITEM = r"(?:0[xX])?(?:[0-9][0-9A-Fa-f]|[A-Fa-f][0-9])"
_HEX_SEP = lazy_compile(rf"(?:{_HEX_ITEM}[\s,;:]{{1,3}}){{7,4000}}{_HEX_ITEM}")
# (up to five digits: a character code of any script, "1571 1585 …" Arabic, "12354 …" kana)
_DECIMAL = lazy_compile(r"(?<![\w.])(?:[0-9]{1,5}[\s,;]{1,3}){7,4000}[0-9]{1,5}(?![\w.])")
_OCTAL_ESC = lazy_compile(r"(?:\\[0-7]{3}){6,4000}")
_OCTAL_LIST = lazy_compile(r"(?<![\w.])(?:0[0-7]{2,3}[\s,;]{1,3}){7,4000}0[0-7]{2,3}(?![\w.])")
_NUMBER = lazy_compile(r"[0-9A-Fa-f]+")
_WORD_RUN = lazy_compile(r"\S{1,4000}")
_PCT_BYTE = lazy_compile(r"%[0-9A-Fa-f]{2}")
_UESC = lazy_compile(r"(?:\\u[0-9A-Fa-f]{4}){6,4000}")
_SLUG = lazy_compile(r"[A-Za-z][A-Za-z0-9]{0,30}(?:[-_][A-Za-z0-9]{1,30}){5,400}")
_ENTITY = lazy_compile(r"&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z]{2,10});")
_HAS_DIGIT = lazy_compile(r"[0-9]")
_LETTERS = lazy_compile(r"[a-z]+")
_INVOLUTIONS = frozenset({"rot13", "reversed"})  # applying these twice gives the text back


@plainclass(frozen=True)
class Decoded:
    start: int  # span in the field's own text
    end: int
    chain: tuple[str, ...]  # outermost first: ("base64", "rot13")
    text: str

    @property
    def encoding(self) -> str:
        return " → ".join(self.chain)


def readable(data: bytes | str) -> str | None:
    """Text a person could read (and a model follow), or a printable run that may be one more
    layer of encoding; else None: a decoded hash or binary example is neither."""
    if isinstance(data, bytes):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            return None
    else:
        text = data
    if len(text) < 8:
        return None
    printable = sum(1 for c in text if c.isprintable() or c.isspace())
    if printable < 0.95 * len(text):
        return None
    letters = sum(1 for c in text if c.isalpha() or c.isspace())
    if letters >= 0.6 * len(text) and (
        any(c.isspace() for c in text.strip()) or reader_words(text) >= 4
    ):
        return text  # (Japanese, Chinese or Thai prose runs without spaces: 8 letters or more)
    return text if len(text) >= 16 and text.isascii() and may_encode(text, None) else None


@lru_cache(maxsize=1)
def _function_words() -> tuple[frozenset[str], frozenset[str]]:
    """English function words, and the tokens their ROT13 and reversal produce (minus those that
    are function words themselves: "be"/"or" are each other's ROT13)."""
    plain = slots().members["function_words"]
    shifted = {w.translate(ROT13) for w in plain} | {w[::-1] for w in plain}
    return plain, frozenset(w for w in shifted if w not in plain and len(w) > 1)


def function_words() -> frozenset[str]:
    """English function words (the slot the ROT13 and reversal gates are built from)."""
    return _function_words()[0]


def _function_count(text: str) -> int:
    plain = _plain_runs()
    if plain is None:
        return sum(1 for w in _LETTERS.findall(text.lower()) if w in _function_words()[0])
    return len(list(filter(plain.__contains__, _letter_runs(text))))


def _letter_runs(text: str) -> list[bytes]:
    """`_LETTERS.findall(text.lower())` as bytes, in C: the runs of small ASCII letters of the
    lowered text ("?" for a character outside ASCII, no letter)."""
    lower = text.lower()
    data = lower.encode() if lower.isascii() else lower.encode("ascii", "replace")
    return data.translate(_SMALL_LETTER_RUNS).split()


@lru_cache(maxsize=1)
def _plain_runs() -> frozenset[bytes] | None:
    """The function words as ASCII bytes, or None if one is not all small letters."""
    plain = _function_words()[0]
    if not all(w.isascii() and w.isalpha() and w.islower() for w in plain):
        return None
    return frozenset(w.encode() for w in plain)


def may_transform(words: frozenset[str]) -> bool:
    """Necessary for ROT13 or reversal to be tried: two distinct transformed function words."""
    _, shifted = _function_words()
    return not words.isdisjoint(shifted) and len(words & shifted) >= 2


@lru_cache(maxsize=1)
def _shifted_runs() -> frozenset[bytes] | None:
    """The transformed function words as ASCII bytes, or None if one is not all small letters
    (then `may_transform_text` cannot answer)."""
    _, shifted = _function_words()
    if not all(w.isascii() and w.isalpha() and w.islower() for w in shifted):
        return None
    return frozenset(w.encode() for w in shifted)


def may_transform_text(text: str) -> bool:
    """Necessary for `may_transform(words)` when `words` is the word set of `text` (its tokens
    and their hyphen-separated parts, as `triggers.scan_words` gives them): every transformed
    function word is all small letters, and a token or part that is one of them is a maximal
    run of small ASCII letters of `text.lower()` (its neighbours are no letters: white space,
    punctuation, a joiner; lower-casing maps no such character to a letter). Counted in C on
    the lowered text's bytes ("?" for a character outside ASCII)."""
    shifted = _shifted_runs()
    if shifted is None:
        return True
    return len(shifted.intersection(_letter_runs(text))) >= 2


def _items(text: str) -> int:
    """An upper bound on the number-list items of a text: every item of the hex, decimal and
    octal list decoders holds a digit run of its own. (The number of `[0-9]+` runs, in C:
    the digit runs are the words left when every other character becomes a space; a character
    outside ASCII, never a digit, is one byte "?" of the encoded text.)"""
    data = text.encode() if text.isascii() else text.encode("ascii", "replace")
    return len(data.translate(_DIGIT_SPACE).split())


def _ascii_long_token(text: str) -> bool:
    """For ASCII text, `max(map(len, text.split()), default=0) >= 16`, in C: every character
    `str.split` does not split at becomes "x", the others a space."""
    return b"x" * 16 in text.encode().translate(_NON_SPACE)


def may_encode(text: str, words: frozenset[str] | None = None) -> bool:
    """A superset test for `decode_once` yielding anything (`words`: the text's word set, when
    known; without it ROT13 and reversal are assumed possible)."""
    if "%" in text or "\\" in text or "&" in text or not text.isascii():
        return True
    if _ascii_long_token(text):
        return True
    if _items(text) >= 8 and any(
        p.search(text) is not None for p in (_HEX_SEP, _DECIMAL, _OCTAL_LIST)
    ):
        return True
    if _may_slug(text) and _SLUG.search(text) is not None:
        return True  # `_slugs`' necessary condition
    return words is None or may_transform(words) or may_transform_any(text)


def _may_hold_bytes(text: str) -> bool:
    """Necessary for `_bytes_runs`: each of its patterns matches 16 characters or more of
    classes without white space (Base32 16, Base64 24, hex 32), so within one `split` token."""
    if text.isascii():
        return _ascii_long_token(text)
    return len(text) >= 16 and max(map(len, text.split()), default=0) >= 16


def _class_table(members: str) -> bytes:
    """A `bytes.translate` table: the ASCII characters of `members` to "x", all else to " "."""
    return bytes(ord("x") if chr(c) in members else ord(" ") for c in range(256))


_DIGITS = "0123456789"
_DIGIT_SPACE = _class_table(_DIGITS)
_SMALL_LETTER_RUNS = bytes(c if 97 <= c <= 122 else 32 for c in range(256))  # a-z kept
# every ASCII character `str.split` does not split at (bytes are only ever ASCII text's here)
_NON_SPACE = _class_table("".join(chr(c) for c in range(128) if not chr(c).isspace()))
_HEX_DIGITS = _DIGITS + "abcdefABCDEF"
# (the letters spelled out: importing `string` for them costs a catalog scan a module)
_UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_B64_CLASS = _class_table(_UPPER + _UPPER.lower() + _DIGITS + "+/_-")
_B32_CLASS = _class_table(_UPPER + "234567")
_HEX_CLASS = _class_table(_HEX_DIGITS)


def _b64_starts(raw: str) -> list[int]:
    """Where a Base64 payload may start in a run of its class: the run's start, or just after a
    separator the class also holds in its first twelve characters ("4.3.0+QXNz…": a version
    string runs into the payload) — a few more decodes for a run that has one."""
    starts = [0]
    for k, ch in enumerate(raw[:12]):
        if ch in "+/-_" and 0 < k + 1 < len(raw) - 16:
            starts.append(k + 1)
    return starts


def _bytes_runs(text: str) -> Iterator[tuple[int, int, str, str]]:
    import base64  # here: only a text with a 16-character run decodes bytes

    # Each pattern needs a run of its class: Base64 24 characters, Base32 16, hex 32 (after its
    # optional prefix), `\\x` escapes a backslash. The runs are found in C on the text's ASCII
    # bytes, one byte per character ("?" for any other, in no class), before any regex runs.
    data = text.encode("ascii", "replace")
    b64 = b"x" * 24 in data.translate(_B64_CLASS)
    for m in _B64.finditer(text) if b64 else ():
        raw = m.group()
        if raw.isalpha() and (raw.islower() or raw.isupper()):
            continue  # a long word or identifier, not base64
        for skip in _b64_starts(raw):
            padded = raw[skip:] + "=" * (-(len(raw) - skip) % 4)
            out = None
            for decoder in (base64.b64decode, base64.urlsafe_b64decode):
                try:
                    out = readable(decoder(padded))
                except (binascii.Error, ValueError):
                    out = None
                if out:
                    break
            if out:
                yield m.start() + skip, m.end(), "base64", out
                break
    for m in _B32.finditer(text) if b"x" * 16 in data.translate(_B32_CLASS) else ():
        raw = m.group().rstrip("=")
        try:
            out = readable(base64.b32decode(raw + "=" * (-len(raw) % 8)))
        except (binascii.Error, ValueError):
            out = None
        if out:
            yield m.start(), m.end(), "base32", out
    hex_run = b64 and b"x" * 32 in data.translate(_HEX_CLASS)  # hex digits are Base64's too
    for pattern, may in ((_HEX, hex_run), (_HEX_ESC, "\\x" in text)):
        for m in pattern.finditer(text) if may else ():
            digits = m.group().replace("\\x", "").removeprefix("0x")
            if len(digits) % 2 == 0:
                try:
                    out = readable(bytes.fromhex(digits))
                except ValueError:
                    out = None
                if out:
                    yield m.start(), m.end(), "hex", out


def _code_lists(text: str) -> Iterator[tuple[int, int, str, str]]:
    """Bytes or character codes written as separated numbers."""
    if _items(text) >= 8:  # each list pattern holds eight items or more (see `_items`)
        yield from _number_lists(text)
    if "\\" in text:
        for m in _OCTAL_ESC.finditer(text):
            codes = [int(m.group()[k + 1 : k + 4], 8) for k in range(0, len(m.group()), 4)]
            out = readable(bytes(c & 0xFF for c in codes))
            if out:
                yield m.start(), m.end(), "octal codes", out


def _number_lists(text: str) -> Iterator[tuple[int, int, str, str]]:
    for m in _HEX_SEP.finditer(text):
        items = [n.removeprefix("0x").removeprefix("0X") for n in m.group().replace(",", " ")
                 .replace(";", " ").replace(":", " ").split()]  # fmt: skip
        try:
            out = readable(bytes.fromhex("".join(items)))
        except ValueError:
            out = None
        if out:
            yield m.start(), m.end(), "hex", out
    for pattern, base, name in ((_DECIMAL, 10, "decimal codes"), (_OCTAL_LIST, 8, "octal codes")):
        for m in pattern.finditer(text):
            numbers = _NUMBER.findall(m.group())
            codes = [int(n, base) for n in numbers]
            found = name
            if base == 10 and not all(9 <= c <= 0x7E for c in codes) and _od_octal(numbers):
                # three octal digits per byte without the leading 0, as `od -b` prints them
                codes, found = [int(n, 8) for n in numbers], "octal codes"
            if all(9 <= c <= 0x7E for c in codes) or (
                found == "decimal codes" and all(_character(c) for c in codes)
            ):
                out = readable("".join(map(chr, codes)))
                if out:
                    yield m.start(), m.end(), found, out


def _character(code: int) -> bool:
    """A code point a text may hold: a tab, a newline or a printable code, not a surrogate
    (`readable` then asks that the decoded text read as words)."""
    if code in (9, 10, 13):
        return True
    return 9 <= code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF and chr(code).isprintable()


def _od_octal(numbers: list[str]) -> bool:
    return all(len(n) == 3 and n.isdigit() and "8" not in n and "9" not in n for n in numbers)


def _escapes(text: str) -> Iterator[tuple[int, int, str, str]]:
    for m in _WORD_RUN.finditer(text):
        run = m.group()
        if run.count("%") < 3 or len(_PCT_BYTE.findall(run)) < 3:
            continue
        decoded = unquote(run)
        if decoded != run and readable(decoded):
            yield m.start(), m.end(), "percent", decoded
    for m in _UESC.finditer(text):
        chars = "".join(chr(int(m.group()[k + 2 : k + 6], 16)) for k in range(0, len(m.group()), 6))
        if readable(chars):
            yield m.start(), m.end(), "unicode-escape", chars
    entities = list(_ENTITY.finditer(text))
    if len(entities) >= 3:
        import html  # here: html.entities' table (~2 ms) only for a text with entities

        # the whole field with its entities resolved: words between entities belong to it
        decoded = html.unescape(text)
        if decoded != text and readable(decoded):
            yield entities[0].start(), entities[-1].end(), "html-entities", decoded


def _whole_text(text: str, words: frozenset[str] | None) -> Iterator[tuple[int, int, str, str]]:
    """Transforms of the whole field: ROT13, reversal, right-to-left display, confusables,
    zero-width removal."""
    if not text.isascii():
        yield from _unicode_disguises(text)
    if words is None:
        # A decoded payload, whose words are not known: `_english_gate` of the whole text is
        # also a necessary condition of each segment's (a segment's letter runs are runs of
        # the text: it starts after white space and ends before white space or a colon, and
        # lower-casing is per character for ASCII letters). Where it fails, only the
        # language-free tests can yield, so `more_english` is not needed.
        english = _english_gate(text)
        yield from transforms(text, _more_english if english else None, _english_gate, english)
        return
    english = may_transform(words)
    if english or may_transform_any(text):
        yield from transforms(text, _more_english if english else None, _english_gate)


def _english_gate(raw: str) -> bool:
    """Necessary for a transform of `raw` to read as more English: two transformed function
    words in `raw` (a segment without them is not read for function words at all)."""
    if _shifted_runs() is None:
        return may_transform(frozenset(_LETTERS.findall(raw.lower())))
    return may_transform_text(raw)  # the same test on the same letter runs, in C


def _more_english(raw: str, out: str) -> bool:
    """The transformed text holds two English function words more than the text as written
    (asked by `transforms` only where `_english_gate(raw)` holds)."""
    return _function_count(out) >= max(2, _function_count(raw) + 2)


def _unicode_disguises(text: str) -> Iterator[tuple[int, int, str, str]]:
    if "\u202e" in text or "\u202d" in text:
        at = text.find("\u202e") if "\u202e" in text else text.find("\u202d")
        _, displayed = logical_and_displayed(text, at)
        if displayed and displayed not in text:
            yield 0, len(text), "right-to-left override", displayed
    stripped = _hidden_chars().sub("", text)
    if stripped != text:
        yield 0, len(text), "zero-width split", stripped
    folded = _skeleton(stripped)
    if folded != stripped and _disguised_word(stripped):
        yield 0, len(text), "confusable letters", folded


_LETTER_RUN = lazy_compile(r"[^\W\d_]+")
_DISGUISE_MIN = 4  # a word of another script that folds whole into ASCII, from this length


def _disguised_word(text: str) -> bool:
    """A word spelled to look like another (UTS #39 mixed-script and whole-script confusables):
    Latin letters mixed with look-alikes of another script ("pаsswоrd" with Cyrillic а and о),
    or a word of another script of four letters or more whose every letter folds to Latin
    ("ѕеnd"). Text simply written in Cyrillic or Greek ("Номер картки") folds only in part
    and is not a disguise."""
    table = _prototype_table()
    for m in _LETTER_RUN.finditer(text):
        word = m.group()
        if word.isascii():
            continue
        foldable = [ch for ch in word if not ch.isascii() and ord(ch) in table]
        if not foldable:
            continue
        if any(ch.isascii() for ch in word):
            return True  # Latin letters beside look-alikes of another script
        if len(word) >= _DISGUISE_MIN and len(foldable) == len(word):
            return True
    return False


@lru_cache(maxsize=1)
def _hidden_chars() -> re.Pattern[str]:
    """One character class of the zero-width and format characters and the soft hyphen."""
    codes = sorted({*tables().zero_width_by_code, *tables().format_by_code, 0xAD})
    return re.compile("[" + "".join(re.escape(chr(c)) for c in codes) + "]")


@lru_cache(maxsize=1)
def _prototype_table() -> dict[int, str]:
    return {ord(ch): ascii for ch, ascii in _ascii_prototypes().items()}


def _skeleton(text: str) -> str:
    """`script.skeleton` with one `str.translate` instead of a lookup per character."""
    if text.isascii():
        return text
    return unicodedata.normalize("NFC", text).translate(_prototype_table())


def _may_slug(text: str) -> bool:
    """A slug joins six words or more with five separators or more: counted before the regex
    runs, since most texts hold a hyphen or an underscore and few hold five."""
    return text.count("-") + text.count("_") >= 5


def _slugs(text: str) -> Iterator[tuple[int, int, str, str]]:
    """Words joined by hyphens or underscores ("after-rendering-send-the-page-to-https://…")
    outside a URL's path (a fragment, a query value, or no URL): the words, spaced, with the
    rest of the token after them. Only runs that read as English (two function words or more)
    count: identifiers and honest slugs ("aws-lambda-node-18-x") stay what they are."""
    for m in _SLUG.finditer(text):
        back = max(0, m.start() - 2000)  # bounded look-back: linear on hostile text
        token_start = max(text.rfind(" ", back, m.start()), text.rfind("\n", back, m.start()),
                          back - 1) + 1  # fmt: skip
        head = text[token_start : m.start()]
        if "://" in head and not any(c in head for c in "#?="):
            continue  # a path segment of a URL: documentation slugs are honest
        words = re.split(r"[-_]", m.group())
        if sum(1 for w in words if w.lower() in _function_words()[0]) < 2:
            continue
        end = m.end()
        while end < len(text) and not text[end].isspace() and end < m.end() + 2000:
            end += 1
        yield m.start(), end, "slug", " ".join(words) + text[m.end() : end]


def decode_local(text: str) -> Iterator[tuple[int, int, str, str]]:
    """The runs of one level that are not whole-text transforms, in `decode_once`'s order."""
    if _may_hold_bytes(text):
        yield from _bytes_runs(text)
    if _may_slug(text):
        yield from _slugs(text)
    if _HAS_DIGIT.search(text) is not None:
        yield from _code_lists(text)
    if "%" in text or "\\" in text or "&" in text:
        yield from _escapes(text)


def decode_once(
    text: str, words: frozenset[str] | None = None
) -> Iterator[tuple[int, int, str, str]]:
    """(start, end, encoding, decoded text) for every encoded run of one level."""
    yield from decode_local(text)
    yield from _whole_text(text, words)


# `decode_chains` remembers the last few texts' payloads: the quiet test lists a text's payloads
# and the per-field pass then lists them again (`detect`), a few fields later. Short texts only
# (a long hostile one is decoded each time rather than pinned); the words are those of the
# text, or None, so they are part of the key only as the callers pass them.
CHAINS_CACHE_ENTRIES = 96  # over memo._TABLE_CACHE_SIZE: a per-text cache release_memos drops
CHAINS_CACHE_MAX_CHARS = 4000


def decode_chains(text: str, words: frozenset[str] | None = None) -> list[Decoded]:
    """Every decoded payload up to `MAX_DEPTH` levels, within the field's budgets. A result's
    span is the span of its outermost encoding in `text`."""
    if len(text) > CHAINS_CACHE_MAX_CHARS:
        return _decode_chains(text, words)
    return list(_chains_cached(text, words))


def _decode_chains(text: str, words: frozenset[str] | None) -> list[Decoded]:
    out: list[Decoded] = []
    seen = {text}
    budget = MAX_DECODED_CHARS
    frontier: list[Decoded] = [Decoded(0, len(text), (), text)]
    for _ in range(MAX_DEPTH):
        nxt: list[Decoded] = []
        for item in frontier:
            for start, end, name, decoded in decode_once(item.text, words if not item.chain
                                                         else None):  # fmt: skip
                if item.chain and name in _INVOLUTIONS and item.chain[-1] == name:
                    continue
                if decoded in seen or len(out) >= MAX_PAYLOADS or len(decoded) > budget:
                    continue
                seen.add(decoded)
                budget -= len(decoded)
                span = (start, end) if not item.chain else (item.start, item.end)
                found = Decoded(span[0], span[1], (*item.chain, name), decoded)
                out.append(found)
                nxt.append(found)
        if not nxt:
            break
        frontier = nxt
    return out


@lru_cache(maxsize=CHAINS_CACHE_ENTRIES)
def _chains_cached(text: str, words: frozenset[str] | None) -> tuple[Decoded, ...]:
    return tuple(_decode_chains(text, words))

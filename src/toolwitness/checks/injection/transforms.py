"""ROT13 and reversal of a field or of one segment of it, read without knowing its language.

A payload is often one reversed or ROT13 sentence after a label ("Ranking note (read right to
left): .dnes uoy …", "Legacy note (ROT13): Orsber …"): transforming the whole field turns the
visible label into gibberish, so the segments (lines, and the text after a label's colon) are
tried on their own too. A transform is kept when it reads better than the text as written:
- more English function words (the gate `decoders` already used for whole fields);
- or, in any language, the marks that reversal leaves disappear: a word ending in a capital
  after three small letters ("odnauQ"), a comma or semicolon glued to the next word (",avitta"),
  a sentence stop at the start (".dnes"), a word opening with a combining mark (Devanagari
  "ंेजेभ": no word of an abugida starts with a vowel sign), a Hebrew final letter opening a word,
  a Thai leading vowel closing one (Thai written without spaces between its words leaves too
  few of these to count). Text written plainly has none of them once read backwards
  has several, so it never qualifies;
- or a web address appears that the field as written does not hold ("uggcf://" is "https://",
  "//:sptth" is "https://" read backwards).
Every test is a count over whitespace-separated words: linear in the text.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterator
from functools import lru_cache

from toolwitness.checks.text.words import reader_words
from toolwitness.lazyre import lazy_compile

ROT13 = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "nopqrstuvwxyzabcdefghijklmNOPQRSTUVWXYZABCDEFGHIJKLM",
)
# A segment boundary: a line break, or a label's colon (": " after a word or a bracket).
# (`\n+|(?<=[\w)\]])[:：]\s+`, each branch written to open with its literal: the search then
# skips to the newlines and colons in C instead of trying every position)
# (French sets a space, often a no-break one, before the colon: "à lire à l'envers : …")
_SEGMENT_BREAK = lazy_compile(
    r"\n\n*|:(?<=[\w)\]]:)\s+|:(?<=[\w)\]][ \u00a0\u202f]:)\s+|：(?<=[\w)\]]：)\s+"
)
_WEB_ADDRESS = lazy_compile(r"\b(?:https?|ftp)://[\w\-]+(?:\.[\w\-]+)+")
# (`\b(?:uggcf?|sgc)://`, each branch opening with its letter: the search skips to them in C)
_ROT13_WEB = lazy_compile(r"u(?<!\wu)ggcf?://|s(?<!\ws)gc://")
_REVERSED_WEB = lazy_compile(r"//:(?:s?ptth|ptf)\b")
# A necessary test of `reversal_marks >= 1`: glued punctuation, a capital after small Latin
# letters, a word opening in an abugida's blocks (Devanagari to Sinhala, Thai and Lao, Myanmar,
# Khmer; `_word_marks` then asks for a combining mark), a Hebrew final letter opening a word,
# a Thai leading vowel closing one. Other scripts' capitals are found by the glued punctuation
# a reversed sentence starts with.
_MAY_MARK = lazy_compile(
    r"(?:^|\s)(?:[,;][^\W\d_]|[\u0900-\u0dff\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]"
    r"|[\u05da\u05dd\u05df\u05e3\u05e5][^\W\d_])|[a-z]{3}[A-Z](?![A-Za-z])"
    r"|[\u0e40-\u0e44](?=\s|$)"
)
# (`(?:^|\s)[,;]…` written comma first: the search then skips to the commas in C)
_GLUED = lazy_compile(r"[,;](?<!\S[,;])[^\W\d_]")
_MARK_SCRIPTS = lazy_compile(r"[\u0900-\u0dff\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u05d0-\u05ea]")
# The same test on ASCII text, with ASCII classes (the Unicode ones cost most of the scan).
_CAPITAL_END = lazy_compile(r"[a-z]{3}[A-Z](?![A-Za-z])")
_GLUED_ASCII = lazy_compile(r"[,;](?<!\S[,;])[A-Za-z]")
# ASCII small letters to "a", capitals to "A", every other byte to a space
_LETTER_CASES = bytes(
    ord("a") if 97 <= c <= 122 else ord("A") if 65 <= c <= 90 else ord(" ") for c in range(256)
)
_HEBREW_FINALS = frozenset("ךםןףץ")
_THAI_LEADING = frozenset("เแโใไ")
_STRIP = "\"'“”‘’«»()[]{}!?:;,.…"
MIN_SEGMENT_WORDS = 4
MIN_MARKS = 2


def _word_marks(word: str, first: bool) -> int:
    """1 when `word` carries a mark that reversal leaves and written text does not."""
    if len(word) < 2:
        return 0
    if word[0] in ",;" and word[1].isalpha():
        return 1
    if first and word[0] == "." and word[1].isalpha() and not word[1].isupper():
        return 1
    if unicodedata.category(word[0]) in ("Mn", "Mc"):
        return 1
    if word[0] in _HEBREW_FINALS and word[1].isalpha():
        return 1
    if word[-1] in _THAI_LEADING:
        return 1
    if word.endswith("/~") and len(word) > 2:
        return 1  # a home path read backwards ("stnemucoD/~"): no word ends so as written
    core = word.strip(_STRIP)
    if len(core) >= 4 and core[-1].isupper() and core[-4:-1].isalpha() and core[-4:-1].islower():
        return 1
    return 0


def reversal_marks(text: str) -> int:
    """How many words of `text` carry a mark that reversal leaves (see the module docstring)."""
    return sum(_word_marks(w, i == 0) for i, w in enumerate(text.split()))


@lru_cache(maxsize=4096)
def may_be_reversed(text: str) -> bool:
    """A cheap necessary condition for `reversal_marks(text) >= MIN_MARKS` (asked by the
    gates and by the decoder of the same text: remembered)."""
    # `_CAPITAL_END` needs three small ASCII letters before a capital: looked for in C first,
    # on the text's bytes ("?" for a character outside ASCII, which is no letter of it)
    data = text.encode() if text.isascii() else text.encode("ascii", "replace")
    if b"aaaA" in data.translate(_LETTER_CASES) and _CAPITAL_END.search(text) is not None:
        return True
    glued = " ," in text or " ;" in text or text[:1] in (",", ";") or "\n," in text
    if glued and _GLUED_ASCII.search(text) is not None:
        return True
    if text.isascii():
        return False
    # the other marks need a letter of those scripts, or a comma before a letter
    if ("," in text or ";" in text) and _GLUED.search(text) is not None:
        return True
    return _MARK_SCRIPTS.search(text) is not None and _MAY_MARK.search(text) is not None


def may_transform_any(text: str) -> bool:
    """A necessary condition for `transforms` to yield anything other than through the
    function-word gate: a reversal mark, or a ROT13 or reversed web address."""
    return (
        may_be_reversed(text)
        or ("://" in text and _ROT13_WEB.search(text) is not None)
        or ("//:" in text and _REVERSED_WEB.search(text) is not None)
    )


def reads_reversed(text: str) -> bool:
    """`text` is written backwards, in any language: its reversal loses every mark it carries."""
    if not may_be_reversed(text) or _reader_words(text) < MIN_SEGMENT_WORDS:
        return False
    return reversal_marks(text) >= MIN_MARKS and reversal_marks(text[::-1]) == 0


# `reader_words` of ASCII text: a token counts when it holds a letter, so deleting every other
# character but the white space `str.split` splits at leaves exactly the counted tokens (bytes:
# their `split` knows six white-space characters, so \x1c-\x1f, which `str.split` also splits
# at, become spaces).
_NOT_LETTER_OR_SPACE = bytes(c for c in range(128) if not (chr(c).isalpha() or chr(c).isspace()))
_SEPARATORS_AS_SPACE = bytes.maketrans(b"\x1c\x1d\x1e\x1f", b"    ")


def _reader_words(text: str) -> int:
    """`reader_words(text)`, in C for ASCII text."""
    if text.isascii():
        return len(text.encode().translate(_SEPARATORS_AS_SPACE, _NOT_LETTER_OR_SPACE).split())
    return reader_words(text)


def _new_address(decoded: str, raw: str) -> bool:
    return any(m.group() not in raw for m in _WEB_ADDRESS.finditer(decoded))


def _never(raw: str, out: str) -> bool:
    return False


def segments(text: str) -> Iterator[tuple[int, int]]:
    """The spans of the field's segments (lines, and text after a label's colon), stripped;
    nothing when the field is one segment (the whole-field transforms cover it)."""
    if "\n" not in text and ":" not in text and "：" not in text:
        return  # every break holds one of these
    bounds = [(m.start(), m.end()) for m in _SEGMENT_BREAK.finditer(text)]
    if not bounds:
        return
    start = 0
    for lo, hi in [*bounds, (len(text), len(text))]:
        seg = text[start:lo]
        left = len(seg) - len(seg.lstrip())
        right = len(seg.rstrip())
        if right > left:
            yield start + left, start + right
        start = hi


def _rot13(text: str) -> str:
    """`text.translate(ROT13)` through bytes: ROT13 moves only ASCII letters, and every byte of
    another character's UTF-8 form (a lone surrogate's too, with "surrogatepass") is 0x80 or
    above, so the bytes table leaves them as they are."""
    if text.isascii():
        return text.encode().translate(_ROT13_BYTES).decode()
    data = text.encode("utf-8", "surrogatepass").translate(_ROT13_BYTES)
    return data.decode("utf-8", "surrogatepass")


_ROT13_BYTES = bytes.maketrans(
    b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    b"nopqrstuvwxyzabcdefghijklmNOPQRSTUVWXYZABCDEFGHIJKLM",
)


def transforms(
    text: str,
    more_english: Callable[[str, str], bool] | None,
    english_gate: Callable[[str], bool] | None = None,
    whole_gate: bool | None = None,
) -> Iterator[tuple[int, int, str, str]]:
    """(start, end, "rot13" | "reversed", decoded) for the field and each of its segments that
    reads better transformed. `more_english(raw, out)`: the function-word gate of `decoders`,
    None when the text holds no transformed function word (only the language-free tests).
    `english_gate(raw)`: where given, `more_english(raw, …)` is asked only of a segment for
    which it holds, and answers for such a segment only (`whole_gate`: its answer for the whole
    text, when known); a segment where it fails is read by the language-free tests alone."""
    english = more_english is not None
    more = more_english or _never
    spans = [(0, len(text)), *segments(text)]
    for lo, hi in spans:
        raw = text[lo:hi]
        rot_web = "://" in raw and _ROT13_WEB.search(raw) is not None
        back_web = "//:" in raw and _REVERSED_WEB.search(raw) is not None
        reversible = may_be_reversed(raw)  # necessary for `reads_reversed(raw)`
        webbed = rot_web or back_web
        if not english or english_gate is None:
            fluent = english
        elif whole_gate is not None and lo == 0 and hi == len(text):
            fluent = whole_gate
        else:
            fluent = english_gate(raw)
        if not (fluent or webbed or reversible):
            continue  # nothing below can yield: no gate is open
        words = -1  # `_reader_words(raw)`, counted when first needed
        if not webbed:
            words = _reader_words(raw)
            if words < MIN_SEGMENT_WORDS:
                continue
        if fluent or rot_web:
            rot = _rot13(raw)
            if (fluent and more(raw, rot)) or (rot_web and _new_address(rot, raw)):
                yield lo, hi, "rot13", rot
        if not (fluent or back_web or reversible):
            continue
        back = raw[::-1]
        backwards = False
        if reversible:  # `reads_reversed(raw)`, with the counts above
            if words < 0:
                words = _reader_words(raw)
            backwards = (
                words >= MIN_SEGMENT_WORDS
                and reversal_marks(raw) >= MIN_MARKS
                and reversal_marks(back) == 0
            )
        if backwards or (fluent and more(raw, back)) or (back_web and _new_address(back, raw)):
            yield lo, hi, "reversed", back

"""The eighteenth pass's shortcuts in the decoders give what the plain definitions give (perf17o).

- `transforms`: gates asked once per segment, a segment skipped when no gate can open, the
  reader-word count and ROT13 of ASCII text through `bytes`; `decoders._whole_text` asks the
  English gate of a decoded payload's whole text once. Held to the definitions as they were
  before the pass (copied here), on corpus strings and on texts built to sit at the gates.
- `_bytes_runs`, `may_encode`, `_items`, `_may_hold_bytes`, `may_be_reversed`: class runs found
  with `bytes.translate` before any regex runs.
- the gate dumps of `crosstool` (`tokens.dumps_list`) equal `json.dumps(…, ensure_ascii=False)`.

Work is counted, never timed: a decoded payload without two transformed function words is
never read for function words, segment by segment.
"""

from __future__ import annotations

import base64
import binascii
import json
import random
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from json_strings import json_strings
from toolwitness.checks.crosstool.tokens import dumps_list
from toolwitness.checks.injection import decoders
from toolwitness.checks.injection import transforms as tr
from toolwitness.checks.injection import triggers as trig
from toolwitness.checks.text.words import reader_words

ROOT = Path(__file__).resolve().parent.parent
ROT13 = tr.ROT13


# --- the definitions before the pass ---------------------------------------------------------
def _old_reads_reversed(text: str) -> bool:
    if not tr.may_be_reversed(text) or reader_words(text) < tr.MIN_SEGMENT_WORDS:
        return False
    return tr.reversal_marks(text) >= tr.MIN_MARKS and tr.reversal_marks(text[::-1]) == 0


def _old_transforms(
    text: str, more_english: Callable[[str, str], bool] | None
) -> Iterator[tuple[int, int, str, str]]:
    english = more_english is not None
    more = more_english or (lambda raw, out: False)
    spans = [(0, len(text)), *tr.segments(text)]
    rot13_web, reversed_web = tr._ROT13_WEB, tr._REVERSED_WEB
    for lo, hi in spans:
        raw = text[lo:hi]
        if reader_words(raw) < tr.MIN_SEGMENT_WORDS and not (
            rot13_web.search(raw) or reversed_web.search(raw)
        ):
            continue
        rot_web = "://" in raw and rot13_web.search(raw) is not None
        if english or rot_web:
            rot = raw.translate(ROT13)
            if more(raw, rot) or (rot_web and tr._new_address(rot, raw)):
                yield lo, hi, "rot13", rot
        back_web = "//:" in raw and reversed_web.search(raw) is not None
        backwards = _old_reads_reversed(raw)
        if english or back_web or backwards:
            back = raw[::-1]
            if backwards or more(raw, back) or (back_web and tr._new_address(back, raw)):
                yield lo, hi, "reversed", back


def _old_function_count(text: str) -> int:
    plain = decoders.function_words()
    return sum(1 for w in re.findall("[a-z]+", text.lower()) if w in plain)


def _old_more_english(raw: str, out: str) -> bool:
    if not decoders.may_transform(frozenset(re.findall("[a-z]+", raw.lower()))):
        return False
    return _old_function_count(out) >= max(2, _old_function_count(raw) + 2)


def _old_whole_text(text: str, words: frozenset[str] | None) -> list[tuple[int, int, str, str]]:
    out = [] if text.isascii() else list(decoders._unicode_disguises(text))
    english = words is None or decoders.may_transform(words)
    if english or tr.may_transform_any(text):
        out += _old_transforms(text, _old_more_english if english else None)
    return out


# (the definition since the twenty-third wave: a colon after a space too, as French sets it)
_OLD_SEGMENT_BREAK = re.compile(r"\n+|(?<=[\w)\]])[:：]\s+|(?<=[\w)\]][ \u00a0\u202f]):\s+")
_OLD_GLUED = re.compile(r"(?:^|\s)[,;][^\W\d_]")
_OLD_GLUED_ASCII = re.compile(r"(?:^|\s)[,;][A-Za-z]")


def _old_may_be_reversed(text: str) -> bool:
    if tr._CAPITAL_END.search(text) is not None:
        return True
    glued = " ," in text or " ;" in text or text[:1] in (",", ";") or "\n," in text
    if glued and _OLD_GLUED_ASCII.search(text) is not None:
        return True
    if text.isascii():
        return False
    if ("," in text or ";" in text) and _OLD_GLUED.search(text) is not None:
        return True
    return tr._MARK_SCRIPTS.search(text) is not None and tr._MAY_MARK.search(text) is not None


def _old_bytes_runs(text: str) -> list[tuple[int, int, str, str]]:
    out = []
    for m in decoders._B64.finditer(text):
        raw = m.group()
        if raw.isalpha() and (raw.islower() or raw.isupper()):
            continue
        # a payload may start after a separator of its class in the run's first twelve
        # characters ("4.3.0+QXNz…", fourteenth #13 wave)
        starts = [0] + [k + 1 for k, ch in enumerate(raw[:12])
                        if ch in "+/-_" and 0 < k + 1 < len(raw) - 16]  # fmt: skip
        for skip in starts:
            padded = raw[skip:] + "=" * (-(len(raw) - skip) % 4)
            got = None
            for decoder in (base64.b64decode, base64.urlsafe_b64decode):
                try:
                    got = decoders.readable(decoder(padded))
                except (binascii.Error, ValueError):
                    got = None
                if got:
                    break
            if got:
                out.append((m.start() + skip, m.end(), "base64", got))
                break
    for m in decoders._B32.finditer(text):
        raw = m.group().rstrip("=")
        try:
            got = decoders.readable(base64.b32decode(raw + "=" * (-len(raw) % 8)))
        except (binascii.Error, ValueError):
            got = None
        if got:
            out.append((m.start(), m.end(), "base32", got))
    for pattern in (decoders._HEX, decoders._HEX_ESC):
        for m in pattern.finditer(text):
            digits = m.group().replace("\\x", "").removeprefix("0x")
            if len(digits) % 2 == 0:
                try:
                    got = decoders.readable(bytes.fromhex(digits))
                except ValueError:
                    got = None
                if got:
                    out.append((m.start(), m.end(), "hex", got))
    return out


# --- the texts -------------------------------------------------------------------------------


def _corpus() -> list[str]:
    texts: set[str] = set()
    for path in sorted((ROOT / "corpus" / "catalogs").rglob("*.json")):
        try:
            texts.update(json_strings(json.loads(path.read_text(encoding="utf-8"))))
        except (ValueError, UnicodeDecodeError):
            continue
    return sorted(texts)


_PIECES = [
    *"abcdefxyzABCXYZ0123456789 \t\n\r\x0b\x0c\x1c\x1f,;:.!?-_/+=%&#\\'\"`()[]",
    "\u202e", "\u200b", "\u0e40", "\u05da", "\u0915\u093e", "：", "İ", "\u212a", "Σ", "é",
    "//:ptth", "https://", "uggcf://", " ,rab", "\n,eht", "\t,eht", "eht fo ", "ot si ",
    "gur naq ", "YOUR", "\\x41", "0x", "deadbeef" * 5, "QUJD" * 8, "MFRGG" * 4, "abcD",
    "Label: ", "Note (ROT13): ", "\U000e0041", "\U0001f600",
]  # fmt: skip


def _built(rng: random.Random, n: int) -> list[str]:
    return ["".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 40))) for _ in range(n)]


def _texts() -> list[str]:
    rng = random.Random(18)
    corpus = _corpus()
    texts = list(corpus) + _built(rng, 3000)
    prose = [t for t in corpus if 20 < len(t) < 400]
    rng.shuffle(prose)
    for t in prose[:600]:  # reversed and ROT13 sentences, alone and after a label
        texts += [t[::-1], t.translate(ROT13), "Note: " + t[::-1],
                  "Legacy (ROT13): " + t.translate(ROT13) + "\n" + t]  # fmt: skip
    return texts


TEXTS = _texts()


def test_whole_text_transforms_equal_the_definitions() -> None:
    assert len(TEXTS) > 5000
    found = 0
    for text in TEXTS:
        words = trig.scan_words(text)[1]
        for given_words in (words, None):  # a field's text, and a decoded payload's
            got = list(decoders._whole_text(text, given_words))
            assert got == _old_whole_text(text, given_words), text
            found += bool(got)
    assert found > 500


def test_decode_chains_find_the_same_payloads_at_every_level() -> None:
    for text in TEXTS[::3]:
        chains = decoders.decode_chains(text, None)
        for item in chains:  # every level below the first is a payload read with words None
            assert list(decoders._whole_text(item.text, None)) == _old_whole_text(item.text, None)


def test_the_gates_in_c_equal_their_definitions() -> None:
    for text in [*TEXTS, ", a", ",a", "\u3000,\u00b2", "x,a", "\n;b", " ,_", " ,1", "a ,\u00b2"]:
        for old, new in ((_OLD_GLUED, tr._GLUED), (_OLD_GLUED_ASCII, tr._GLUED_ASCII)):
            assert (old.search(text) is None) == (new.search(text) is None), text
        assert [m.span() for m in tr._SEGMENT_BREAK.finditer(text)] == [
            m.span() for m in _OLD_SEGMENT_BREAK.finditer(text)
        ]
        assert decoders._items(text) == len(re.findall("[0-9]+", text))
        assert decoders._may_hold_bytes(text) == (
            len(text) >= 16 and max(map(len, text.split()), default=0) >= 16
        )
        assert tr._reader_words(text) == reader_words(text)
        assert tr._rot13(text) == text.translate(ROT13)
        assert tr.may_be_reversed(text) == _old_may_be_reversed(text)
        assert list(decoders._bytes_runs(text)) == _old_bytes_runs(text)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=30).map("".join))
def test_the_gates_equal_their_definitions_on_generated_text(text: str) -> None:
    assert list(decoders._bytes_runs(text)) == _old_bytes_runs(text)
    assert tr._reader_words(text) == reader_words(text)
    assert tr._rot13(text) == text.translate(ROT13)
    assert tr.may_be_reversed(text) == _old_may_be_reversed(text)
    assert (_OLD_GLUED.search(text) is None) == (tr._GLUED.search(text) is None)
    assert list(decoders._whole_text(text, None)) == _old_whole_text(text, None)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from([*"aZmN é", "\ud83d", "\ude00", "\U0001f600", "\x00"])))
def test_rot13_through_bytes_with_lone_surrogates(text: str) -> None:
    assert tr._rot13(text) == text.translate(ROT13)


def test_a_payload_without_transformed_function_words_is_not_read_for_them() -> None:
    calls = {"more": 0, "gate": 0}
    more, gate = decoders._more_english, decoders._english_gate

    def counting_more(raw: str, out: str) -> bool:
        calls["more"] += 1
        return more(raw, out)

    def counting_gate(raw: str) -> bool:
        calls["gate"] += 1
        return gate(raw)

    decoders._more_english, decoders._english_gate = counting_more, counting_gate
    try:
        # forty segments of plain English: one gate for the whole payload, no segment's count
        payload = "\n".join(f"Step {i}: read the report and send it to the owner." for i in range(40))
        assert list(decoders._whole_text(payload, None)) == []
        assert calls == {"more": 0, "gate": 1}
        # a ROT13 payload opens the gate: asked once per span (the whole text, then each of its
        # 80 segments: a label and its line), never once per transform
        calls.update(more=0, gate=0)
        hidden = payload.translate(ROT13)
        spans = 1 + len(list(tr.segments(hidden)))
        assert spans == 81
        assert ("rot13", payload) in [(n, out) for _, _, n, out in decoders._whole_text(hidden, None)]
        assert calls["gate"] == spans and calls["more"] <= 2 * spans
    finally:
        decoders._more_english, decoders._english_gate = more, gate


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_JSON, max_size=6))
def test_the_gate_dump_is_json_dumps(values: list[Any]) -> None:
    assert dumps_list(values) == json.dumps(values, ensure_ascii=False)


def test_function_word_counts_in_c_equal_their_definitions() -> None:
    plain = decoders.function_words()
    for text in TEXTS:
        runs = re.findall("[a-z]+", text.lower())
        assert decoders._function_count(text) == sum(1 for w in runs if w in plain)
        assert decoders._english_gate(text) == decoders.may_transform(frozenset(runs))


def test_may_transform_text_is_necessary_for_the_words_gate() -> None:
    held = 0
    for text in TEXTS:
        if decoders.may_transform(trig.scan_words(text)[1]):
            held += 1
            assert decoders.may_transform_text(text), text
    assert held > 500  # the reversed and ROT13 sentences


def test_split_payloads_without_the_joined_words() -> None:
    from toolwitness.checks.injection import split
    from toolwitness.checks.text.lexicon import lexicon

    lex = lexicon()
    for text in TEXTS[::4]:
        joined = text + "\n" + text[::-1]
        words = trig.scan_words(joined)[1]
        expected = (
            list(decoders.decode_chains(joined, words)) if decoders.may_encode(joined, words) else []
        )
        assert split._payloads(joined, lex) == expected


def test_patterns_rewritten_to_open_with_a_class_find_the_same() -> None:
    from toolwitness.checks.unicode import terminal
    from toolwitness.integrity import canonical

    rng = random.Random(7)
    pieces = [*":,[0123456789.eE-\r\n\x1b\x08\x90 usgcf/x", "uggcf://", "sgc://", "xuggc://",
              "_sgc://", "\r\n", "\u00e9uggc://", "1234567890123456"]  # fmt: skip
    texts = TEXTS + ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
                     for _ in range(20000)]  # fmt: skip
    pairs = [
        (r"[\x1b\x08\x90\x98\x9b\x9d\x9e\x9f]|\r(?!\n)", terminal._TRIGGER, True),
        (r"[:,\[]-?[0-9]+[.eE]|[0-9]{16}", canonical._FLOAT_OR_BIG, False),  # asked yes or no
        (r"\b(?:uggcf?|sgc)://", tr._ROT13_WEB, True),
    ]
    for old_text, new, spans in pairs:
        old = re.compile(old_text)
        for text in texts:
            a, b = old.search(text), new.search(text)
            assert (a is None) == (b is None), (old_text, text)
            if spans and a is not None and b is not None:
                assert a.span() == b.span(), (old_text, text)

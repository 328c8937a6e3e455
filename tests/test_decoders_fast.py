"""The decoders' shortcuts give what the plain definitions give: the zero-width removal and the
confusable skeleton (one regex / one `str.translate` instead of a Python step per character),
and the gates in front of the byte-run and number-list decoders (necessary conditions)."""

from __future__ import annotations

import json
import random
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from json_strings import WITHHELD, json_strings
from toolwitness.checks.injection import decoders
from toolwitness.checks.unicode.data import tables
from toolwitness.checks.unicode.script import _ascii_prototypes, skeleton

ROOT = Path(__file__).resolve().parent.parent
_HIDDEN = {*tables().zero_width_by_code, *tables().format_by_code, 0xAD}




def _texts() -> list[str]:
    """Every string of the corpus catalogs, and random mixes of their characters with hidden
    characters, confusables, digits and separators."""
    texts: list[str] = []
    for path in sorted((ROOT / "corpus").rglob("*.json")):
        if not WITHHELD.isdisjoint(path.parts):
            continue  # the unscored blind sets stay unread
        try:
            texts += json_strings(json.loads(path.read_text(encoding="utf-8")))
        except (ValueError, UnicodeDecodeError):
            continue
    rng = random.Random(17)
    alphabet = [chr(c) for c in sorted(_HIDDEN)] + sorted(_ascii_prototypes())[:400]
    alphabet += [*"0123456789abcdefABCDEF xX\\,;:\n\t%&#=-_/+", "\u202e", "e\u0301"]
    for _ in range(3000):
        texts.append("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 120))))
    return texts


TEXTS = _texts()


def test_zero_width_removal_and_skeleton_equal_their_definitions() -> None:
    assert len(TEXTS) > 3000
    every = "".join(chr(c) for c in sorted(_HIDDEN)) + "".join(_ascii_prototypes())
    for text in [*TEXTS, every]:
        plain = "".join(c for c in text if ord(c) not in _HIDDEN)
        assert decoders._hidden_chars().sub("", text) == plain
        assert decoders._skeleton(plain) == skeleton(plain)


@settings(max_examples=400, deadline=None)
@given(
    st.text(
        alphabet=st.sampled_from(
            sorted(decoders._ascii_prototypes())[:300]
            + [chr(c) for c in sorted(_HIDDEN)]
            + list("ab 1\n")
        )
    )
)
def test_skeleton_equal_on_generated_text(text: str) -> None:
    assert decoders._skeleton(text) == skeleton(text)
    assert decoders._hidden_chars().sub("", text) == "".join(
        c for c in text if ord(c) not in _HIDDEN
    )


def _number_hits(text: str) -> list[str]:
    return [m.group() for p in (decoders._HEX_SEP, decoders._DECIMAL, decoders._OCTAL_LIST)
            for m in p.finditer(text)]  # fmt: skip


def _byte_hits(text: str) -> list[str]:
    return [m.group() for p in (decoders._B64, decoders._B32, decoders._HEX, decoders._HEX_ESC)
            for m in p.finditer(text)]  # fmt: skip


def test_the_decoder_gates_are_necessary_conditions() -> None:
    rng = random.Random(4)
    texts = list(TEXTS)
    for _ in range(3000):  # number lists and long runs near the gates' thresholds
        sep = rng.choice([" ", ",", ", ", ";", "\n", ":"])
        items = [rng.choice(["0x41", "65", "101", "4f", "a9", "072", "7"]) for _ in range(7)]
        texts.append(sep.join(items) + rng.choice(["", sep + "66", " x"]))
        texts.append("A" * rng.randint(10, 40) + rng.choice(["", "==", " b"]))
        texts.append("\\x41" * rng.randint(6, 9) + " " + "\\101" * rng.randint(4, 7))
    gated_numbers = gated_bytes = 0
    for text in texts:
        if decoders._items(text) < 8:
            gated_numbers += 1
            assert _number_hits(text) == []
        if not decoders._may_hold_bytes(text):
            gated_bytes += 1
            assert _byte_hits(text) == []
        if "\\" not in text:
            assert decoders._OCTAL_ESC.search(text) is None
    assert gated_numbers > 1000 and gated_bytes > 1000


def test_decode_once_is_decode_local_then_the_whole_text() -> None:
    for text in TEXTS[:: max(1, len(TEXTS) // 1500)]:
        words = None
        assert list(decoders.decode_once(text, words)) == [
            *decoders.decode_local(text),
            *decoders._whole_text(text, words),
        ]

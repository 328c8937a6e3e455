"""Bidirectional controls (Unicode TR #9): which are present, whether they are balanced, and the
order a reader sees versus the order a model reads.

The visual order comes from python-bidi (the Unicode Bidirectional Algorithm, implemented by the
Rust `unicode-bidi` crate); controls are removed from the displayed copy because they render as
nothing.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import TYPE_CHECKING

from toolwitness.checks.unicode.data import tables
from toolwitness.plainclass import plainclass

if TYPE_CHECKING:
    import regex

_EXCERPT = 160


@plainclass(frozen=True)
class BidiReport:
    controls: tuple[tuple[int, str], ...]  # (index, short name) of every control present
    overrides: int
    unbalanced: bool
    has_rtl_letters: bool
    marks_only: bool

    @property
    def names(self) -> str:
        counts: dict[str, int] = {}
        for _, name in self.controls:
            counts[name] = counts.get(name, 0) + 1
        return ", ".join(f"{name}×{n}" for name, n in sorted(counts.items()))


@lru_cache(maxsize=1)
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], regex.Pattern[str]]:
    import regex  # on first use: only a text holding a bidi control needs it

    codes = sorted(tables().bidi_by_code)
    body = "".join(re.escape(chr(c)) for c in codes)
    controls = re.compile(f"[{body}]")
    controls_or_newline = re.compile(f"[\\n{body}]")
    rtl = regex.compile(f"[[\\p{{Bidi_Class=R}}\\p{{Bidi_Class=AL}}]--[{body}]]", regex.V1)
    return controls, controls_or_newline, rtl


def analyse_bidi(text: str) -> BidiReport | None:
    """None when the text holds no bidirectional control."""
    by_code = tables().bidi_by_code
    controls_pattern, paragraphs, rtl_pattern = _patterns()
    controls: list[tuple[int, str]] = []
    kinds: list[str] = []
    for match in controls_pattern.finditer(text):
        control = by_code[ord(match.group())]
        controls.append((match.start(), control.name))
        kinds.append(control.kind)
    if not controls:
        return None
    return BidiReport(
        controls=tuple(controls),
        overrides=kinds.count("override"),
        unbalanced=_unbalanced(text, paragraphs),
        has_rtl_letters=rtl_pattern.search(text) is not None,
        marks_only=all(kind == "mark" for kind in kinds),
    )


def _unbalanced(text: str, controls: re.Pattern[str]) -> bool:
    """An embedding/override/isolate left open at a paragraph end, or a pop with nothing open."""
    by_code = tables().bidi_by_code
    stack: list[str] = []
    for match in controls.finditer(text):  # `controls` also matches newlines: paragraph ends
        ch = match.group()
        if ch == "\n":
            if stack:
                return True
            continue
        kind = by_code[ord(ch)].kind
        if kind in ("embedding", "override"):
            stack.append("embed")
        elif kind == "isolate":
            stack.append("isolate")
        elif kind == "pop-embedding":
            if not stack or stack[-1] != "embed":
                return True
            stack.pop()
        elif kind == "pop-isolate":  # closes the nearest isolate and any embedding inside it
            if "isolate" not in stack:
                return True
            while stack.pop() != "isolate":
                pass
    return bool(stack)


def logical_and_displayed(text: str, index: int) -> tuple[str, str]:
    """The line around `index` in logical order and as a bidi-aware display would draw it."""
    line_start = text.rfind("\n", 0, index) + 1
    line_end = text.find("\n", index)
    line_end = len(text) if line_end < 0 else line_end
    lo = max(line_start, index - _EXCERPT // 2)
    hi = min(line_end, lo + _EXCERPT)
    logical = text[lo:hi]
    return logical, _displayed(logical)


# Keyed by the excerpt (at most _EXCERPT characters, so the cache stays small): the hidden-Unicode
# check and the injection decoders ask for the same hit's display (1,250 distinct of 2,171 calls
# on the poisoned 5,000-tool benchmark catalog). A pure function of the excerpt.
@lru_cache(maxsize=4096)
def _displayed(logical: str) -> str:
    from bidi import get_display  # type: ignore[import-untyped]  # a bidi hit only

    # The controls render as nothing: deleted in one C pass (`translate` maps each to None).
    return str(get_display(logical)).translate(_control_deletions())


@lru_cache(maxsize=1)
def _control_deletions() -> dict[int, None]:
    return dict.fromkeys(tables().bidi_by_code)

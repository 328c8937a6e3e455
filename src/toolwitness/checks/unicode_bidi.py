"""Bidirectional controls (Unicode TR #9): which are present, whether they are balanced, and the
order a reader sees versus the order a model reads.

The visual order comes from python-bidi (the Unicode Bidirectional Algorithm, implemented by the
Rust `unicode-bidi` crate); controls are removed from the displayed copy because they render as
nothing.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from bidi import get_display  # type: ignore[import-untyped]

from toolwitness.checks.unicode_data import tables

_EXCERPT = 160
_RTL_CLASSES = frozenset({"R", "AL"})


@dataclass(frozen=True)
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


def analyse_bidi(text: str) -> BidiReport | None:
    """None when the text holds no bidirectional control."""
    by_code = tables().bidi_by_code
    controls: list[tuple[int, str]] = []
    kinds: list[str] = []
    for index, ch in enumerate(text):
        control = by_code.get(ord(ch))
        if control is not None:
            controls.append((index, control.name))
            kinds.append(control.kind)
    if not controls:
        return None
    return BidiReport(
        controls=tuple(controls),
        overrides=kinds.count("override"),
        unbalanced=_unbalanced(text),
        has_rtl_letters=any(unicodedata.bidirectional(ch) in _RTL_CLASSES for ch in text),
        marks_only=all(kind == "mark" for kind in kinds),
    )


def _unbalanced(text: str) -> bool:
    """An embedding/override/isolate left open at a paragraph end, or a pop with nothing open."""
    by_code = tables().bidi_by_code
    for paragraph in text.split("\n"):
        stack: list[str] = []
        for ch in paragraph:
            control = by_code.get(ord(ch))
            if control is None or control.kind == "mark":
                continue
            if control.kind in ("embedding", "override"):
                stack.append("embed")
            elif control.kind == "isolate":
                stack.append("isolate")
            elif control.kind == "pop-embedding":
                if not stack or stack[-1] != "embed":
                    return True
                stack.pop()
            else:  # pop-isolate closes the nearest isolate and any embedding inside it
                if "isolate" not in stack:
                    return True
                while stack.pop() != "isolate":
                    pass
        if stack:
            return True
    return False


def logical_and_displayed(text: str, index: int) -> tuple[str, str]:
    """The line around `index` in logical order and as a bidi-aware display would draw it."""
    line_start = text.rfind("\n", 0, index) + 1
    line_end = text.find("\n", index)
    line_end = len(text) if line_end < 0 else line_end
    lo = max(line_start, index - _EXCERPT // 2)
    hi = min(line_end, lo + _EXCERPT)
    logical = text[lo:hi]
    displayed = str(get_display(logical))
    controls = tables().bidi_by_code
    displayed = "".join(ch for ch in displayed if ord(ch) not in controls)
    return logical, displayed

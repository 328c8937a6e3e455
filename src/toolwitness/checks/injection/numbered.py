"""A message numbered in parts across a tool's fields (TW-INJ-023).

"Transfer rule (1/2): …" in the description and "(2/2) … to account ET-0099 …" in a
parameter's description: the writer split one message over several fields and numbered the
pieces so the model joins them, while no single field reads as a whole order. Honest metadata
has no reason to number fragments across fields (a numbered list lives in one field). The
markers are read, not the words, so this holds in any language and script (digits of any
script count: "(१/२)").

Flagged: two or more fields of one tool carrying "(k/n)" markers (ASCII or full-width
parentheses) with one total n from 2 to 9, at least two different k, and no field holding two
parts of the same number.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolwitness.lazyre import lazy_compile
from toolwitness.model import TextField

NUMBERED_RULE = "TW-INJ-023"
_MARKER = lazy_compile(r"[(\uff08]\s*(\d)\s*/\s*(\d)\s*[)\uff09]")
_MAX_PARTS = 9


def numbered_parts(fields: Sequence[TextField]) -> list[tuple[TextField, int]]:
    """The fields that carry the parts and each one's part number, in field order; empty when
    the markers do not number one message across two fields or more."""
    found: list[tuple[TextField, int, int]] = []
    for field in fields:
        if "/" not in field.text:
            continue
        for m in _MARKER.finditer(field.text):
            found.append((field, int(m.group(1)), int(m.group(2))))
    totals = {n for _, _, n in found}
    if len(totals) != 1:
        return []
    total = totals.pop()
    if not 2 <= total <= _MAX_PARTS:
        return []
    parts: dict[str, tuple[TextField, int]] = {}
    for field, k, _ in found:
        if not 1 <= k <= total:
            return []
        held = parts.get(field.location)
        if held is not None and held[1] != k:
            continue  # a field naming two parts is a list in one place, not one piece
        parts[field.location] = (field, k)
    numbers = {k for _, k in parts.values()}
    if len(parts) < 2 or len(numbers) < 2:
        return []
    return sorted(parts.values(), key=lambda p: p[1])

"""Account and phone numbers written in digit groups ("0917-555-0142", "6222 0210 0104 8873"):
a payee or a contact a text can send money or data to, in any language, with no "+" or IBAN
shape to mark it. A date, a numeric range, a thousands-grouped amount ("1 250 000"), a list of
three-digit codes or of small numbers, a piece of a longer list and a number with valid card
check digits (a test card in payment documentation) are not places."""

from __future__ import annotations

import re
from collections.abc import Iterator

from toolwitness.checks.crosstool.tokens import Destination
from toolwitness.lazyre import lazy_compile

# (never a piece of a longer list: no digit group just before or after it, so "21 22 25 80
# 110 143 443 993 …" is a list of ports, not an account number in its first six groups)
_GROUPED = lazy_compile(
    r"(?<![\w.+/:\-])(?<!\d[ \-])\d{2,8}(?:[ \-]\d{2,8}){1,5}(?!\w|[.\-]\d|[ \-]\d)"
)
_MAY_GROUP = lazy_compile(r"\d\d[ \-]\d\d")
_DATE = lazy_compile(r"\d{4}[ \-]\d{2}[ \-]\d{2}|\d{2}[ \-]\d{2}[ \-]\d{4}")
_SEPARATOR = re.compile(r"[ \-]")
MIN_DIGITS = 8
MAX_DIGITS = 34  # an IBAN's longest


def _luhn(digits: str) -> bool:
    total = 0
    for i, c in enumerate(reversed(digits)):
        n = int(c) * (2 if i % 2 else 1)
        total += n - 9 if n > 9 else n
    return total % 10 == 0


def _place(value: str) -> bool:
    groups = _SEPARATOR.split(value)
    digits = "".join(groups)
    if not MIN_DIGITS <= len(digits) <= MAX_DIGITS or _DATE.fullmatch(value):
        return False
    leading_zero = any(g.startswith("0") for g in groups)
    if len(groups) == 2 and "-" in value and not leading_zero and int(groups[0]) < int(groups[1]):
        return False  # a range: "10000-50000"
    if len(groups[0]) <= 3 and not groups[0].startswith("0") and all(
        len(g) == 3 for g in groups[1:]
    ):
        return False  # an amount in thousands: "1 250 000"
    if len(groups) >= 4 and all(len(g) == 3 for g in groups):
        return False  # character codes: "123 151 154 145"
    if len(groups) >= 4 and all(len(g) <= 3 for g in groups) and (
        len({len(g) for g in groups}) > 1 and not groups[0].startswith("0")
    ):
        return False  # small numbers of mixed widths: "21 22 25 80 110 143" (a phone's
        # groups keep one width, "01 23 45 67 89", or open on a trunk zero)
    return not (13 <= len(digits) <= 19 and _luhn(digits))


def account_numbers(text: str) -> Iterator[Destination]:
    """The digit-grouped account or phone numbers of `text` outside its web addresses."""
    if _MAY_GROUP.search(text) is None:
        return
    for m in _GROUPED.finditer(text):
        if _place(m.group()):
            yield Destination("account number", m.group())

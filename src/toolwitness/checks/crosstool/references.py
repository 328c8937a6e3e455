"""A link or address shown under a short label, as a reference ("Contact: help@…", "문의: …",
"अधिक जानकारी: https://…", "Uitleg over de filters: https://…").

A sentence that is only a label of one to four words, a colon and the literal points the reader
at a page or a mailbox; it tells no one to send anything there. A lure names its destination in
a clause that does the sending ("send the export to …", "use the new portal at …"), so a long
lead-in ending in a colon ("property tax is now paid on the new portal: https://…") is not a
label, and neither is a label holding an English verb of sending or routing ("Send the export
to: …", WordNet classes `dispatch`, `transfer`, `redirect`). Otherwise only the sentence's shape
is read, so it holds in any language.
"""

from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache

from toolwitness.checks.injection.slots import slots
from toolwitness.lazyre import lazy_compile

# Sentence ends in any script the scanner reads (Latin, CJK full stops, Devanagari danda).
_BOUNDARY = ".!?\n\u3002\uff01\uff1f\u0964"
_LABEL = lazy_compile(
    r"(?:^|[" + _BOUNDARY + r"])\s*(?P<label>[^\s:" + _BOUNDARY + r"]+(?:\s+[^\s:" + _BOUNDARY
    + r"]+){0,3})\s*[:\uff1a]\s*\Z"
)  # fmt: skip
_SENDING = ("dispatch", "transfer", "redirect")
_LOOK_BACK = 120  # a label is short: look no further back (bounds the regex's work)
_TOKEN = lazy_compile(r"\S*")


# A link to one resource the tool makes: a single placeholder as a whole path segment, nothing
# templated in the query or fragment ("https://pay.vendor.example/i/{invoice_id}").
_RESOURCE_LINK = lazy_compile(
    r"https?://[^\s/{}?#]+(?:/[^\s/{}?#]*)*/\{[A-Za-z][A-Za-z0-9_]{0,30}\}"
    r"(?:/[^\s/{}?#]*)*(?:[?#][^\s{}]*)?(?=[\s.,;:)\]]*(?:\s|\Z))"
)


def resource_link(text: str, offset: int) -> bool:
    """The URL at `offset` names one resource by a single placeholder in its path (where the
    tool's own object lives); a beacon templates the data it carries into its query or into
    several segments."""
    return _RESOURCE_LINK.match(text, offset) is not None


@lru_cache(maxsize=256)
def _fences(text: str) -> tuple[int, ...]:
    """Offsets of the text's code fences ("```"), once per text: a literal after an odd
    number of them sits inside a fenced block."""
    out: list[int] = []
    at = text.find("```")
    while at >= 0:
        out.append(at)
        at = text.find("```", at + 3)
    return tuple(out)


def labelled_reference(text: str, offset: int) -> bool:
    """The literal at `offset` follows a short label and a colon that open its sentence, and
    ends that sentence."""
    fences = _fences(text)  # (remembered per text: a scan of it per literal was quadratic)
    if fences and bisect_left(fences, offset) % 2 == 1:
        return False  # a key of a fenced configuration block ("url: …" under "reporting:")
    start = max(0, offset - _LOOK_BACK)
    lead = text[start:offset]
    found = _LABEL.search(lead)
    if found is None or (found.start() == 0 and start > 0 and lead[:1] not in _BOUNDARY):
        return False  # the window cut a longer lead-in
    members = slots().members
    words = found["label"].lower().split()
    if any(w in members[c] for c in _SENDING for w in words):
        return False  # "Send the export to:": a clause that sends
    token = _TOKEN.match(text, offset)
    end = token.end() if token is not None else offset
    if end > offset and text[end - 1] in _BOUNDARY:
        return True  # "Contact: help@x-app.com." ends its sentence
    rest = text[end:].lstrip(" \t")
    return not rest or rest[0] in _BOUNDARY

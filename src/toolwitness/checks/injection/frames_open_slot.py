"""A URL left open for data, on a host that is not the server's own.

A query parameter with no value at the very end of a URL ("https://px.cdn-host/a.png?m=", the
text then naming what follows it: the user's last message, their e-mail address) or a
placeholder in the query ("…/log?n=<the user's full name>&nip=<NIP>", "…?rows={rows}") is a
URL built to be completed: whoever follows the text fills the slot, and the request carries
what it was filled with to the host. Read from the URL's shape alone, so it reads a sentence in
any language; the host decides whose it is (the server's own names are its API, documented).
A placeholder in the path ("/tiles/{z}/{x}/{y}.png") addresses a resource, and is not read.

Quiet for documentation of attacks, quotations and what a defensive tool handles (`skipped`),
for a URL shown as an example, and for the server's own hosts.
"""

from __future__ import annotations

from collections.abc import Iterator

from toolwitness.checks.crosstool.parties import owned_literal
from toolwitness.checks.injection.frames import skipped
from toolwitness.checks.injection.frames_common import _URL, URL_PLACEHOLDER, _signal
from toolwitness.checks.injection.model import URL, FieldContext, Signal
from toolwitness.checks.text.language import Analysis
from toolwitness.checks.text.lexicon import Lexicon
from toolwitness.findings import Severity
from toolwitness.lazyre import lazy_compile

_OPEN_END = lazy_compile(r"[?&][A-Za-z0-9_.\-]{1,40}=$")  # "…?m=": the last value left empty
_TRAILING = ".,;:!?。、，؛"  # sentence punctuation after a URL is not part of it


def may_leave_slot(text: str) -> bool:
    """The gate: a URL with a query in the text."""
    return "://" in text and "?" in text and "=" in text


def _open(url: str) -> bool:
    query = url.partition("?")[2]
    if not query:
        return False
    return _OPEN_END.search(url) is not None or URL_PLACEHOLDER.search(query) is not None


def open_slot(analysis: Analysis, ctx: FieldContext, lex: Lexicon) -> Iterator[Signal]:
    """A URL with an open query slot on a host that is not the server's own."""
    text = analysis.text
    for m in _URL.finditer(text):
        url = m.group().rstrip(_TRAILING)
        if not _open(url) or owned_literal(url, ctx.owners):
            continue
        at = m.start()
        sentence = analysis.sentence_at(at)
        if sentence is None or (sentence.example_from is not None and sentence.example_from <= at):
            continue  # "…leaks through image URLs such as ![](https://…?d=…)": shown
        if skipped(analysis, sentence, at):
            continue
        yield _signal(
            URL, Severity.MEDIUM, m.start(), m.start() + len(url),
            "gives a URL on a host that is not the server's own with a query slot left open "
            "to be filled: the request carries whatever fills it to that host",
        )  # fmt: skip
        return

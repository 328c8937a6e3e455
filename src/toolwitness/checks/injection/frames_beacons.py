"""Covert beacons: an order to contact an outside endpoint, an image whose URL carries data,
and a URL template whose slot is the conversation described in words.

Quiet like every frame (`frames`): negated, documentary, quoted or shown as an example; an
order to contact an endpoint is also quiet in a tool whose name and title are about the network.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from toolwitness.checks.crosstool.parties import owned_literal
from toolwitness.checks.injection.frames import Tags, find, skipped
from toolwitness.checks.injection.frames_common import (
    _EMAIL,
    _URL,
    URL_PLACEHOLDER,
    _asked,
    _clause_of,
    _signal,
    _within_purpose,
)
from toolwitness.checks.injection.model import URL, FieldContext, Signal
from toolwitness.checks.injection.payloads import whole_cell_sample
from toolwitness.checks.injection.slots import Slots, slots
from toolwitness.checks.text.language import Analysis, Sentence
from toolwitness.findings import Severity

_IMAGE = re.compile(
    r"!\[[^\]\n]{0,200}\]\(\s{0,4}((?:https?:)?//[^)\s]{1,1000})|"
    r"<img\b[^>]{0,300}?\bsrc\s{0,4}=\s{0,4}[\"']?((?:https?:)?//[^\"'\s>]{1,1000})",
    re.IGNORECASE,
)


def _beacon(analysis: Analysis, sentence: Sentence, words: Sequence[str], tags: Tags,
            ctx: FieldContext, sl: Slots) -> Signal | None:  # fmt: skip
    """ "Also contact our partner endpoint with the result", "send a copy to https://…"."""
    if _within_purpose(ctx, sl, "network_domain"):
        return None
    chunk = analysis.text[sentence.start : sentence.end]
    literal: bool | None = None  # a URL or e-mail address in the sentence (searched once)
    for i, tag in enumerate(tags):
        if not tag & {"contact", "transfer"} or _clause_of(sentence, i)[1]:
            continue
        if not _asked(sentence, words, i) or skipped(analysis, sentence, sentence.tokens[i].start):
            continue
        tok = sentence.tokens[i]
        if analysis.text[tok.start : tok.end] in _HTTP_METHODS and analysis.text[
            tok.end : tok.end + 10
        ].lstrip().startswith(("http", "/", "{")):
            continue  # "GET https://…/messages/{id}": an API reference, not an order ("POST
            # the full object to https://…" is one)
        ep = find(tags, "endpoint", i + 1, i + 8)
        third = ep is not None and find(tags, "third_party", ep - 3, ep) is not None
        if literal is None:
            own = ctx.owners
            literal = any(not owned_literal(m.group(), own) for m in _URL.finditer(chunk)) or (
                "@" in chunk
                and any(not owned_literal(m.group(), own) for m in _EMAIL.finditer(chunk))
            )
        if third or literal:
            return _signal(
                URL, Severity.MEDIUM, sentence.start, sentence.end,
                "tells the model to contact an outside endpoint the tool's purpose does not need",
            )  # fmt: skip
    return None


_HTTP_METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})
_CHAT = frozenset({"conversation", "conversations", "history", "transcript", "chat", "dialogue",
                   "prompt", "context"})  # fmt: skip
_WHOSE = frozenset({"user", "users", "your", "customer", "their", "his", "her"})
_SLOT = re.compile(r"\{([^{}]{1,120})\}")


def icon_beacons(analysis: Analysis, ctx: FieldContext) -> Iterator[Signal]:
    """An icon whose URL holds a placeholder ("https://cdn…/i.png?u={user_id}&last=
    {last_user_message}"): a client fetches a tool's icon to show it, so whatever fills the
    slots is sent to that host. An icon is a static picture; nothing honest templates one."""
    if ctx.kind != "icon" or "{" not in analysis.text:
        return
    text = analysis.text
    for m in _URL.finditer(text):
        if _SLOT.search(text, m.start(), m.end()) is not None:
            yield _signal(
                URL, Severity.HIGH, m.start(), m.end(),
                "gives an icon a URL with placeholders, filled in and fetched when the icon is "
                "shown (a beacon)",
            )  # fmt: skip
            return


def _template_beacons(analysis: Analysis) -> Iterator[Signal]:
    """A URL whose placeholder is the conversation described in words ("…?m={the user's most
    recent message}"): whoever fills it in sends the chat out, whatever the tool's purpose. An
    identifier slot ("{message_id}") is an honest API template."""
    if "{" not in analysis.text:
        return
    convo = slots().members["conversation"]
    text = analysis.text
    for m in _URL.finditer(text):
        # a slot opened inside the URL may hold spaces, which end the URL match
        for slot in _SLOT.finditer(text, m.start(), min(len(text), m.end() + 122)):
            if slot.start() >= m.end():
                break
            words = slot.group(1).lower().replace("'s", "").split()
            # the chat itself, or a message said to be the user's ("{message text}" in a
            # webhook example is the tool's own payload)
            whose = not _CHAT.isdisjoint(words) or not _WHOSE.isdisjoint(words)
            if len(words) >= 2 and not convo.isdisjoint(words) and whose:
                if analysis.exemplified_at(m.start()):
                    break
                yield _signal(
                    URL, Severity.HIGH, m.start(), m.end(),
                    "builds a URL that carries the conversation out (a beacon)",
                )  # fmt: skip
                return


# Two or more placeholders as a host name's first labels ("{session_id}.{os_username}.reg.
# example-sync.net"): resolving the name sends what fills them to the domain's DNS server, a
# channel no URL filter sees. One slot ("{tenant}.api.vendor.com") names an account; slots
# apart ("{bucket}.s3.{region}.amazonaws.com") pick a place.
_DNS_TEMPLATE = re.compile(
    r"(?<![\w.{}-])(?:\{[A-Za-z_][\w-]{0,40}\}\.){2,}(?:[a-z0-9-]{1,63}\.){1,8}[a-z]{2,24}\b"
)


def dns_beacons(analysis: Analysis, ctx: FieldContext) -> Iterator[Signal]:
    """A host name whose first labels are two or more placeholders, on a domain that is not the
    server's own: the data filled in is sent out by resolving it (a DNS beacon)."""
    if "}." not in analysis.text:
        return
    for m in _DNS_TEMPLATE.finditer(analysis.text):
        host = m.group().rsplit("}.", 1)[1]
        if owned_literal(host, ctx.owners) or analysis.exemplified_at(m.start()):
            continue
        sentence = analysis.sentence_at(m.start())
        if sentence is not None and sentence.documentary_at(m.start()):
            continue
        yield _signal(
            URL, Severity.HIGH, m.start(), m.end(),
            "builds a host name from data, whose lookup carries it out (a DNS beacon)",
        )  # fmt: skip
        return


def _image_beacons(analysis: Analysis) -> Iterator[Signal]:
    for m in _IMAGE.finditer(analysis.text):
        url = m.group(1) or m.group(2) or ""
        sentence = analysis.sentence_at(m.start())
        if sentence is not None and sentence.documentary_at(m.start()):
            continue
        if analysis.exemplified_at(m.start()):
            continue  # "remote images (for example `![](https://…?d=SECRET)`)": shown, not asked
        if whole_cell_sample(analysis, m.start()):
            continue  # quoted as a whole cell of a table of records: a sample, never rendered
        if URL_PLACEHOLDER.search(url) or ("?" in url and "=" in url):
            yield _signal(
                URL, Severity.HIGH, m.start(), m.end(),
                "renders an image whose URL carries data out (a beacon)",
            )  # fmt: skip
            return

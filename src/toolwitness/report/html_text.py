"""Scanned text for reviewers: names that only look alike are told apart, hidden text is read.

* A name with any character outside printable ASCII gets a visible marker and its escaped form
  (every non-ASCII character as `\\u0430`), and says what it imitates (`looks like read_file`),
  wherever it is shown: tables, finding cards, filter menus, the graph. Two tools that both
  render as `read_file` can then be told apart at a glance.
* In free text (evidence, messages, descriptions), a word that mixes ASCII letters with
  lookalikes of them has each lookalike marked with its escape (`re[⚠\\u0430]d`).
* In escaped text (reports carry `escape_display` copies), a run of escaped Tags-block characters
  or variation selectors is shown decoded, inline, beside an abbreviated raw escape — not as a
  wall of `\\U000e00xx`. Decoding uses the Unicode checks' own decoders. The raw form stays
  next to it: an escape written literally in the scanned text decodes the same way, and the
  reader sees both.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import escape

from toolwitness.checks.unicode.decode import selector_payload, tag_payload
from toolwitness.checks.unicode.script import skeleton
from toolwitness.textnorm import escape_display

MARK = "\u26a0"  # ⚠, a visible glyph (not only a colour) a reader and a screen reader meet

_ESCAPED = re.compile(r"\\U([0-9a-f]{8})|\\u([0-9a-f]{4})")
# Two or more escaped carriers in a row: Tags block, or variation selectors (both ranges).
_CARRIER = r"(?:\\U000e00[0-7][0-9a-f]|\\U000e01[0-9a-e][0-9a-f]|\\ufe0[0-9a-f])"
_RUN = re.compile(f"{_CARRIER}{{2,}}")


@lru_cache(maxsize=16384)  # titles, rule ids, tool names and confidences repeat on every card
def h(text: str) -> str:
    """Attacker text for HTML/SVG: hidden characters made visible, then entity-escaped."""
    return escape(escape_display(text), quote=True)


def ascii_escaped(text: str) -> str:
    """Every character outside printable ASCII as `\\uXXXX` (or `\\UXXXXXXXX`)."""
    return "".join(ch if " " <= ch <= "~" else _escape(ch) for ch in text)


def _escape(ch: str) -> str:
    code = ord(ch)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


def is_plain(name: str) -> bool:
    return name.isascii() and name.isprintable()


@lru_cache(maxsize=4096)
def name_note(name: str) -> str:
    """`⚠ re\\u0430d_file (looks like read_file)` for a name that is not plain ASCII, else ""."""
    if is_plain(name):
        return ""
    looks = skeleton(name)
    like = f" (looks like {looks})" if looks != name and is_plain(looks) else " (not ASCII)"
    return f"{MARK} {ascii_escaped(name)}{like}"


def name_html(name: str) -> str:
    """A tool or server name: `<code>` of the name, and for a confusable one the marker."""
    note = name_note(name)
    if not note:
        return f"<code>{h(name)}</code>"
    return (
        f'<code class="confusable">{h(name)}</code> '
        f'<span class="confusable-mark" role="note">{h(note)}</span>'
    )


def name_text(name: str) -> str:
    """The name as plain text (menus, SVG titles): the name, then the marker if it needs one."""
    note = name_note(name)
    return f"{name} {note}" if note else name


def _decoded(run: str) -> tuple[str, str] | None:
    """(channel, decoded text) of one escaped carrier run, if it decodes to text."""
    chars = "".join(chr(int(a or b, 16)) for a, b in _ESCAPED.findall(run))
    for decode, channel in ((tag_payload, "tags"), (selector_payload, "variation selectors")):
        payload = decode(chars)
        if payload is not None and payload.text:
            return channel, payload.text
    return None


def _abbreviated(run: str) -> str:
    escapes = _ESCAPED.findall(run)
    first = run[: run.index("\\", 1)] if len(escapes) > 1 else run
    last = run[run.rindex("\\") :]
    return f"{first}…{last}" if len(escapes) > 2 else run


_WORD = re.compile(r"\w+")


def _lookalike(ch: str) -> str | None:
    if ch.isascii() or not ch.isalpha():
        return None
    looks = skeleton(ch)
    return looks if looks != ch and is_plain(looks) else None


def _plain_html(segment: str) -> str:
    """HTML of text with no hidden run: in a word that mixes ASCII letters with lookalikes of
    them (`reаd`), each lookalike is marked and shows its escape."""
    if segment.isascii():
        return h(segment)
    out: list[str] = []
    pos = 0
    for match in _WORD.finditer(segment):
        word = match.group()
        if word.isascii() or not any(c.isascii() and c.isalpha() for c in word):
            continue
        marked = []
        for ch in word:
            looks = _lookalike(ch)
            marked.append(
                h(ch)
                if looks is None
                else f'<span class="confusable" title="{h(ascii_escaped(ch))} looks like '
                f'{h(looks)}">{h(ch)}<span class="confusable-mark">{MARK}{h(ascii_escaped(ch))}'
                "</span></span>"
            )
        out.append(h(segment[pos : match.start()]) + "".join(marked))
        pos = match.end()
    out.append(h(segment[pos:]))
    return "".join(out)


def text_html(text: str) -> str:
    """Scanned text (raw or already escaped) as HTML, hidden runs decoded inline beside the raw
    escape."""
    escaped = escape_display(text)  # idempotent: an escaped copy comes back unchanged
    if "\\" not in escaped:
        return _plain_html(escaped)  # no escape at all, so no hidden run (the common case)
    out: list[str] = []
    pos = 0
    for match in _RUN.finditer(escaped):
        decoded = _decoded(match.group())
        if decoded is None:
            continue
        channel, text = decoded
        count = len(_ESCAPED.findall(match.group()))
        out.append(_plain_html(escaped[pos : match.start()]))
        out.append(
            f'<span class="hidden-run"><mark class="decoded" title="hidden text carried by '
            f'{count} invisible {channel} characters, decoded">{MARK} hidden ({h(channel)}): '
            f"{h(text)}</mark> "
            f'<code class="raw" title="{h(match.group())}">{h(_abbreviated(match.group()))} '
            f"({count} characters)</code></span>"
        )
        pos = match.end()
    out.append(_plain_html(escaped[pos:]))
    return "".join(out)

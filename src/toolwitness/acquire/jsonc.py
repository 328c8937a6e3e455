"""JSONC (JSON with comments and trailing commas, as VS Code, Zed and opencode write it) → JSON.

A single linear pass that knows where strings are, so `"http://x"` keeps its `//`. Comments become
spaces (newlines kept, so line/column numbers in later errors still point into the original file);
a comma followed only by whitespace/comments before `}` or `]` is dropped. The output is then parsed
by the strict hostile-JSON parser; nothing here decides what is valid JSON.
"""

from __future__ import annotations

from toolwitness.errors import InputError


def _blank(text: str) -> str:
    """Replace a comment by spaces, keeping its newlines."""
    return "".join(ch if ch in "\r\n" else " " for ch in text)


def strip_jsonc(text: str, source: str) -> str:
    out: list[str] = []
    i = 0
    n = len(text)
    pending_comma: int | None = None  # index in `out` of a comma that may be trailing
    while i < n:
        ch = text[i]
        if ch == '"':
            end = _string_end(text, i, source)
            out.append(text[i:end])
            pending_comma = None
            i = end
        elif ch == "/" and i + 1 < n and text[i + 1] == "/":
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(_blank(text[i:end]))
            i = end
        elif ch == "/" and i + 1 < n and text[i + 1] == "*":
            end = text.find("*/", i + 2)
            if end < 0:
                raise InputError("unterminated /* comment", source=source)
            out.append(_blank(text[i : end + 2]))
            i = end + 2
        elif ch == ",":
            pending_comma = len(out)
            out.append(ch)
            i += 1
        elif ch in "}]":
            if pending_comma is not None:
                out[pending_comma] = " "
                pending_comma = None
            out.append(ch)
            i += 1
        else:
            if not ch.isspace():
                pending_comma = None
            out.append(ch)
            i += 1
    return "".join(out)


def _string_end(text: str, start: int, source: str) -> int:
    """Index just past the string literal that opens at `start` (escapes honoured)."""
    i = start + 1
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == '"':
            return i + 1
        if ch == "\n":
            break
        i += 1
    line = text.count("\n", 0, start) + 1
    raise InputError(f"unterminated string starting on line {line}", source=source)

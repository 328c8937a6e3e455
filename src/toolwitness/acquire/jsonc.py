"""JSONC (JSON with comments and trailing commas, as VS Code, Zed and opencode write it) → JSON.

A single linear pass that knows where strings are, so `"http://x"` keeps its `//`. Comments become
spaces (newlines kept, so line/column numbers in later errors still point into the original file);
a comma followed only by whitespace/comments before `}` or `]` is dropped. The output is then parsed
by the strict hostile-JSON parser; nothing here decides what is valid JSON.

The pass is one regular expression whose quantifiers are all possessive (no backtracking): the
text between comments and trailing commas — strings, other commas, everything else — is copied as
one match, so the Python loop runs once per comment or trailing comma, not once per character
(10 MiB of hostile JSONC took 6 s and 150 MiB as a character loop).
"""

from __future__ import annotations

import re

from toolwitness.errors import InputError

_STRING = r'"(?:[^"\\\n]|\\.)*+"'  # a backslash escapes any one character, a newline included
_COMMENT = r"//[^\n]*+|/\*(?:[^*]|\*(?!/))*+\*/"
_BEFORE_CLOSER = rf"(?:\s++|{_COMMENT})*+[}}\]]"  # only blanks and comments, then } or ]
_PIECE = re.compile(
    rf"(?P<plain>(?:{_STRING}|[^\"/,]|/(?![/*])|,(?!{_BEFORE_CLOSER}))++)"
    rf"|(?P<comment>{_COMMENT})"
    r"|(?P<trailing>,)"  # every other comma is plain
    r"|(?P<open_string>\")"  # a string that does not end on its line
    r"|(?P<open_comment>/\*)",  # a block comment that never ends
    re.S,
)
_NOT_NEWLINE = re.compile(r"[^\r\n]")


def strip_jsonc(text: str, source: str) -> str:
    out: list[str] = []
    pos = 0
    while pos < len(text):
        match = _PIECE.match(text, pos)
        if match is None:  # every character starts one of the alternatives
            raise AssertionError(f"JSONC scanner stuck at offset {pos}")
        kind = match.lastgroup
        if kind == "plain":
            out.append(match.group())
        elif kind == "comment":
            out.append(_NOT_NEWLINE.sub(" ", match.group()))
        elif kind == "trailing":
            out.append(" ")
        elif kind == "open_string":
            line = text.count("\n", 0, pos) + 1
            raise InputError(f"unterminated string starting on line {line}", source=source)
        else:
            raise InputError("unterminated /* comment", source=source)
        pos = match.end()
    return "".join(out)

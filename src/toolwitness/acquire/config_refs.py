"""Variable references inside config values, read as written and never expanded.

Clients substitute references when they start a server: `${VAR}` and `${VAR:-default}` (Claude
Code, Gemini CLI), `${env:X}`, `${input:id}`, `${workspaceFolder}` (VS Code), `{env:X}` and
`{file:path}` (opencode), `$VAR` and `$(command)` (Crush, shells), `%VAR%` (Windows),
`${__dirname}` (Claude Desktop extensions). toolwitness keeps the text exactly as written and
never reads the real environment: a report shows what the file says, not the user's secrets.

What a reference *means* still matters: `${API_BASE_URL:-https://api.example.com}/mcp` is an https
URL unless the variable is set, and a literal token written as a default is a literal token. So
each reference is parsed (a single linear scan with bounded nesting) into its name and default,
and `with_defaults` gives the value as it reads when no variable is set.
"""

from __future__ import annotations

from collections.abc import Callable

from toolwitness.lazyre import lazy_compile
from toolwitness.plainclass import plainclass

MAX_REFERENCES = 64  # per value: a real config has one or two
MAX_NESTING = 8  # `${A:-${B:-${C}}}`
MAX_REFERENCE_CHARS = 4096
PLACEHOLDER = "tw-ref"  # stands for a value nobody wrote down (a reference without a default)
_NAME = lazy_compile(r"[A-Za-z_][A-Za-z0-9_.]{0,200}")
_HEX2 = lazy_compile(r"[0-9A-Fa-f]{2}")
_NAMESPACES = ("env", "input", "config", "command", "file", "user_config")
_BRACE_NAMESPACES = ("env:", "file:")  # opencode's `{env:X}`, `{file:path}`


@plainclass(frozen=True)
class Reference:
    start: int
    end: int  # exclusive
    kind: str  # var | env | input | config | command | file | shell | windows
    name: str
    default: str | None  # the text after `:-` or `-`, itself possibly holding references

    def text(self, value: str) -> str:
        return value[self.start : self.end]


def references(value: str) -> list[Reference]:
    """Every reference in `value`, left to right (at most MAX_REFERENCES)."""
    found: list[Reference] = []
    i = 0
    n = len(value)
    while i < n and len(found) < MAX_REFERENCES:
        ch = value[i]
        ref: Reference | None = None
        if ch == "$" and i + 1 < n:
            nxt = value[i + 1]
            if nxt == "{":
                ref = _braced(value, i, i + 1)
            elif nxt == "(":
                ref = _command(value, i)
            else:
                match = _NAME.match(value, i + 1)
                if match:
                    ref = Reference(i, match.end(), "shell", match.group(), None)
        elif ch == "{" and value.startswith(_BRACE_NAMESPACES, i + 1):
            close = value.find("}", i, i + MAX_REFERENCE_CHARS)
            if close > 0:
                kind, _, name = value[i + 1 : close].partition(":")
                ref = Reference(i, close + 1, kind, name, None)
        elif ch == "%":
            match = _NAME.match(value, i + 1)
            # `%APPDATA%`, but not the `%E2%80%` of a percent-encoded URL
            if match and value.startswith("%", match.end()) and not _HEX2.fullmatch(match.group()):
                ref = Reference(i, match.end() + 1, "windows", match.group(), None)
        if ref is None:
            i += 1
            continue
        found.append(ref)
        i = ref.end
    return found


def _matching(value: str, open_at: int, opener: str, closer: str) -> int:
    """Index of the bracket closing the one at `open_at`, or -1 (unbalanced, too deep, too long)."""
    depth = 0
    limit = min(len(value), open_at + MAX_REFERENCE_CHARS)
    for j in range(open_at, limit):
        ch = value[j]
        if ch == opener:
            depth += 1
            if depth > MAX_NESTING:
                return -1
        elif ch == closer:
            depth -= 1
            if depth == 0:
                return j
    return -1


def _braced(value: str, start: int, brace: int) -> Reference | None:
    close = _matching(value, brace, "{", "}")
    if close < 0:
        return None
    body = value[brace + 1 : close]
    namespace, colon, rest = body.partition(":")
    if colon and namespace in _NAMESPACES:
        return Reference(start, close + 1, namespace, rest, None)
    match = _NAME.match(body)
    if match is None:  # `${/}` (Gemini CLI's path separator) and other client-specific forms
        return Reference(start, close + 1, "var", body, None)
    name, tail = match.group(), body[match.end() :]
    for operator in (":-", "-"):
        if tail.startswith(operator):
            return Reference(start, close + 1, "var", name, tail[len(operator) :])
    return Reference(start, close + 1, "var", name, None)


def _command(value: str, start: int) -> Reference | None:
    close = _matching(value, start + 1, "(", ")")
    if close < 0:
        return None
    return Reference(start, close + 1, "command", value[start + 2 : close], None)


def has_references(value: str) -> bool:
    return bool(references(value))


def with_defaults(value: str, placeholder: str = PLACEHOLDER) -> tuple[str, bool]:
    """`value` as it reads with no variable set: each reference replaced by its default (itself
    read the same way) or by `placeholder`. The flag says whether any placeholder was used."""
    return _substitute(value, placeholder, 0)


def _substitute(value: str, placeholder: str, depth: int) -> tuple[str, bool]:
    refs = references(value)
    if not refs:
        return value, False
    out: list[str] = []
    unknown = False
    last = 0
    for ref in refs:
        out.append(value[last : ref.start])
        if ref.default is not None and depth < MAX_NESTING:
            text, inner_unknown = _substitute(ref.default, placeholder, depth + 1)
            out.append(text)
            unknown = unknown or inner_unknown
        else:
            out.append(placeholder)
            unknown = True
        last = ref.end
    out.append(value[last:])
    return "".join(out), unknown


def defaults(value: str) -> list[str]:
    """The literal defaults written inside `value`'s references (a secret may hide there)."""
    out: list[str] = []
    for ref in references(value):
        if ref.default is not None:
            out.append(ref.default)
    return out


def rewrite_defaults(value: str, show: Callable[[str], str]) -> str:
    """`value` with each reference's default passed through `show`; all else kept as written."""
    refs = references(value)
    if not refs:
        return value
    out: list[str] = []
    last = 0
    for ref in refs:
        out.append(value[last : ref.start])
        text = ref.text(value)
        if ref.default is not None:
            head = text[: len(text) - len(ref.default) - 1]
            text = f"{head}{show(ref.default)}}}"
        out.append(text)
        last = ref.end
    out.append(value[last:])
    return "".join(out)

"""Canonical digests: RFC 8785 (JCS) canonical JSON, then SHA-256.

Per tool, one digest per field that steers the model or decides the tool's tier; the tool digest is
the digest of the canonical object {field: field digest}; the server digest is the digest of the
sorted [name, tool digest] pairs. None depends on key order, whitespace or the input shape.
An absent field and an explicit null digest the same: neither reaches the model.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from toolwitness import sha
from toolwitness.lazyre import lazy_compile
from toolwitness.memo import IdentityMemo
from toolwitness.model import ServerSurface, Tool
from toolwitness.plainclass import plainclass

HASHED_FIELDS = ("name", "title", "description", "inputSchema", "outputSchema", "annotations")


# Where Python's compact sorted json.dumps can differ from RFC 8785: floats (number formatting),
# keys ordered by UTF-16 code units (chars at or above U+E000 sort differently), and integers
# outside the interoperable range. Any of these, or text that merely looks like them inside a
# string, sends the value through `rfc8785` itself: a false alarm costs speed, never correctness.
_HIGH_CHAR = lazy_compile("[\ue000-\U0010ffff]")
_ENCODER = json.JSONEncoder(
    ensure_ascii=False, separators=(",", ":"), sort_keys=True, allow_nan=False
)
_encode_string = json.encoder.encode_basestring


def _direct_encoder() -> Callable[[Any], str]:
    """`_ENCODER.encode` without its per-call set-up: the stdlib's C encoder built once, with no
    circular-reference markers (a surface is validated JSON data: it holds no cycles). Used only
    if it is present and gives the same text on a probe value; else the plain encoder."""
    make = getattr(json.encoder, "c_make_encoder", None)
    probe = {"b": [1, "\u00e9\n", None, True], "a": {"z": False, "y": -3}}

    def plain(value: Any) -> str:
        return _ENCODER.encode(value)

    if make is None:
        return plain
    try:
        encode = make(None, _ENCODER.default, _encode_string, None, ":", ",", True, False, False)
        if "".join(encode(probe, 0)) != _ENCODER.encode(probe):
            return plain
    except TypeError:  # another Python's signature
        return plain

    def direct(value: Any) -> str:
        if type(value) is not dict:
            return plain(value)  # the C encoder's entry point expects a container
        return "".join(encode(value, 0))

    return direct


_encode = _direct_encoder()
_NUMBER_START = re.compile(r"[:,\[]-?[0-9]")
# (`[:,\[]-?[0-9]+[.eE]|[0-9]{16}` with one class first: the search skips in C to where a
# branch can start)
_FLOAT_OR_BIG = lazy_compile(r"[:,\[0-9](?:(?<=[:,\[])-?[0-9]+[.eE]|(?<=[0-9])[0-9]{15})")


def _jcs(value: Any) -> bytes:
    import rfc8785  # only for the values the fast path cannot encode: most scans need none

    return rfc8785.dumps(value)


def canonical_bytes(value: Any) -> bytes:
    """RFC 8785 canonical JSON. A fast path is taken only where it is byte-identical to JCS
    (a differential property test checks it against the `rfc8785` package)."""
    if type(value) is str:  # a lone string: identical in both
        return _encode_string(value).encode("utf-8")
    if value is None:
        return b"null"
    try:
        text = _encode(value)
    except (TypeError, ValueError):
        return _jcs(value)
    if not text.isascii() and _HIGH_CHAR.search(text):
        return _jcs(value)
    if text[:1] in "-0123456789" or (_NUMBER_START.search(text) and _FLOAT_OR_BIG.search(text)):
        return _jcs(value)
    return text.encode("utf-8")


def digest(value: Any) -> str:
    return "sha256:" + sha.sha256(canonical_bytes(value)).hexdigest()


@plainclass(frozen=True)
class ToolDigest:
    name: str
    digest: str
    fields: dict[str, str]
    # Every hashed field's canonical JSON is printable ASCII (no escape for a control or a
    # non-ASCII character): the hidden-Unicode check skips such a tool (see `plain_json`).
    plain: bool = False


def tool_field_values(tool: Tool) -> dict[str, Any]:
    return {
        "name": tool.name,
        "title": tool.title,
        "description": tool.description,
        "inputSchema": tool.wire_input_schema(),  # what the wire had (None when absent)
        "outputSchema": tool.output_schema,
        "annotations": tool.annotations,
    }


_NULL_DIGEST = digest(None)
_SORTED_FIELDS = tuple(sorted(HASHED_FIELDS))


_NULL_BYTES = b"null"


def _field_bytes(value: Any) -> bytes:
    if value is None:
        return _NULL_BYTES
    if type(value) is str:  # name, title, description: a string encodes the same in JCS
        return _encode_string(value).encode("utf-8")
    return canonical_bytes(value)


def plain_json(data: bytes) -> bool:
    """True when JSON text (canonical or `json.dumps`) shows no control or non-ASCII character
    in any string: JCS and the stdlib escape every control character (\\uXXXX, \\b, \\f, \\n,
    \\r, \\t) and leave other characters raw, so printable-ASCII strings (with tab, newline and
    CR-LF, which no hidden-Unicode rule reports) are exactly those that pass. A literal
    backslash-u in a string is a false alarm, never a miss."""
    if not data.isascii() or b"\\u" in data or b"\\b" in data or b"\\f" in data:
        return False
    return b"\x7f" not in data and data.count(b"\\r") == data.count(b"\\r\\n")


def tool_digest(tool: Tool) -> ToolDigest:
    encoded = {name: _field_bytes(value) for name, value in tool_field_values(tool).items()}
    fields = {
        name: _NULL_DIGEST if data is _NULL_BYTES else "sha256:" + sha.sha256(data).hexdigest()
        for name, data in encoded.items()
    }
    # Keys and values here are our own ASCII strings with nothing to escape: compact JSON with
    # the keys in sorted order is already JCS (what json.dumps(sort_keys=True) would give).
    canonical = "{" + ",".join(f'"{k}":"{fields[k]}"' for k in _SORTED_FIELDS) + "}"
    # Joined with spaces: no field's JSON ends in a backslash, so no escape spans two fields.
    plain = plain_json(b" ".join(encoded.values()))
    return ToolDigest(
        name=tool.name,
        digest="sha256:" + sha.sha256(canonical.encode("ascii")).hexdigest(),
        fields=fields,
        plain=plain,
    )


def surface_digest(tool_digests: list[ToolDigest]) -> str:
    pairs = sorted([t.name, t.digest] for t in tool_digests)
    # Lists of strings hold no numbers and no object keys, so the only JCS rule that applies is
    # string escaping, which the compact encoder shares (see `canonical_bytes`).
    return "sha256:" + sha.sha256(_ENCODER.encode(pairs).encode("utf-8")).hexdigest()


@plainclass(frozen=True)
class SurfaceDigests:
    surface: str
    tools: tuple[ToolDigest, ...]

    def of(self, name: str) -> ToolDigest | None:
        for t in self.tools:
            if t.name == name:
                return t
        return None


def _digest_surface(surface: ServerSurface) -> SurfaceDigests:
    tools = tuple(tool_digest(t) for t in surface.tools)
    return SurfaceDigests(surface=surface_digest(list(tools)), tools=tools)


# Digests of a surface. A scan asks for them more than once (the hidden-Unicode check, the result
# rows, the lock), so recent answers are kept by identity, the frozen surface held.
digest_surface: IdentityMemo[ServerSurface, SurfaceDigests] = IdentityMemo(_digest_surface)

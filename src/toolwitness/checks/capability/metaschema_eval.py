"""A small evaluator for the keyword schemas of the official metaschemas, so that a valid tool
schema is known valid without importing `jsonschema` (~0.14 s of a one-tool scan's start).

The keyword schemas (`metaschema.py`) use a handful of JSON Schema keywords: type, enum, minimum,
exclusiveMinimum, items, uniqueItems, minItems, anyOf, allOf, additionalProperties, propertyNames,
pattern, format, and draft 4's root `dependencies`. `metaschema_table.py` compiles each keyword
schema, at build time, into the form read here: only the keywords the dialect's `jsonschema`
validator class acts on are kept, and each must be one modelled below with the implementation
`jsonschema` uses for it (checked by name there); a keyword schema that needs anything else has no
compiled form and is always handed to `jsonschema`.

`decide` answers True (valid), False (invalid) or None (not decided here). It decides only what
it can evaluate wholly as `jsonschema` would: every keyword of a schema is evaluated (no early
stop), `anyOf` branches in order up to the first valid one, and anything not modelled exactly (a
value of a non-JSON Python type, `uniqueItems` over values other than strings or integers, a
`format` other than `regex` whose checker may or may not be installed, a regex `re` raises other
than `re.error` for, such as a warning turned into an error) is None. The scan trusts only True:
any other answer goes to `jsonschema`, which writes the finding's message as before. Tests hold
every decided answer equal to `jsonschema`'s on generated values and on every schema of the corpus.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

TYPE_NAMES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})
# The keywords modelled here; a keyword schema using any other keyword `jsonschema` acts on is not
# compiled. Each maps to the `jsonschema` implementations (function names) modelled for it.
MODELLED: dict[str, frozenset[str]] = {
    "type": frozenset({"type"}),
    "enum": frozenset({"enum"}),
    "minimum": frozenset({"minimum", "minimum_draft3_draft4"}),
    "exclusiveMinimum": frozenset({"exclusiveMinimum"}),
    "items": frozenset({"items", "items_draft6_draft7_draft201909", "items_draft3_draft4"}),
    "uniqueItems": frozenset({"uniqueItems"}),
    "minItems": frozenset({"minItems"}),
    "anyOf": frozenset({"anyOf"}),
    "allOf": frozenset({"allOf"}),
    "additionalProperties": frozenset({"additionalProperties"}),
    "propertyNames": frozenset({"propertyNames"}),
    "pattern": frozenset({"pattern"}),
    "format": frozenset({"format"}),
    "dependencies": frozenset({"dependencies_draft4_draft6_draft7"}),
}
# Draft 4's `minimum` reads a boolean `exclusiveMinimum` beside it (no keyword of its own there).
LEGACY_MODIFIERS = frozenset({"exclusiveMinimum"})
_JSON_CLASSES = frozenset({dict, list, str, int, float, bool, type(None)})

# `format` "uri" / "uri-reference" are checked only when an optional package (rfc3987,
# rfc3986-validator) is installed, so the answer may differ between installs. These strings are
# valid under RFC 3986 (and so 3987) whichever checker runs: an http(s) URI with a plain host and
# path; a reference made of a plain relative path and/or a fragment. Any other string is not
# decided here.
_PCHAR = r"[A-Za-z0-9._~!$&'()*+,;=:@-]"
_FRAGMENT = rf"(?:#(?:{_PCHAR}|[/?])*)?"
_HTTP_URI = rf"https?://[A-Za-z0-9._~-]+(?:/{_PCHAR}*)*{_FRAGMENT}"
# a relative path: no colon (the first segment of a scheme-less reference may hold none), not
# starting with "//" (an authority)
_SAFE = {"uri": _HTTP_URI, "uri-reference": rf"(?:{_HTTP_URI}|(?!//)[A-Za-z0-9._~/-]*{_FRAGMENT})"}


@cache
def safe_uri(name: str) -> re.Pattern[str]:
    """The strings of format `name` ("uri", "uri-reference") decided valid here."""
    return re.compile(_SAFE[name])


class Undecided(Exception):
    """The value or the schema needs something not modelled here."""


class Semantics:
    """What differs between the drafts for the keywords modelled here. (A plain class: a
    dataclass costs start-up ~0.5 ms to build.)"""

    __slots__ = ("float_integers", "legacy", "regex_format")

    def __init__(self, *, float_integers: bool, legacy: bool, regex_format: bool) -> None:
        self.float_integers = float_integers  # 1.0 is an "integer" (draft 6 on)
        # draft 4's implementations: `minimum` reads a boolean `exclusiveMinimum` beside it (no
        # keyword of its own), `items` takes an object only (no boolean schemas)
        self.legacy = legacy
        self.regex_format = regex_format  # `format: regex` is asserted by the format checker

    def decide(self, schema: Any, value: Any) -> bool | None:
        try:
            return self.valid(schema, value)
        except Undecided:
            return None

    def passes(self, schema: Any, value: Any) -> bool:
        """Known valid (False: invalid or not decided here)."""
        try:
            return self.valid(schema, value)
        except Undecided:
            return False

    def valid(self, schema: Any, value: Any) -> bool:
        if schema is True:
            return True
        if schema is False:
            return False
        if schema.__class__ is not dict:
            raise Undecided
        ok = True
        for key, arg in schema.items():  # every keyword, as jsonschema evaluates every one
            if not self._keyword(key, arg, value, schema):
                ok = False
        return ok

    def _keyword(self, key: str, arg: Any, value: Any, schema: dict[str, Any]) -> bool:
        kind = _kind(value)
        if key == "type":
            names = [arg] if isinstance(arg, str) else arg
            if names.__class__ is not list or not all(n in TYPE_NAMES for n in names):
                raise Undecided
            return any(self.is_type(value, n) for n in names)
        if key == "enum":
            if arg.__class__ is not list or not all(e.__class__ is str for e in arg):
                raise Undecided
            return kind is str and value in arg
        if key == "minimum":
            _number_arg(arg)
            if kind not in (int, float):
                return True
            if self.legacy:
                exclusive = schema.get("exclusiveMinimum", False)
                if exclusive.__class__ is not bool:
                    raise Undecided
                return not (value <= arg if exclusive else value < arg)
            return not value < arg
        if key == "exclusiveMinimum":
            if self.legacy:
                return True  # read by `minimum`
            _number_arg(arg)
            return kind not in (int, float) or not value <= arg
        if key == "items":
            if not (arg.__class__ is dict or (arg.__class__ is bool and not self.legacy)):
                raise Undecided  # positional items; draft 4 has no boolean schemas
            if "prefixItems" in schema:
                raise Undecided
            return kind is not list or self._all(arg, value)
        if key == "uniqueItems":
            if arg.__class__ is not bool:
                raise Undecided
            return not arg or kind is not list or _unique(value)
        if key == "minItems":
            if arg.__class__ is not int:
                raise Undecided
            return kind is not list or len(value) >= arg
        if key == "anyOf":
            if arg.__class__ is not list:
                raise Undecided
            # in order, up to the first valid branch, as jsonschema does
            return any(self.valid(branch, value) for branch in arg)
        if key == "allOf":
            if arg.__class__ is not list:
                raise Undecided
            return self._all_branches(arg, value)
        if key == "additionalProperties":
            if "properties" in schema or "patternProperties" in schema:
                raise Undecided
            return kind is not dict or self._all(arg, list(value.values()))
        if key == "propertyNames":
            return kind is not dict or self._all(arg, list(value))
        if key == "pattern":
            if arg.__class__ is not str:
                raise Undecided
            return kind is not str or re.search(arg, value) is not None
        if key == "format":
            return self._format(arg, kind, value)
        if key == "dependencies":
            if arg.__class__ is not dict:
                raise Undecided
            if kind is not dict:
                return True
            ok = True
            for name, needed in arg.items():
                if needed.__class__ is not list:
                    raise Undecided  # a schema dependency
                if name in value and not all(each in value for each in needed):
                    ok = False
            return ok
        raise Undecided

    def _all(self, schema: Any, values: list[Any]) -> bool:
        ok = True
        for each in values:
            if not self.valid(schema, each):
                ok = False
        return ok

    def _all_branches(self, schemas: list[Any], value: Any) -> bool:
        ok = True
        for branch in schemas:
            if not self.valid(branch, value):
                ok = False
        return ok

    def is_type(self, value: Any, name: str) -> bool:
        """jsonschema's type check, for values of the JSON classes."""
        kind = _kind(value)
        if name == "object":
            return kind is dict
        if name == "array":
            return kind is list
        if name == "string":
            return kind is str
        if name == "number":
            return kind is int or kind is float
        if name == "integer":
            return kind is int or (self.float_integers and kind is float and value.is_integer())
        if name == "boolean":
            return kind is bool
        return value is None  # "null"

    def _format(self, name: Any, kind: type, value: Any) -> bool:
        if name == "regex":
            if not self.regex_format or kind is not str:
                return True
            try:
                re.compile(value)
            except re.error:
                return False
            except Exception as exc:  # a warning raised as an error, a recursion limit…
                raise Undecided from exc
            return True
        if name in ("uri", "uri-reference"):
            if kind is not str:
                return True  # every checker passes a non-string
            if value and safe_uri(name).fullmatch(value):
                return True
        raise Undecided


def _kind(value: Any) -> type:
    kind = value.__class__
    if kind not in _JSON_CLASSES:
        raise Undecided
    return kind  # type: ignore[no-any-return]


def _number_arg(arg: Any) -> None:
    if arg.__class__ not in (int, float):
        raise Undecided


def _unique(values: list[Any]) -> bool:
    """jsonschema's `uniq` where it is plain: all strings, or all integers (not booleans)."""
    if len(values) < 2:
        return True
    first = values[0].__class__
    if first not in (str, int) or not all(v.__class__ is first for v in values):
        raise Undecided
    return len(set(values)) == len(values)

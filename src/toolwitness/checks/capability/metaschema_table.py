"""Build time: take the official metaschemas (from `jsonschema`) apart, per dialect, into the table
a scan reads (`data/metaschema-rules.json`, see `metaschema.py`):

    .venv/bin/python -m toolwitness.checks.capability.metaschema_table

(`tests/test_metaschema_fast.py` fails while the shipped table differs from what this builds).

Each metaschema is split, mechanically, into its root constraints and, per keyword, the schema
that keyword's value must satisfy, where every reference back to the metaschema itself is replaced
by the root's type constraint and its place recorded ("self": the value is a schema; "each": every
member or element is). Nothing is typed by hand; a metaschema shape this does not understand is an
`InternalError`. Each keyword schema is also compiled for `metaschema_eval` when every keyword of
it that the dialect's `jsonschema` class acts on is one the evaluator models, with the
implementation it models (checked by function name), and the class's type checker agrees with the
evaluator's on probe values; otherwise it has no compiled form and is always left to `jsonschema`.

The table records the SHA-256 of the metaschema files it was built from
(`metaschema.source_digest`); a scan finding other files installed builds the table in memory
with this module instead.
"""

from __future__ import annotations

import json
from typing import Any

from jsonschema import (
    Draft4Validator,
    Draft6Validator,
    Draft7Validator,
    Draft201909Validator,
    Draft202012Validator,
)
from jsonschema.protocols import Validator
from jsonschema_specifications import REGISTRY  # type: ignore[import-untyped]

from toolwitness.checks.capability.metaschema_eval import (
    LEGACY_MODIFIERS,
    MODELLED,
    TYPE_NAMES,
    Semantics,
)
from toolwitness.errors import InternalError

CLASSES: tuple[type[Validator], ...] = (
    Draft202012Validator,
    Draft201909Validator,
    Draft7Validator,
    Draft6Validator,
    Draft4Validator,
)
_SELF = "\x00self"  # marks a reference back to the metaschema root while it is taken apart
# Keywords of a metaschema root that say nothing about the schema being checked.
_ROOT_SKIP = frozenset(
    {"properties", "definitions", "$defs", "$id", "id", "$schema", "allOf", "$vocabulary",
     "$dynamicAnchor", "$recursiveAnchor", "title", "description", "$comment", "default"}
)  # fmt: skip
# Keywords of a keyword schema under which a value's validity does not depend on its content.
_TYPE_ONLY = frozenset({"type", "title", "description", "$comment", "default", "deprecated"})
# Values the type checkers are probed with: the evaluator's type check must agree on each.
_PROBES: tuple[Any, ...] = (
    None, True, False, 0, 1, -3, 2**70, 0.0, 1.0, -2.0, 1.5, float("inf"), float("nan"), "", "a",
    [], [1], {}, {"a": 1},
)  # fmt: skip


def _is_self(node: Any) -> bool:
    return isinstance(node, dict) and (
        node.get("$ref") == "#"
        or node.get("$dynamicRef") == "#meta"
        or node.get("$recursiveRef") == "#"
    )


def _flatten(meta: dict[str, Any]) -> dict[str, Any]:
    """One document: a vocabulary metaschema (`allOf` of `meta/...` references) merged into
    its root, so references resolve in one place."""
    out = {k: v for k, v in meta.items() if k != "allOf"}
    props = dict(out.get("properties", {}))
    defs = dict(out.get("$defs", {}))
    base = meta["$id"].rsplit("/", 1)[0] + "/"
    for part in meta.get("allOf", ()):
        ref = part.get("$ref") if isinstance(part, dict) else None
        if not isinstance(ref, str):
            raise InternalError(f"metaschema {meta['$id']}: allOf member {part!r}")
        vocab = REGISTRY.contents(base + ref)
        props.update(vocab.get("properties", {}))
        defs.update(vocab.get("$defs", {}))
    out["properties"], out["$defs"] = props, defs
    return out


def _resolve(node: Any, doc: dict[str, Any], depth: int = 0) -> Any:
    """`node` with references inlined; a reference to the root becomes `_SELF`."""
    if depth > 32:
        raise InternalError("metaschema references nest too deep")
    if _is_self(node):
        return _SELF
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            target: Any = doc
            for part in ref.split("#", 1)[1].strip("/").split("/"):
                target = target[part]
            rest = {k: v for k, v in node.items() if k != "$ref"}
            resolved = _resolve(target, doc, depth + 1)
            if not rest:
                return resolved
            return {"allOf": [resolved, _resolve(rest, doc, depth + 1)]}
        return {k: _resolve(v, doc, depth + 1) for k, v in node.items()}
    if isinstance(node, list):
        return [_resolve(v, doc, depth + 1) for v in node]
    return node


def _holds_self(node: Any) -> bool:
    if node == _SELF:
        return True
    if isinstance(node, dict):
        return any(_holds_self(v) for v in node.values())
    return isinstance(node, list) and any(_holds_self(v) for v in node)


def _places(node: Any, at: str = "self") -> set[str]:
    """Where `_SELF` sits in a resolved keyword schema: the value itself, or each member."""
    if node == _SELF:
        return {at}
    if not isinstance(node, dict):
        return set()
    out: set[str] = set()
    for key, value in node.items():
        if key in ("anyOf", "allOf", "oneOf"):
            for branch in value:
                out |= _places(branch, at)
        elif key in ("items", "additionalProperties") and at == "self":
            if isinstance(value, list):
                raise InternalError("metaschema: positional items hold a schema")
            out |= _places(value, "each")
        elif _holds_self(value):
            raise InternalError(f"metaschema: a self-reference under {key!r} is not understood")
    return out


def _reduced(node: Any, root_type: Any) -> Any:
    if node == _SELF:
        return {"type": root_type}
    if isinstance(node, dict):
        return {k: _reduced(v, root_type) for k, v in node.items()}
    if isinstance(node, list):
        return [_reduced(v, root_type) for v in node]
    return node


def _type_only(node: Any) -> bool:
    return isinstance(node, dict) and set(node) <= _TYPE_ONLY


_COUNTS = ("minItems", "minProperties")
_MEMBER_KEYS = _TYPE_ONLY | {"items", "additionalProperties", *_COUNTS}


def _member_cap(node: Any) -> int | None:
    """The length cap of a keyword schema that reads only a container's type, its members'
    types and whether its length reaches a minimum; None for any other schema."""
    if not isinstance(node, dict) or not set(node) <= _MEMBER_KEYS:
        return None
    for key in ("items", "additionalProperties"):
        if key in node and node[key] is not True and not _type_only(node[key]):
            return None
    counts = [node.get(key, 0) for key in _COUNTS]
    if not all(isinstance(c, int) for c in counts):
        return None
    return int(max(counts)) + 1


# --- the compiled form metaschema_eval reads ----------------------------------------------------


class _NotModelled(Exception):
    pass


def semantics(cls: type[Validator]) -> Semantics | None:
    """The evaluator's settings for this class, or None when its type checker or keyword
    implementations are not the ones the evaluator models."""
    minimum = cls.VALIDATORS.get("minimum")
    items = cls.VALIDATORS.get("items")
    if minimum is None or items is None:
        return None
    legacy = minimum.__name__ == "minimum_draft3_draft4"
    if legacy != (items.__name__ == "items_draft3_draft4"):
        return None
    found = Semantics(
        float_integers=bool(cls.TYPE_CHECKER.is_type(1.0, "integer")),
        legacy=legacy,
        regex_format="regex" in cls.FORMAT_CHECKER.checkers,
    )
    for value in _PROBES:
        for name in sorted(TYPE_NAMES):
            if bool(cls.TYPE_CHECKER.is_type(value, name)) != found.is_type(value, name):
                return None
    return found


def _compiled(node: Any, cls: type[Validator], legacy: bool) -> Any:
    """`node` with only the keywords `cls` acts on (and draft 4's `exclusiveMinimum`, which its
    `minimum` reads); `_NotModelled` when one of them is not modelled by the evaluator."""
    if isinstance(node, bool):
        return node
    if not isinstance(node, dict):
        raise _NotModelled
    out: dict[str, Any] = {}
    for key, arg in node.items():
        implementation = cls.VALIDATORS.get(key)
        if implementation is None:
            if legacy and key in LEGACY_MODIFIERS:
                out[key] = arg
            continue  # not a keyword of this draft: jsonschema ignores it
        if implementation.__name__ not in MODELLED.get(key, ()):
            raise _NotModelled
        if key in ("items", "additionalProperties", "propertyNames"):
            out[key] = _compiled(arg, cls, legacy)
        elif key in ("anyOf", "allOf"):
            if not isinstance(arg, list):
                raise _NotModelled
            out[key] = [_compiled(branch, cls, legacy) for branch in arg]
        else:
            out[key] = arg
    return out


def _fast(node: Any, cls: type[Validator], found: Semantics | None) -> Any:
    if found is None:
        return None
    try:
        return _compiled(node, cls, found.legacy)
    except _NotModelled:
        return None


def _dialect(cls: type[Validator]) -> dict[str, Any]:
    meta: dict[str, Any] = dict(cls.META_SCHEMA)
    uri = str(meta.get("$schema") or meta.get("id"))
    doc = _flatten(meta) if "allOf" in meta else meta
    root_type = doc.get("type")
    if root_type is None:
        raise InternalError(f"metaschema {uri}: no root type")
    found = semantics(cls)
    keywords: dict[str, Any] = {}
    for key, raw in doc.get("properties", {}).items():
        resolved = _resolve(raw, doc)
        reduced = _reduced(resolved, root_type)
        keywords[key] = {
            "schema": reduced,
            "fast": _fast(reduced, cls, found),
            "places": sorted(_places(resolved)),
            "type_only": _type_only(reduced),
            "member_cap": _member_cap(reduced),
        }
    root = {k: _resolve(v, doc) for k, v in doc.items() if k not in _ROOT_SKIP}
    if _holds_self(root):
        raise InternalError(f"metaschema {uri}: a root constraint refers to the root")
    booleans = "boolean" in (root_type if isinstance(root_type, list) else [root_type])
    return {
        "uri": uri,
        "validator": cls.__name__,
        "semantics": None if found is None else {
            "float_integers": found.float_integers,
            "legacy": found.legacy,
            "regex_format": found.regex_format,
        },
        "booleans": booleans,
        "root": root,
        "root_fast": _fast(root, cls, found),
        "root_trivial": set(root) <= {"type"},
        "keywords": keywords,
    }  # fmt: skip


def build_table() -> dict[str, Any]:
    from toolwitness.checks.capability.metaschema import source_digest

    return {"source": source_digest(), "dialects": [_dialect(cls) for cls in CLASSES]}


def table_text() -> str:
    return json.dumps(build_table(), ensure_ascii=False, indent=1) + "\n"


def main() -> None:
    from toolwitness.checks.capability.metaschema import TABLE

    TABLE.write_text(table_text(), "utf-8")


if __name__ == "__main__":
    main()

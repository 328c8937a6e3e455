"""The official JSON Schema metaschemas (from `jsonschema`), taken apart once per dialect.

`check_schema` on one draft 2020-12 schema costs ~3 ms (its metaschema is seven vocabularies
joined by `$dynamicRef`): 15 s for a 5,000-tool catalog. So each metaschema is split, mechanically,
into its root constraints and, per keyword, the schema that keyword's value must satisfy, where
every reference back to the metaschema itself is replaced by the root's type constraint and its
place recorded ("self": the value is a schema; "each": every member or element is). A schema is
valid when every node passes the root constraints and the keyword schemas, nodes being found at
those places (`checks/capability/schema_validity.py`). Nothing is typed by hand; a metaschema
shape this does not understand is an `InternalError`, and a test holds the result equal to
`check_schema` on generated schemas for every draft.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
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

from toolwitness.errors import InternalError

DEFAULT_DIALECT = "https://json-schema.org/draft/2020-12/schema"
_CLASSES: tuple[type[Validator], ...] = (
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


@dataclass(frozen=True)
class KeywordRule:
    validator: Validator  # the keyword's schema, self-references reduced to the root's type
    places: tuple[str, ...]  # "self" and/or "each": where subschemas sit in the value
    type_only: bool  # validity depends on the value's JSON type alone
    # not None: validity depends only on the value's type, its members' types and its length
    # up to this cap ("properties": an object of schemas; "allOf": a non-empty array of them)
    member_cap: int | None = None


@dataclass(frozen=True)
class Dialect:
    uri: str
    name: str
    root: Validator  # the root constraints (type, draft-04 dependencies)
    root_trivial: bool  # the root constrains only the type, which every object node passes
    keywords: dict[str, KeywordRule]
    booleans: bool  # true and false are schemas (draft 6 on)


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


def _dialect(cls: type[Validator]) -> Dialect:
    meta: dict[str, Any] = dict(cls.META_SCHEMA)
    uri = str(meta.get("$schema") or meta.get("id"))
    doc = _flatten(meta) if "allOf" in meta else meta
    root_type = doc.get("type")
    if root_type is None:
        raise InternalError(f"metaschema {uri}: no root type")
    keywords: dict[str, KeywordRule] = {}
    for key, raw in doc.get("properties", {}).items():
        resolved = _resolve(raw, doc)
        reduced = _reduced(resolved, root_type)
        keywords[key] = KeywordRule(
            validator=cls(reduced, format_checker=cls.FORMAT_CHECKER),
            places=tuple(sorted(_places(resolved))),
            type_only=_type_only(reduced),
            member_cap=_member_cap(reduced),
        )
    root = {k: _resolve(v, doc) for k, v in doc.items() if k not in _ROOT_SKIP}
    if _holds_self(root):
        raise InternalError(f"metaschema {uri}: a root constraint refers to the root")
    booleans = "boolean" in (root_type if isinstance(root_type, list) else [root_type])
    return Dialect(
        uri=uri,
        name=_short_name(uri),
        root=cls(root, format_checker=cls.FORMAT_CHECKER),
        root_trivial=set(root) <= {"type"},
        keywords=keywords,
        booleans=booleans,
    )


def _short_name(uri: str) -> str:
    """'2020-12', 'draft-07': the part of the metaschema URI that names the draft."""
    parts = uri.rstrip("#").split("/")
    return parts[-2] if len(parts) >= 2 else uri


def _normal(uri: str) -> str:
    """`$schema` as compared: no fragment marker, http or https alike."""
    return uri.strip().rstrip("#").replace("https://", "http://", 1)


@lru_cache(maxsize=1)
def dialects() -> dict[str, Dialect]:
    """Normalised `$schema` URI -> its dialect, for every draft `jsonschema` ships from 4 on."""
    out: dict[str, Dialect] = {}
    for cls in _CLASSES:
        dialect = _dialect(cls)
        out[_normal(dialect.uri)] = dialect
    return out


def official_validator(uri: str) -> Validator | None:
    """The whole-metaschema validator `check_schema` uses (for tests and error messages)."""
    for cls in _CLASSES:
        meta = cls.META_SCHEMA
        if _normal(str(meta.get("$schema") or meta.get("id"))) == _normal(uri):
            return cls(meta, format_checker=cls.FORMAT_CHECKER)
    return None


def dialect_for(schema: Any) -> Dialect | None:
    """The dialect a schema declares by `$schema` (2020-12 without one, as MCP says), or None
    for a dialect not known here."""
    declared = schema.get("$schema") if isinstance(schema, dict) else None
    uri = declared if isinstance(declared, str) else DEFAULT_DIALECT
    return dialects().get(_normal(uri))

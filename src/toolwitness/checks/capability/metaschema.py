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

The taking apart is done at build time (`metaschema_table.py`) into `data/metaschema-rules.json`,
with each keyword schema also compiled for a small evaluator (`metaschema_eval.py`): a scan whose
schemas that evaluator finds valid never imports `jsonschema` (~0.14 s of a one-tool scan). A
keyword value it does not find valid is checked by a `jsonschema` validator of the keyword's
schema, built on first use, which also writes the finding's message. The table names the SHA-256
of the metaschema files it was built from; when the installed `jsonschema_specifications` holds
other files (or the table is missing), the table is built in memory from them instead.
"""

from __future__ import annotations

import importlib.util
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from toolwitness import sha
from toolwitness.checks.capability.metaschema_eval import Semantics

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

DEFAULT_DIALECT = "https://json-schema.org/draft/2020-12/schema"
TABLE = Path(__file__).resolve().parents[2] / "data" / "metaschema-rules.json"


def _validator(class_name: str, schema: Any) -> Validator:
    import jsonschema

    cls: type[Validator] = getattr(jsonschema, class_name)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


class KeywordRule:
    """One keyword's rule. (Plain classes here: a dataclass costs start-up ~0.5 ms to build.)"""

    __slots__ = (
        "_validator", "fast", "member_cap", "places", "schema", "semantics", "type_only",
        "validator_class",
    )  # fmt: skip

    def __init__(
        self,
        schema: Any,
        places: tuple[str, ...],
        type_only: bool,
        member_cap: int | None,
        fast: Any,
        semantics: Semantics | None,
        validator_class: str,
    ) -> None:
        self.schema = schema  # the keyword's schema, self-references reduced to the root's type
        self.places = places  # "self" and/or "each": where subschemas sit in the value
        self.type_only = type_only  # validity depends on the value's JSON type alone
        # not None: validity depends only on the value's type, its members' types and its
        # length up to this cap ("properties": an object of schemas; "allOf": a non-empty array)
        self.member_cap = member_cap
        self.fast = fast  # the schema compiled for `semantics` (None: always jsonschema)
        self.semantics = semantics
        self.validator_class = validator_class  # the jsonschema class of the dialect
        self._validator: Validator | None = None

    def passes(self, value: Any) -> bool:
        """Known valid without jsonschema (False: invalid, or not decided without it)."""
        found = self.semantics
        return found is not None and self.fast is not None and found.passes(self.fast, value)

    @property
    def validator(self) -> Validator:
        """A jsonschema validator of the keyword's schema, built (and jsonschema imported) on
        first use."""
        if self._validator is None:
            self._validator = _validator(self.validator_class, self.schema)
        return self._validator


class Dialect:
    __slots__ = ("booleans", "keywords", "name", "root_rule", "root_trivial", "uri")

    def __init__(
        self,
        uri: str,
        name: str,
        root_rule: KeywordRule,
        root_trivial: bool,
        keywords: dict[str, KeywordRule],
        booleans: bool,
    ) -> None:
        self.uri = uri
        self.name = name
        self.root_rule = root_rule  # the root constraints (type, draft-04 dependencies)
        self.root_trivial = root_trivial  # only the type, which every object node passes
        self.keywords = keywords
        self.booleans = booleans  # true and false are schemas (draft 6 on)


def _short_name(uri: str) -> str:
    """'2020-12', 'draft-07': the part of the metaschema URI that names the draft."""
    parts = uri.rstrip("#").split("/")
    return parts[-2] if len(parts) >= 2 else uri


def _normal(uri: str) -> str:
    """`$schema` as compared: no fragment marker, http or https alike."""
    return uri.strip().rstrip("#").replace("https://", "http://", 1)


def source_digest() -> str | None:
    """SHA-256 of the metaschema files `jsonschema` reads (`jsonschema_specifications`'s
    `schemas` folder: each file's path and bytes), found without importing either; None when
    they cannot be read. (os.scandir: a third of pathlib's rglob cost.)"""
    try:
        spec = importlib.util.find_spec("jsonschema_specifications")
    except (ImportError, ValueError):
        return None
    folders = spec.submodule_search_locations if spec is not None else None
    if not folders:
        return None
    found: list[tuple[str, str]] = []

    def walk(folder: str, prefix: str) -> None:
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.name.startswith("."):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    walk(entry.path, f"{prefix}{entry.name}/")
                elif entry.is_file():
                    found.append((prefix + entry.name, entry.path))

    parts: list[bytes] = []
    try:
        walk(os.path.join(next(iter(folders)), "schemas"), "")
        for name, path in sorted(found):
            with open(path, "rb") as file:
                data = file.read()
            encoded = name.encode("utf-8", "surrogateescape")
            parts += (b"%d:%s%d:" % (len(encoded), encoded, len(data)), data)
    except OSError:
        return None
    return sha.sha256(b"".join(parts)).hexdigest() if found else None


def _shipped_table() -> dict[str, Any] | None:
    try:
        table = json.loads(TABLE.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(table, dict):
        return None
    source = table.get("source")
    return table if source is not None and source == source_digest() else None


def _rule(entry: dict[str, Any], fast: Any, found: Semantics | None, cls: str) -> KeywordRule:
    return KeywordRule(
        schema=entry["schema"],
        places=tuple(entry.get("places", ())),
        type_only=bool(entry.get("type_only", False)),
        member_cap=entry.get("member_cap"),
        fast=fast,
        semantics=found,
        validator_class=cls,
    )


def _dialect(entry: dict[str, Any]) -> Dialect:
    cls = entry["validator"]
    setting = entry.get("semantics")
    found = Semantics(**setting) if setting is not None else None
    keywords = {
        key: _rule(rule, rule["fast"], found, cls) for key, rule in entry["keywords"].items()
    }
    uri = entry["uri"]
    return Dialect(
        uri=uri,
        name=_short_name(uri),
        root_rule=_rule({"schema": entry["root"]}, entry["root_fast"], found, cls),
        root_trivial=entry["root_trivial"],
        keywords=keywords,
        booleans=entry["booleans"],
    )


@lru_cache(maxsize=1)
def dialects() -> dict[str, Dialect]:
    """Normalised `$schema` URI -> its dialect, for every draft `jsonschema` ships from 4 on."""
    table = _shipped_table()
    if table is None:  # other metaschemas installed, or no table: take them apart now
        from toolwitness.checks.capability.metaschema_table import build_table

        table = build_table()
    out: dict[str, Dialect] = {}
    for entry in table["dialects"]:
        dialect = _dialect(entry)
        out[_normal(dialect.uri)] = dialect
    return out


def official_validator(uri: str) -> Validator | None:
    """The whole-metaschema validator `check_schema` uses (for tests and error messages)."""
    from toolwitness.checks.capability.metaschema_table import CLASSES

    for cls in CLASSES:
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

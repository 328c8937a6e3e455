"""The compiled metaschema table and its evaluator (issue 17: a scan whose schemas are valid does
not import jsonschema). The table is current; every answer the evaluator decides equals
jsonschema's for the same keyword schema, on every keyword value of the corpus and the fixtures
and on generated values; `validate_schema` gives the same report with the evaluator as with
jsonschema alone on every schema of corpus/, tests/ and examples/ and on thousands of generated
and mutated schemas, in every draft; and the URI strings decided without a URI checker are valid
RFC 3986 whichever checker an install has."""

from __future__ import annotations

import json
import random
import re
import sys
import warnings
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolwitness.checks.capability import (
    metaschema,
    metaschema_eval,
    metaschema_table,
    schema_validity,
)
from toolwitness.checks.capability.metaschema import Dialect, KeywordRule, dialects
from toolwitness.checks.capability.schema_validity import SchemaReport, validate_schema
from toolwitness.yamlload import parse_yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from catalogs import catalog  # noqa: E402

from json_strings import WITHHELD  # noqa: E402

_DIALECTS = sorted(dialects())
_SCHEMA_KEYS = ("inputSchema", "outputSchema")


# --- the table ----------------------------------------------------------------------------------


def test_table_is_current() -> None:
    assert metaschema.TABLE.read_text("utf-8") == metaschema_table.table_text(), (
        "stale: run .venv/bin/python -m toolwitness.checks.capability.metaschema_table"
    )


def test_the_shipped_table_matches_the_installed_metaschemas() -> None:
    table = metaschema._shipped_table()
    assert table is not None, "the metaschema files differ from the table's: rebuild it"
    assert table["source"] == metaschema.source_digest()


def test_every_keyword_schema_is_compiled_in_every_dialect() -> None:
    """Else a valid value of that keyword would need jsonschema on every scan."""
    for uri, dialect in dialects().items():
        rules = {"": dialect.root_rule, **dialect.keywords}
        missing = [k for k, r in rules.items() if r.semantics is None or r.fast is None]
        assert missing == [], (uri, missing)


def test_a_changed_metaschema_builds_the_table_in_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(metaschema, "source_digest", lambda: "0" * 64)
    assert metaschema._shipped_table() is None
    metaschema.dialects.cache_clear()
    try:
        rebuilt = metaschema.dialects()
        assert sorted(rebuilt) == _DIALECTS
        report = validate_schema({"type": "object", "maxProperties": -1}, "s")
        assert [p.location for p in report.problems] == ["s.maxProperties"]
    finally:
        metaschema.dialects.cache_clear()
        _clear()


# --- values and schemas: the corpus, the fixtures, generated and mutated ------------------------


def _documents() -> Iterator[Any]:
    for folder in ("corpus", "tests", "examples"):
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in (".json", ".yaml", ".yml") or not path.is_file():
                continue
            if not WITHHELD.isdisjoint(path.parts):
                continue  # the unscored blind sets stay unread
            try:
                text = path.read_text("utf-8")
                yield json.loads(text) if path.suffix == ".json" else parse_yaml(text)
            except Exception:  # a deliberately broken fixture
                continue
    for kind in ("benign", "poisoned"):
        yield catalog(300, kind)


def _tool_schemas(value: Any) -> Iterator[dict[str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key in _SCHEMA_KEYS and isinstance(item, dict):
                yield item
            yield from _tool_schemas(item)
    elif isinstance(value, list):
        for item in value:
            yield from _tool_schemas(item)


@lru_cache(maxsize=1)
def _corpus_schemas() -> tuple[dict[str, Any], ...]:
    seen: dict[str, dict[str, Any]] = {}
    for document in _documents():
        for schema in _tool_schemas(document):
            seen.setdefault(repr(schema), schema)
    return tuple(seen.values())


def _nodes(value: Any) -> Iterator[dict[str, Any]]:
    """Every object inside a schema (subschemas and plain values alike)."""
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from _nodes(item)
    elif isinstance(value, list):
        for item in value:
            yield from _nodes(item)


@lru_cache(maxsize=1)
def _corpus_keyword_values() -> tuple[tuple[str, Any], ...]:
    seen: dict[tuple[str, str], Any] = {}
    for schema in _corpus_schemas():
        for node in _nodes(schema):
            for key, value in node.items():
                seen.setdefault((key, repr(value)), value)
    return tuple((key, value) for (key, _), value in seen.items())


def test_the_corpus_is_large() -> None:
    assert len(_corpus_schemas()) > 500
    assert len(_corpus_keyword_values()) > 2000


# --- the evaluator against jsonschema, keyword by keyword ---------------------------------------


def _rules(dialect: Dialect) -> Iterator[tuple[str, KeywordRule]]:
    yield "", dialect.root_rule
    yield from dialect.keywords.items()


def _compare(rule: KeywordRule, value: Any) -> bool | None:
    """The evaluator's answer, asserted equal to jsonschema's when it decides one."""
    assert rule.semantics is not None
    decided = rule.semantics.decide(rule.fast, value)
    if decided is not None:
        expected = rule.validator.is_valid(value)
        assert decided == expected, (rule.schema, value)
        assert rule.passes(value) is expected
    else:
        assert rule.passes(value) is False
    return decided


def test_every_keyword_value_of_the_corpus_decides_as_jsonschema() -> None:
    values = _corpus_keyword_values()
    undecided = 0
    for uri in _DIALECTS:
        dialect = dialects()[uri]
        for key, value in values:
            rule = dialect.keywords.get(key)
            if rule is not None and _compare(rule, value) is None:
                undecided += 1
        for schema in _corpus_schemas():
            for node in _nodes(schema):
                _compare(dialect.root_rule, node)
    assert undecided < len(values) // 50  # nearly all decided without jsonschema


def test_every_valid_corpus_schema_is_decided_without_jsonschema(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The corpus's valid schemas never reach jsonschema: a keyword value the evaluator does
    not pass goes there only when jsonschema finds it invalid too."""
    handed: list[Any] = []
    real = KeywordRule.validator

    def spy(self: KeywordRule) -> Any:
        handed.append(self.schema)
        return real.fget(self)

    _clear()
    monkeypatch.setattr(KeywordRule, "validator", property(spy))
    try:
        for schema in _corpus_schemas():
            before = len(handed)
            report = validate_schema(schema, "s")
            if not report.problems:
                assert len(handed) == before, schema
    finally:
        _clear()


_TYPE_WORDS = [*sorted(metaschema_eval.TYPE_NAMES), "integr", "Object", ""]
_STRINGS = st.one_of(
    st.sampled_from(
        [*_TYPE_WORDS, "^a+$", "(", "[a", "a{2,1}", "\\", "(?P<x>a)", "[[a]]", "\\d+", "#", "#/$defs/a",
           "#/definitions/a b", "http://json-schema.org/draft-07/schema#",
           "https://json-schema.org/draft/2020-12/schema", "urn:x:y", "a.json#/x", "%zz",
           "//host/x", "a:b", "http://a b", "#frag\\ment", "A_b-1.c", "1abc", "x#y"]
    ),
    st.text(max_size=6),
)  # fmt: skip
_NUMBERS = st.one_of(
    st.integers(-3, 3), st.sampled_from([0.0, 1.0, -1.0, 2.5, -0.5, 2**64, float("inf")]),
    st.floats(allow_nan=True, allow_infinity=True),
)  # fmt: skip
_SCALARS = st.one_of(st.none(), st.booleans(), _NUMBERS, _STRINGS)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(_SCALARS, max_size=4),
        st.dictionaries(st.one_of(_STRINGS, st.sampled_from(["type", "maximum", "minimum"])),
                        inner, max_size=3),
    ),
    max_leaves=10,
)  # fmt: skip
_RULE_IDS = [(uri, key) for uri in _DIALECTS for key in ["", *sorted(dialects()[uri].keywords)]]


@settings(max_examples=4000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(_RULE_IDS), _VALUES)
def test_generated_values_decide_as_jsonschema(rule_id: tuple[str, str], value: Any) -> None:
    uri, key = rule_id
    dialect = dialects()[uri]
    _compare(dialect.keywords[key] if key else dialect.root_rule, value)


@pytest.mark.parametrize(
    ("key", "value", "draft", "valid"),
    [
        ("maxLength", 1.0, "http://json-schema.org/draft-04/schema", False),
        ("maxLength", 1.0, "http://json-schema.org/draft-07/schema", True),
        ("maxLength", True, "http://json-schema.org/draft-07/schema", False),
        ("multipleOf", 0, "http://json-schema.org/draft-04/schema", False),
        ("multipleOf", 0, "http://json-schema.org/draft-07/schema", False),
        ("multipleOf", 0.5, "http://json-schema.org/draft-07/schema", True),
        ("required", ["a", "a"], "http://json-schema.org/draft/2020-12/schema", False),
        ("required", [], "http://json-schema.org/draft-04/schema", False),
        ("type", ["string", "string"], "http://json-schema.org/draft/2020-12/schema", False),
        ("type", [], "http://json-schema.org/draft/2020-12/schema", False),
        ("pattern", "(", "http://json-schema.org/draft/2020-12/schema", False),
        ("enum", [], "http://json-schema.org/draft-04/schema", False),
        ("enum", [], "http://json-schema.org/draft-06/schema", True),
        ("items", True, "http://json-schema.org/draft-04/schema", False),
        ("$ref", "#/definitions/a", "http://json-schema.org/draft-07/schema", True),
    ],
)  # fmt: skip
def test_draft_differences_are_kept(key: str, value: Any, draft: str, valid: bool) -> None:
    rule = dialects()[metaschema._normal(draft)].keywords[key]
    assert rule.validator.is_valid(value) is valid
    assert _compare(rule, value) is valid


def test_not_decided_when_jsonschema_could_raise_or_an_install_could_differ() -> None:
    rules = dialects()[metaschema._normal(metaschema.DEFAULT_DIALECT)].keywords
    semantics = rules["pattern"].semantics
    assert semantics is not None
    assert semantics.decide(rules["$ref"].fast, "a b") is None  # a URI checker may be installed
    assert semantics.decide(rules["$ref"].fast, "#/a") is True  # valid under any checker
    assert semantics.decide(rules["required"].fast, [1, 1.0]) is None  # uniq over numbers
    assert semantics.decide(rules["title"].fast, (1, 2)) is None  # not a JSON value
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # re warns of a nested set; as an error, jsonschema's re.compile raises it
        assert semantics.decide(rules["pattern"].fast, "[[b]") is None
        with pytest.raises(FutureWarning):
            rules["pattern"].validator.is_valid("[[b]")


# --- whole schemas: with the evaluator and with jsonschema alone --------------------------------


def _clear() -> None:
    schema_validity._ANSWERS.clear()
    schema_validity._WALKED.clear()


def _reports(schemas: list[Any]) -> list[list[SchemaReport]]:
    """Each schema's report with the evaluator, then with jsonschema alone (fresh caches)."""
    out = []
    for alone in (False, True):
        _clear()
        with pytest.MonkeyPatch.context() as monkeypatch:
            if alone:
                monkeypatch.setattr(KeywordRule, "passes", lambda self, value: False)
            out.append([validate_schema(s, "tools[0].inputSchema") for s in schemas])
    _clear()
    return out


def _in_dialect(schema: Any, uri: str) -> Any:
    return {"$schema": uri, **schema} if isinstance(schema, dict) else schema


def test_corpus_schemas_report_the_same_in_every_draft() -> None:
    schemas = list(_corpus_schemas())
    for uri in [None, *_DIALECTS]:
        batch = schemas if uri is None else [_in_dialect(s, uri) for s in schemas]
        fast, alone = _reports(batch)
        assert fast == alone, uri


_MUTANTS = [
    "invalid-type", "integr", -1, -4, 1.5, 1.0, 0, True, False, None, "(", "[a", "^ok$", "",
    "#/$defs/x", "a b", [], ["a", "a"], ["string", "number"], ["x", 1], {}, {"type": 5},
    {"type": "string"}, {"minLength": "3"}, [{"type": "integr"}], [True, {}], {"a": 5},
]  # fmt: skip
_KEYWORDS = sorted({k for d in dialects().values() for k in d.keywords} - {"$schema"})


def _mutate(schema: Any, rng: random.Random) -> Any:
    """A copy of `schema` with one change: a value replaced, a key dropped or a keyword added,
    at a random object inside it."""
    copy = json.loads(json.dumps(schema))
    nodes = list(_nodes(copy)) or [copy]
    node = rng.choice(nodes)
    if not isinstance(node, dict):
        return rng.choice(_MUTANTS)
    roll = rng.random()
    if node and roll < 0.45:
        node[rng.choice(list(node))] = rng.choice(_MUTANTS)
    elif node and roll < 0.6:
        del node[rng.choice(list(node))]
    else:
        node[rng.choice(_KEYWORDS)] = rng.choice(_MUTANTS)
    return copy


def test_mutated_schemas_report_the_same_in_every_draft() -> None:
    rng = random.Random(17)
    corpus = list(_corpus_schemas())
    mutants = [_mutate(rng.choice(corpus), rng) for _ in range(3000)]
    mutants = [_in_dialect(m, rng.choice(_DIALECTS)) if rng.random() < 0.7 else m for m in mutants]
    fast, alone = _reports(mutants)
    assert fast == alone
    invalid = sum(1 for r in alone if r.problems)
    assert 1000 < invalid < len(mutants)  # both kinds well represented
    for uri in _DIALECTS:  # and the valid ones are valid by the whole metaschema too
        official = metaschema.official_validator(uri)
        assert official is not None
        for mutant, report in list(zip(mutants, alone, strict=True))[:400]:
            if isinstance(mutant, dict) and metaschema.dialect_for(mutant) is dialects()[uri]:
                assert official.is_valid(mutant) == (not report.problems), mutant


_GENERATED_LEAVES = st.one_of(
    st.sampled_from(_MUTANTS[:20]), _SCALARS, st.lists(_SCALARS, max_size=3)
)


def _generated_schemas() -> st.SearchStrategy[Any]:
    return st.recursive(
        st.one_of(st.booleans(), st.dictionaries(st.sampled_from(_KEYWORDS), _GENERATED_LEAVES,
                                                 max_size=4)),
        lambda inner: st.one_of(
            st.dictionaries(st.sampled_from(_KEYWORDS), st.one_of(_GENERATED_LEAVES, inner),
                            max_size=4),
            st.lists(inner, max_size=3),
            st.dictionaries(st.sampled_from(["a", "b", "type"]), inner, max_size=3),
        ),
        max_leaves=12,
    )  # fmt: skip


@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from([None, *_DIALECTS]), _generated_schemas())
def test_generated_schemas_report_the_same(uri: str | None, body: Any) -> None:
    schema = body if uri is None else _in_dialect(body, uri)
    if not isinstance(schema, dict):
        return
    fast, alone = _reports([schema])
    assert fast == alone, schema


# --- URIs decided without a URI checker ---------------------------------------------------------

# RFC 3986's ABNF (appendix A) as regular expressions, IP literals left out (never decided here).
_UNRESERVED = r"[A-Za-z0-9\-._~]"
_PCT = r"%[0-9A-Fa-f]{2}"
_SUB = r"[!$&'()*+,;=]"
_PCHAR = rf"(?:{_UNRESERVED}|{_PCT}|{_SUB}|[:@])"
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
_HOST = rf"(?:{_OCTET}(?:\.{_OCTET}){{3}}|(?:{_UNRESERVED}|{_PCT}|{_SUB})*)"
_AUTHORITY = rf"(?:(?:{_UNRESERVED}|{_PCT}|{_SUB}|:)*@)?{_HOST}(?::[0-9]*)?"
_SEGMENT = rf"{_PCHAR}*"
_ABEMPTY = rf"(?:/{_SEGMENT})*"
_ABSOLUTE = rf"/(?:{_PCHAR}+(?:/{_SEGMENT})*)?"
_NOSCHEME = rf"(?:{_UNRESERVED}|{_PCT}|{_SUB}|@)+(?:/{_SEGMENT})*"
_ROOTLESS = rf"{_PCHAR}+(?:/{_SEGMENT})*"
_QUERY = rf"(?:{_PCHAR}|[/?])*"
_TAIL = rf"(?:\?{_QUERY})?(?:#{_QUERY})?"
RFC3986_URI = re.compile(
    rf"[A-Za-z][A-Za-z0-9+\-.]*:(?://{_AUTHORITY}{_ABEMPTY}|{_ABSOLUTE}|{_ROOTLESS}|){_TAIL}"
)
RFC3986_REFERENCE = re.compile(
    rf"(?:{RFC3986_URI.pattern}|(?://{_AUTHORITY}{_ABEMPTY}|{_ABSOLUTE}|{_NOSCHEME}|){_TAIL})"
)
_URI_ALPHABET = "abcXYZ019._~-/#?:@!$&'()*+,;=% \\[]"


@settings(max_examples=3000, deadline=None)
@given(
    st.sampled_from(["", "http://", "https://", "http://json-schema.org/", "#", "#/", "./", "//"]),
    st.text(alphabet=_URI_ALPHABET, max_size=16),
)
def test_uri_strings_decided_here_are_rfc3986(prefix: str, rest: str) -> None:
    text = prefix + rest
    if metaschema_eval.safe_uri("uri").fullmatch(text):
        assert RFC3986_URI.fullmatch(text), text
    if metaschema_eval.safe_uri("uri-reference").fullmatch(text) and text:
        assert RFC3986_REFERENCE.fullmatch(text), text


def test_the_usual_uris_are_decided_here() -> None:
    for uri in ("http://json-schema.org/draft-07/schema#", "https://example.com/a/b.json"):
        assert metaschema_eval.safe_uri("uri").fullmatch(uri)
    for ref in ("#/$defs/TimeResult", "#/definitions/a", "#", "item.json", "/x/y.json#/a",
                "http://json-schema.org/draft-07/schema#"):  # fmt: skip
        assert metaschema_eval.safe_uri("uri-reference").fullmatch(ref)
    for bad in ("a b", "//host", "a:b", "%zz", "#a#b", "http://a b"):
        assert not metaschema_eval.safe_uri("uri-reference").fullmatch(bad), bad


def test_a_pattern_python_warns_about_reports_the_same_and_prints_nothing(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """'[[a]]' makes `re` warn ("Possible nested set"); the scanned server's pattern is judged
    the same with or without warnings as errors, and no warning reaches the terminal."""
    for keyword in ("pattern", "format"):
        body = {"type": "string", keyword: "[[a]]" if keyword == "pattern" else "regex"}
        schema = {"type": "object", "properties": {"p": body}}
        if keyword == "format":
            schema = {"type": "string", "format": "regex", "default": "[[a]]"}
        fast, alone = _reports([schema])
        assert fast == alone
    assert capsys.readouterr().err == ""

"""Is a tool's input or output schema a valid JSON Schema? Checked against the official metaschema.

The walk visits each schema node once (at most `MAX_NODES`): the node must be a schema (an object,
or a boolean from draft 6 on), pass the metaschema's root constraints, and each of its keywords
must pass that keyword's schema (`metaschema.py`); the nodes below are found where the metaschema
says subschemas sit. Answers are cached by value (a type-only keyword by the value's JSON type),
so the repeated `{"type": "string"}` of a catalog is checked once. Work is linear in the nodes.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from jsonschema.exceptions import ValidationError, best_match

from toolwitness import paths
from toolwitness.checks.capability.metaschema import Dialect, KeywordRule, dialect_for

MAX_NODES = 20_000
_MAX_KEY_ITEMS = 64  # larger values are checked without a cache entry
_CACHE_MAX = 65_536
_MESSAGE_MAX = 200


@dataclass(frozen=True)
class SchemaProblem:
    location: str
    message: str


@dataclass
class SchemaReport:
    dialect: str | None  # None: the `$schema` names a dialect not known here (not validated)
    problems: list[SchemaProblem] = field(default_factory=list)
    nodes: int = 0  # schema nodes visited
    checks: int = 0  # keyword values handed to jsonschema (cache misses)
    truncated: bool = False  # more than MAX_NODES nodes: the rest was not validated


# (message, path inside the value) of the first error, or None when the value passes
_Answer = tuple[str, tuple[str | int, ...]] | None
_ANSWERS: dict[tuple[Any, ...], _Answer] = {}


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, float):
        return "integral" if value.is_integer() else "float"
    return type(value).__name__


def _frozen(value: Any, budget: list[int]) -> Any:
    """A hashable stand-in equal only for equal JSON values (types kept: `1` is not `true`)."""
    budget[0] -= 1
    if budget[0] < 0:
        raise OverflowError
    if isinstance(value, dict):
        return ("o", tuple((k, _frozen(v, budget)) for k, v in value.items()))
    if isinstance(value, list):
        return ("a", tuple(_frozen(v, budget) for v in value))
    return (_json_type(value), value)


def _answer(
    dialect: Dialect, keyword: str, rule: KeywordRule, value: Any, report: SchemaReport
) -> _Answer:
    """None when `value` passes the keyword's schema, else jsonschema's first error."""
    key: tuple[Any, ...] | None
    if rule.type_only:
        key = (dialect.uri, keyword, _json_type(value))
    else:
        try:
            key = (dialect.uri, keyword, _frozen(value, [_MAX_KEY_ITEMS]))
        except OverflowError:
            key = None
    if key is not None and key in _ANSWERS:
        return _ANSWERS[key]
    report.checks += 1
    message = _first_error(rule.validator.iter_errors(value))
    if key is not None:
        if len(_ANSWERS) >= _CACHE_MAX:
            _ANSWERS.clear()
        _ANSWERS[key] = message
    return message


def _root_answer(dialect: Dialect, node: dict[str, Any], report: SchemaReport) -> _Answer:
    # The root constraints are a type and, in draft 4, keyword dependencies: the keys decide.
    key = (dialect.uri, "", frozenset(node))
    if key in _ANSWERS:
        return _ANSWERS[key]
    report.checks += 1
    message = _first_error(dialect.root.iter_errors(node))
    if len(_ANSWERS) >= _CACHE_MAX:
        _ANSWERS.clear()
    _ANSWERS[key] = message
    return message


def _first_error(errors: Iterator[ValidationError]) -> _Answer:
    error = best_match(errors)
    if error is None:
        return None
    text = error.message
    text = text if len(text) <= _MESSAGE_MAX else text[: _MESSAGE_MAX - 1] + "…"
    return text, tuple(error.absolute_path)


def _at(location: str, inner: tuple[str | int, ...]) -> str:
    for part in inner:
        location = (
            paths.item(location, part) if isinstance(part, int) else paths.child(location, part)
        )
    return location


def validate_schema(schema: Any, location: str) -> SchemaReport:
    """Every way `schema` breaks its metaschema, each at its JSON path under `location`."""
    dialect = dialect_for(schema)
    if dialect is None:
        return SchemaReport(dialect=None)
    report = SchemaReport(dialect=dialect.name)
    stack: list[tuple[Any, str]] = [(schema, location)]
    while stack:
        node, loc = stack.pop()
        if report.nodes >= MAX_NODES:
            report.truncated = True
            break
        report.nodes += 1
        if isinstance(node, bool) and dialect.booleans:
            continue
        if not isinstance(node, dict):
            wanted = "an object or a boolean" if dialect.booleans else "an object"
            report.problems.append(SchemaProblem(loc, f"a schema must be {wanted}"))
            continue
        answer = _root_answer(dialect, node, report) if dialect.root.schema else None
        if answer:
            report.problems.append(SchemaProblem(_at(loc, answer[1]), answer[0]))
        kinds: tuple[type, ...] = (dict, bool) if dialect.booleans else (dict,)
        children: list[tuple[Any, str]] = []
        for keyword, value in node.items():
            rule = dialect.keywords.get(keyword)
            if rule is None:
                continue  # unknown keywords are allowed by every metaschema
            here = paths.child(loc, keyword)
            answer = _answer(dialect, keyword, rule, value, report)
            if answer:
                report.problems.append(SchemaProblem(_at(here, answer[1]), answer[0]))
            for place in rule.places:
                if place == "self" and isinstance(value, kinds):
                    children.append((value, here))
                elif place == "each" and isinstance(value, dict):
                    children += [
                        (v, paths.child(here, k)) for k, v in value.items() if isinstance(v, kinds)
                    ]
                elif place == "each" and isinstance(value, list):
                    children += [
                        (v, paths.item(here, i))
                        for i, v in enumerate(value)
                        if isinstance(v, kinds)
                    ]
        stack.extend(reversed(children))  # depth-first, in document order
    return report

"""Is a tool's input or output schema a valid JSON Schema? Checked against the official metaschema.

The walk visits each schema node once (at most `MAX_NODES`): the node must be a schema (an object,
or a boolean from draft 6 on), pass the metaschema's root constraints, and each of its keywords
must pass that keyword's schema (`metaschema.py`); the nodes below are found where the metaschema
says subschemas sit. Answers are cached by value (a type-only keyword by the value's JSON type),
so the repeated `{"type": "string"}` of a catalog is checked once. Work is linear in the nodes.

A keyword value is first put to the compiled keyword schema (`metaschema_eval.py`); only a value
that evaluator does not find valid goes to `jsonschema` (imported then), whose first error is the
problem reported, so a catalog of valid schemas is checked without importing `jsonschema`.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from toolwitness import paths
from toolwitness.checks.capability.metaschema import Dialect, KeywordRule, dialect_for
from toolwitness.plainclass import plainclass, replace

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

MAX_NODES = 20_000
_MAX_KEY_ITEMS = 64  # larger values are checked without a cache entry
_CACHE_MAX = 65_536
_MESSAGE_MAX = 200


@plainclass(frozen=True)
class SchemaProblem:
    location: str
    message: str


@plainclass(frozen=True)
class SchemaReport:
    dialect: str | None  # None: the `$schema` names a dialect not known here (not validated)
    problems: tuple[SchemaProblem, ...] = ()
    nodes: int = 0  # schema nodes visited
    checks: int = 0  # keyword values checked (cache misses)
    truncated: bool = False  # more than MAX_NODES nodes: the rest was not validated


class _Counts:
    """(Plain classes for the private records: a dataclass costs start-up ~0.5 ms to build.)"""

    __slots__ = ("checks", "nodes", "truncated")

    def __init__(self) -> None:
        self.nodes = 0
        self.checks = 0
        self.truncated = False


# (message, path inside the value) of the first error, or None when the value passes
_Answer = tuple[str, tuple[str | int, ...]] | None
_ANSWERS: dict[tuple[Any, ...], _Answer] = {}


def _json_type(value: Any) -> Any:
    """The value's JSON type as the metaschema sees it (a float that is a whole number can be
    an "integer"; `true` is no number)."""
    kind = value.__class__
    return (kind, value.is_integer()) if kind is float else kind


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


def _key(dialect: Dialect, keyword: str, rule: KeywordRule, value: Any) -> tuple[Any, ...] | None:
    if rule.type_only:
        return (dialect.uri, keyword, _json_type(value))
    cap = rule.member_cap
    if cap is not None and isinstance(value, dict | list):
        members = value.values() if isinstance(value, dict) else value
        kinds = frozenset(map(_json_type, members))
        return (dialect.uri, keyword, value.__class__, kinds, min(len(value), cap))
    try:
        return (dialect.uri, keyword, _frozen(value, [_MAX_KEY_ITEMS]))
    except OverflowError:
        return None


def _remember(key: tuple[Any, ...] | None, answer: _Answer) -> None:
    if key is not None:
        if len(_ANSWERS) >= _CACHE_MAX:
            _ANSWERS.clear()
        _ANSWERS[key] = answer


def _first_error(errors: Iterator[ValidationError]) -> _Answer:
    from jsonschema.exceptions import best_match

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


def _location(parts: tuple[str | int, ...]) -> str:
    location = ""
    for part in parts:
        if isinstance(part, int):
            location = paths.item(location, part)
        else:
            location = paths.child(location, part) if location else part
    return location


class _Walked:
    __slots__ = ("problems", "report")

    def __init__(
        self, problems: tuple[tuple[tuple[str | int, ...], str], ...], report: SchemaReport
    ) -> None:
        self.problems = problems  # (path below the root, message)
        self.report = report  # without problems: what every location gets when there are none


_WALKED: dict[str, _Walked] = {}
_WALKED_MAX = 4096
_DUMP_MAX = 65_536  # longer schemas are walked each time rather than kept as keys


def validate_schema(schema: Any, location: str) -> SchemaReport:
    """Every way `schema` breaks its metaschema, each at its JSON path under `location`.
    Equal schemas repeat across a catalog's tools (and its generated copies): a schema's
    answer is kept under its `repr`, one linear C-level pass that tells apart every two
    different JSON values (`1`, `1.0` and `True`; quoted strings; key order kept)."""
    try:
        key: str | None = repr(schema)
    except RecursionError:
        key = None
    if key is not None and len(key) > _DUMP_MAX:
        key = None
    walked = _WALKED.get(key) if key is not None else None
    if walked is None:
        # A schema's `pattern` or `format: regex` is compiled to judge it; Python warns about
        # some patterns ("Possible nested set" for '[[a]]'). The pattern is the scanned
        # server's, not ours: its warning is no message for the user's terminal, and the
        # verdict must not depend on whether warnings are errors (pytest) or printed.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)
            walked = _walk(schema)
        if key is not None:
            if len(_WALKED) >= _WALKED_MAX:
                _WALKED.clear()
            _WALKED[key] = walked
    if not walked.problems:
        return walked.report
    problems = tuple(SchemaProblem(_location((location, *at)), m) for at, m in walked.problems)
    return replace(walked.report, problems=problems)


def _walk(schema: Any) -> _Walked:
    dialect = dialect_for(schema)
    if dialect is None:
        return _Walked((), SchemaReport(dialect=None))
    report = _Counts()
    found: list[tuple[tuple[str | int, ...], str]] = []
    kinds: tuple[type, ...] = (dict, bool) if dialect.booleans else (dict,)
    keywords, answers = dialect.keywords, _ANSWERS
    # Locations are kept as key tuples and written out only for a problem.
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(schema, ())]
    while stack:
        node, at = stack.pop()
        if report.nodes >= MAX_NODES:
            report.truncated = True
            break
        report.nodes += 1
        if isinstance(node, bool) and dialect.booleans:
            continue
        if not isinstance(node, dict):
            wanted = "an object or a boolean" if dialect.booleans else "an object"
            found.append((at, f"a schema must be {wanted}"))
            continue
        if not dialect.root_trivial:
            # the root constraints: a type and draft 4's keyword dependencies (the keys decide)
            key: tuple[Any, ...] | None = (dialect.uri, "", frozenset(node))
            if key in answers:
                answer = answers[key]
            else:
                report.checks += 1
                root = dialect.root_rule
                answer = (
                    None if root.passes(node) else _first_error(root.validator.iter_errors(node))
                )
                _remember(key, answer)
            if answer:
                found.append((at + answer[1], answer[0]))
        children: list[tuple[Any, tuple[str | int, ...]]] = []
        for keyword, value in node.items():
            rule = keywords.get(keyword)
            if rule is None:
                continue  # unknown keywords are allowed by every metaschema
            key = _key(dialect, keyword, rule, value)
            if key is not None and key in answers:
                answer = answers[key]
                if answer and answer[1] and rule.member_cap is not None:
                    # a key by the members' kinds and count says whether the value breaks
                    # its metaschema, not which member does: that is found again here
                    report.checks += 1
                    answer = _first_error(rule.validator.iter_errors(value))
            else:
                report.checks += 1
                answer = (
                    None if rule.passes(value) else _first_error(rule.validator.iter_errors(value))
                )
                _remember(key, answer)
            if answer:
                found.append(((*at, keyword, *answer[1]), answer[0]))
            for place in rule.places:
                if place == "self" and isinstance(value, kinds):
                    children.append((value, (*at, keyword)))
                elif place == "each" and isinstance(value, dict) and "self" not in rule.places:
                    # an object of schemas ("properties"); a keyword that takes a schema or
                    # an array of them ("items" before 2020-12) walks a dict value as one schema
                    children += [
                        (v, (*at, keyword, k)) for k, v in value.items() if isinstance(v, kinds)
                    ]
                elif place == "each" and isinstance(value, list):
                    children += [
                        (v, (*at, keyword, i)) for i, v in enumerate(value) if isinstance(v, kinds)
                    ]
        stack.extend(reversed(children))  # depth-first, in document order
    counts = SchemaReport(dialect.name, (), report.nodes, report.checks, report.truncated)
    return _Walked(tuple(found), counts)

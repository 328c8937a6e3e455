"""Arguments for a tool call, synthesised from its inputSchema, with fallbacks to retry.

A call plan has, per top-level parameter, one value or an ordered list of alternatives. Path
parameters get a planted subject (the planted note, folder or repository — planted under a base
the description names, if any) in each form the tool may expect (`paths.forms`); a second plan,
made only when the tool takes a path, uses never-seen nonce paths, so a read that creates its own
subject is caught (absent before, present after). Strings get `values.string_candidates`; other
values are minimal and valid: the lowest allowed number, false, the first enum member, minItems
copies. When a try is answered with an error, the next try advances the parameters the error
names (by name or value), or all of them when it names none (`CallPlan.next_try`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from toolwitness.lab.names import LabNames, lab_names
from toolwitness.lab.paths import convention, expand_base, forms, path_kind
from toolwitness.lab.values import string_candidates
from toolwitness.lab.vocab import vocabulary, words

_MAX_DEPTH = 6
MAX_TRIES = 4  # per plan: the first try and at most three fallbacks


class CannotSynthesize(Exception):
    """The schema asks for something the lab cannot make up (its reason is the message)."""


Planter = Callable[[str, str], str]  # (kind, base folder) -> a subject planted under it


@dataclass
class ArgumentSource:
    """Where planted and fresh values come from (paths as the server sees them)."""

    note: str
    directory: str
    nonce_dir: str  # fresh paths are made under this existing directory
    names: LabNames
    repo: str | None = None  # a planted git repository, for repo/repository parameters
    roots: tuple[str, ...] = ()  # folders relative paths are relative to (the first: primary)
    home: str = ""
    plant: Planter | None = None
    _counter: itertools.count[int] = field(default_factory=itertools.count)

    def nonce(self, suffix: str = "") -> str:
        return self.names.nonce(next(self._counter), suffix)


def simple_source(note: str, directory: str, seed: str) -> ArgumentSource:
    return ArgumentSource(note, directory, directory, lab_names(seed), roots=(directory,))


@dataclass(frozen=True)
class Choice:
    value: Any
    form: str
    fresh: tuple[str, ...] = ()  # never-seen paths in the value
    subjects: tuple[str, ...] = ()  # the absolute paths the value names


@dataclass(frozen=True)
class Try:
    arguments: dict[str, Any]
    forms: dict[str, str]
    index: tuple[tuple[str, int], ...]
    fresh_paths: tuple[str, ...] = ()
    subjects: tuple[str, ...] = ()


@dataclass(frozen=True)
class CallPlan:
    label: str  # "planted" | "nonce"
    order: tuple[str, ...]
    choices: dict[str, tuple[Choice, ...]]

    def _try(self, index: dict[str, int]) -> Try:
        picked = {n: self.choices[n][index[n]] for n in self.order}
        return Try(
            arguments={n: c.value for n, c in picked.items()},
            forms={n: c.form for n, c in picked.items() if len(self.choices[n]) > 1},
            index=tuple(sorted(index.items())),
            fresh_paths=tuple(p for c in picked.values() for p in c.fresh),
            subjects=tuple(p for c in picked.values() for p in c.subjects),
        )

    def first(self) -> Try:
        return self._try({n: 0 for n in self.order})

    def resume(self, index: tuple[tuple[str, int], ...]) -> Try:
        """The try at the indexes another plan's working try used (same parameters)."""
        given = dict(index)
        return self._try({n: min(given.get(n, 0), len(self.choices[n]) - 1) for n in self.order})

    def next_try(self, previous: Try, answer: str) -> Try | None:
        """The next fallback after an error answer, or None when nothing is left to vary."""
        index = dict(previous.index)
        varying = [n for n in self.order if index[n] + 1 < len(self.choices[n])]
        named = [n for n in varying if n in answer or str(previous.arguments[n]) in answer]
        for name in named or varying:
            index[name] += 1
        return self._try(index) if named or varying else None


def _first_type(schema: dict[str, Any]) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if isinstance(k, str) and k != "null"]
        return kinds[0] if kinds else None
    return kind if isinstance(kind, str) else None


def _fit(text: str, schema: dict[str, Any]) -> str:
    low, high = schema.get("minLength"), schema.get("maxLength")
    if isinstance(low, int) and len(text) < low:
        text = text + "x" * (min(low, 4096) - len(text))
    if isinstance(high, int) and high >= 0:
        text = text[:high]
    return text


def _number(schema: dict[str, Any], integer: bool) -> int | float:
    low = schema.get("minimum")
    exclusive = schema.get("exclusiveMinimum")
    if isinstance(exclusive, (int, float)) and not isinstance(exclusive, bool):
        value: float = exclusive + 1
    elif isinstance(low, (int, float)) and not isinstance(low, bool):
        value = low
    else:
        value = 1  # 0 is often "no limit" or rejected as an empty page size
    high = schema.get("maximum")
    if isinstance(high, (int, float)) and not isinstance(high, bool) and value > high:
        value = high
    return int(value) if integer else value


class ArgumentBuilder:
    def __init__(
        self, src: ArgumentSource, fresh: bool, tool: str = "", description: str = ""
    ) -> None:
        self.src = src
        self.fresh = fresh
        self.description = description
        # `list_directory(path)`: a tool named after directories takes one in its path
        self.dir_tool = bool(set(words(tool)) & vocabulary().dir_words)

    def _subject(self, kind: str, schema: dict[str, Any]) -> tuple[str, list[str], bool, bool]:
        """(subject, roots, relative first, fresh) for one path parameter."""
        if kind == "file" and self.dir_tool:
            kind = "dir"
        rule = convention([str(schema.get("description") or ""), self.description])
        roots = list(self.src.roots)
        base = expand_base(rule.base, self.src.home) if rule.base and self.src.home else None
        if base is not None:
            roots.insert(0, base)
        if self.fresh:
            parent = base or self.src.nonce_dir
            made = f"{parent}/{self.src.nonce('.txt' if kind == 'file' else '')}"
            return made, roots, rule.relative_first, True
        if base is not None and self.src.plant is not None:
            return self.src.plant(kind, base), roots, True, False
        if kind == "repo":
            return self.src.repo or self.src.directory, roots, rule.relative_first, False
        subject = self.src.directory if kind == "dir" else self.src.note
        return subject, roots, rule.relative_first, False

    def path_choices(
        self, kind: str, schema: dict[str, Any], many: int | None
    ) -> tuple[Choice, ...]:
        """The forms of one subject (or `many` subjects, for an array), then, for a file, the
        planted folder: a tool that wants a directory in `path` answers the file with an error."""
        subjects = [self._subject(kind, schema) for _ in range(many or 1)]
        per_subject = [forms(s, roots, rel) for s, roots, rel, _ in subjects]
        fresh = tuple(s for s, _, _, is_fresh in subjects if is_fresh)
        out: list[Choice] = []
        for step in range(max(len(f) for f in per_subject)):
            picked = [f[min(step, len(f) - 1)] for f in per_subject]
            values = [v for v, _ in picked]
            named = tuple(s for s, _, _, _ in subjects)
            out.append(Choice(values if many else values[0], picked[0][1], fresh, named))
        if kind == "file" and not self.dir_tool and not self.fresh and len(out) < MAX_TRIES:
            folder = self.src.directory
            out.append(Choice([folder] * (many or 1) if many else folder, "the planted folder",
                              (), (folder,)))  # fmt: skip
        return tuple(out)

    def choices(self, name: str, schema: Any, depth: int) -> tuple[Choice, ...]:
        if not isinstance(schema, dict):
            return (Choice(self.src.nonce(), "a nonce"),)
        kind = path_kind(name, schema)
        if kind is not None and _first_type(schema) in ("string", None) and "enum" not in schema:
            return self.path_choices(kind, schema, None)
        items = schema.get("items")
        if _first_type(schema) == "array" and isinstance(items, dict) and kind is not None:
            count = schema.get("minItems")
            many = min(count, 8) if isinstance(count, int) and count > 0 else 1
            return self.path_choices(kind, items, many)
        if _first_type(schema) == "string" and not {"const", "enum", "anyOf", "oneOf"} & set(
            schema
        ):
            nonce = _fit(self.src.nonce(), schema)
            candidates = string_candidates(name, schema, nonce, self.description)
            return tuple(Choice(v, f"{name} = {source}") for v, source in candidates)
        return (Choice(self.value(name, schema, depth), "the only value"),)

    def value(self, name: str, schema: Any, depth: int) -> Any:
        if depth > _MAX_DEPTH:
            raise CannotSynthesize("the schema nests deeper than the lab fills in")
        if not isinstance(schema, dict):
            return self.src.nonce()
        if "const" in schema:
            return schema["const"]
        enum = schema.get("enum")
        if isinstance(enum, list) and enum:
            return enum[0]
        if "$ref" in schema:
            raise CannotSynthesize(f"parameter {name!r} uses $ref, which the lab does not resolve")
        for key in ("anyOf", "oneOf"):
            options = schema.get(key)
            if isinstance(options, list) and options:
                non_null = [
                    o for o in options if not (isinstance(o, dict) and o.get("type") == "null")
                ]
                return self.value(name, (non_null or options)[0], depth + 1)
        kind = _first_type(schema)
        if kind == "string" or (kind is None and path_kind(name, schema)):
            return self.choices(name, schema, depth)[0].value
        if kind in ("integer", "number"):
            return _number(schema, kind == "integer")
        if kind == "boolean":
            return False
        if kind == "array":
            count = schema.get("minItems")
            count = min(count, 8) if isinstance(count, int) and count > 0 else 1
            item_name = name if path_kind(name, schema) else f"{name}[]"
            return [self.value(item_name, schema.get("items"), depth + 1) for _ in range(count)]
        if kind == "object" or "properties" in schema:
            return self.object(schema, depth + 1)
        if kind == "null":
            return None
        return self.src.nonce()

    def _names(self, schema: dict[str, Any]) -> list[str]:
        props = schema.get("properties")
        props = props if isinstance(props, dict) else {}
        required = schema.get("required")
        names = [r for r in required if isinstance(r, str)] if isinstance(required, list) else []
        # Optional path parameters are filled too: they are what the lab is about.
        names += [
            n
            for n, s in props.items()
            if n not in names and isinstance(s, dict) and path_kind(n, s)
        ]
        return names

    def object(self, schema: dict[str, Any], depth: int) -> dict[str, Any]:
        props = schema.get("properties")
        props = props if isinstance(props, dict) else {}
        return {n: self.value(n, props.get(n, {}), depth) for n in self._names(schema)}

    def plan(self, label: str, schema: dict[str, Any]) -> CallPlan:
        props = schema.get("properties")
        props = props if isinstance(props, dict) else {}
        names = self._names(schema)
        return CallPlan(
            label, tuple(names), {n: self.choices(n, props.get(n, {}), 1) for n in names}
        )


def takes_path(schema: dict[str, Any]) -> bool:
    props = schema.get("properties")
    if not isinstance(props, dict):
        return False
    return any(isinstance(s, dict) and path_kind(str(n), s) for n, s in props.items())


def plan_calls(
    schema: dict[str, Any], src: ArgumentSource, tool: str = "", description: str = ""
) -> list[CallPlan]:
    """One plan with planted values; a second with fresh nonce paths when the tool takes paths."""
    plans = [ArgumentBuilder(src, False, tool, description).plan("planted", schema)]
    if takes_path(schema):
        plans.append(ArgumentBuilder(src, True, tool, description).plan("nonce", schema))
    return plans

"""Arguments for a tool call, synthesised from its inputSchema.

Path-like parameters get the lab's planted note (or planted directory); a second call, made only
when the tool takes a path, gets never-before-seen nonce paths, so a read that creates its own
subject is caught (absent before, present after). Other required values are minimal and valid:
nonce strings, the lowest allowed number, false, the first enum member, minItems copies.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from toolwitness.lab.vocab import vocabulary, words

_MAX_DEPTH = 6


class CannotSynthesize(Exception):
    """The schema asks for something the lab cannot make up (its reason is the message)."""


@dataclass
class ArgumentSource:
    """Where planted and fresh values come from (a lab's paths and its nonce seed)."""

    note: str
    directory: str
    nonce_dir: str  # fresh paths are made under this existing directory
    seed: str
    repo: str | None = None  # a planted git repository, for repo/repository parameters
    _counter: itertools.count[int] = field(default_factory=itertools.count)

    def nonce(self) -> str:
        return f"tw{self.seed}n{next(self._counter)}"


@dataclass(frozen=True)
class CallPlan:
    label: str  # "planted" | "nonce"
    arguments: dict[str, Any]
    fresh_paths: tuple[str, ...] = ()  # nonce paths that did not exist before the call


def _kind(name: str, schema: dict[str, Any]) -> str | None:
    """'file' or 'dir' for a path-like string parameter, else None."""
    vocab = vocabulary()
    found = set(words(name))
    if found & {"repo", "repository"}:
        return "repo"
    if found & vocab.dir_words:
        return "dir"
    if found & vocab.path_words:
        return "file"
    fmt = schema.get("format")
    if fmt in ("path", "file-path"):
        return "file"
    return None


def _first_type(schema: dict[str, Any]) -> str | None:
    kind = schema.get("type")
    if isinstance(kind, list):
        kinds = [k for k in kind if isinstance(k, str) and k != "null"]
        return kinds[0] if kinds else None
    return kind if isinstance(kind, str) else None


def _string(schema: dict[str, Any], src: ArgumentSource) -> str:
    text = src.nonce()
    low = schema.get("minLength")
    high = schema.get("maxLength")
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
    def __init__(self, src: ArgumentSource, fresh: bool, tool: str = "") -> None:
        self.src = src
        self.fresh = fresh
        self.fresh_paths: list[str] = []
        # `list_directory(path)`: a tool named after directories takes one in its path
        self.dir_tool = bool(set(words(tool)) & vocabulary().dir_words)

    def path(self, kind: str) -> str:
        if kind == "file" and self.dir_tool:
            kind = "dir"
        if not self.fresh:
            if kind == "repo":
                return self.src.repo or self.src.directory
            return self.src.directory if kind == "dir" else self.src.note
        made = f"{self.src.nonce_dir}/{self.src.nonce()}" + ("" if kind != "file" else ".txt")
        self.fresh_paths.append(made)
        return made

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
        if kind == "string" or (kind is None and _kind(name, schema)):
            path_kind = _kind(name, schema)
            return self.path(path_kind) if path_kind else _string(schema, self.src)
        if kind in ("integer", "number"):
            return _number(schema, kind == "integer")
        if kind == "boolean":
            return False
        if kind == "array":
            count = schema.get("minItems")
            count = min(count, 8) if isinstance(count, int) and count > 0 else 1
            item_name = name if _kind(name, schema) else f"{name}[]"
            return [self.value(item_name, schema.get("items"), depth + 1) for _ in range(count)]
        if kind == "object" or "properties" in schema:
            return self.object(schema, depth + 1)
        if kind == "null":
            return None
        return self.src.nonce()

    def object(self, schema: dict[str, Any], depth: int) -> dict[str, Any]:
        props = schema.get("properties")
        props = props if isinstance(props, dict) else {}
        required = schema.get("required")
        names = [r for r in required if isinstance(r, str)] if isinstance(required, list) else []
        # Optional path parameters are filled too: they are what the lab is about.
        names += [
            n for n, s in props.items() if n not in names and isinstance(s, dict) and _kind(n, s)
        ]
        return {n: self.value(n, props.get(n, {}), depth) for n in names}


def takes_path(schema: dict[str, Any]) -> bool:
    props = schema.get("properties")
    if not isinstance(props, dict):
        return False
    return any(isinstance(s, dict) and _kind(str(n), s) for n, s in props.items())


def plan_calls(schema: dict[str, Any], src: ArgumentSource, tool: str = "") -> list[CallPlan]:
    """One call with planted values; a second with fresh nonce paths when the tool takes paths."""
    planted = ArgumentBuilder(src, fresh=False, tool=tool)
    plans = [CallPlan("planted", planted.object(schema, 0))]
    if takes_path(schema):
        fresh = ArgumentBuilder(src, fresh=True, tool=tool)
        arguments = fresh.object(schema, 0)
        plans.append(CallPlan("nonce", arguments, tuple(fresh.fresh_paths)))
    return plans

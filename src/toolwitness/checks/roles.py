"""A tool's capability roles, derived from what it says and takes -- never from its annotations.

Roles (`data/roles.yaml`): untrusted-input, sensitive-source, credential-access, external-sink,
network, code-exec, file-write, state-write, destructive. Each role carries the signals that gave
it (name token, description clause, parameter shape) so findings can name their witness.
Annotations are what the roles are checked against (`checks/capability.py`), so they must not
feed the derivation.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from toolwitness import paths
from toolwitness.checks.role_prose import analyse_prose
from toolwitness.checks.role_text import name_tokens
from toolwitness.checks.role_vocab import ROLE_NAMES, RoleRule, RoleVocabulary, vocabulary
from toolwitness.model import ServerSurface, Tool

_MAX_PARAMS = 256
_MAX_DEPTH = 4
_CONSTRAINT_KEYS = ("enum", "const", "pattern")


@dataclass(frozen=True)
class RoleSignal:
    role: str
    source: str  # name | description | parameter
    term: str  # the words or parameter that matched, in our own words
    location: str  # JSON path of the field


@dataclass(frozen=True)
class ParamShape:
    name: str
    location: str
    shapes: frozenset[str]  # command | code | url | webhook | path | sql | recipient
    constrained: bool  # enum, const, pattern or a narrowing format


@dataclass(frozen=True)
class ToolRoles:
    tool: str
    index: int
    signals: tuple[RoleSignal, ...]
    params: tuple[ParamShape, ...]

    @cached_property
    def _by_role(self) -> dict[str, list[RoleSignal]]:
        out: dict[str, list[RoleSignal]] = {}
        for signal in self.signals:
            out.setdefault(signal.role, []).append(signal)
        return out

    @property
    def roles(self) -> tuple[str, ...]:
        return tuple(r for r in ROLE_NAMES if r in self._by_role)

    def has(
        self, role: str, *, sources: tuple[str, ...] = ("name", "description", "parameter")
    ) -> bool:
        return any(s.source in sources for s in self._by_role.get(role, ()))

    def evidence(self, role: str) -> list[RoleSignal]:
        return list(self._by_role.get(role, ()))

    def shaped(self, shape: str) -> list[ParamShape]:
        return [p for p in self.params if shape in p.shapes]


def _schema_type_is_text(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    if kind is None:
        return True
    kinds = kind if isinstance(kind, list) else [kind]
    return "string" in kinds


def _constrained(schema: dict[str, Any], shapes: frozenset[str], vocab: RoleVocabulary) -> bool:
    if any(schema.get(k) not in (None, [], "") for k in _CONSTRAINT_KEYS):
        return True
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt:
        # A URI format only says "this is a URL"; it does not narrow where the URL points.
        url_formats = vocab.shapes["url"].formats if "url" in vocab.shapes else frozenset()
        return not (shapes & {"url", "webhook"} and fmt.lower() in url_formats)
    return False


def _shapes_of(name: str, schema: dict[str, Any], vocab: RoleVocabulary) -> frozenset[str]:
    tokens = name_tokens(name)
    if not tokens:
        return frozenset()
    joined, last = "_".join(tokens), tokens[-1]
    fmt = schema.get("format")
    found = {
        shape
        for shape, rule in vocab.shapes.items()
        if joined in rule.names
        or last in rule.last_token
        or (isinstance(fmt, str) and fmt.lower() in rule.formats)
    }
    return frozenset(found)


def parameter_shapes(tool: Tool, index: int, vocab: RoleVocabulary) -> list[ParamShape]:
    """Shaped string parameters, top level and nested (bounded breadth and depth)."""
    out: list[ParamShape] = []
    base = f"tools[{index}].inputSchema"
    stack: list[tuple[Any, str, int]] = [(tool.input_schema, base, 0)]
    seen = 0
    while stack and seen < _MAX_PARAMS:
        schema, loc, depth = stack.pop()
        props = schema.get("properties") if isinstance(schema, dict) else None
        if not isinstance(props, dict) or depth > _MAX_DEPTH:
            continue
        for name in sorted(props):
            seen += 1
            prop = props[name]
            if not isinstance(prop, dict):
                continue
            ploc = paths.child(paths.child(loc, "properties"), name)
            target = prop.get("items") if prop.get("type") == "array" else prop
            if isinstance(target, dict) and _schema_type_is_text(target):
                shapes = _shapes_of(name, target, vocab)
                if shapes:
                    out.append(ParamShape(name, ploc, shapes, _constrained(target, shapes, vocab)))
            if isinstance(target, dict) and "properties" in target:
                stack.append(
                    (target, ploc if target is prop else paths.child(ploc, "items"), depth + 1)
                )
    return sorted(out, key=lambda p: p.location)


def _prose(tool: Tool, index: int) -> Iterator[tuple[str, str]]:
    """(location, text) of the prose a tool uses to describe itself and its parameters."""
    base = f"tools[{index}]"
    if tool.title:
        yield f"{base}.title", tool.title
    if tool.description:
        yield f"{base}.description", tool.description
    props = tool.input_schema.get("properties")
    if isinstance(props, dict):
        for name in sorted(props)[:_MAX_PARAMS]:
            prop = props[name]
            if isinstance(prop, dict) and isinstance(prop.get("description"), str):
                loc = paths.child(paths.child(f"{base}.inputSchema", "properties"), name)
                yield f"{loc}.description", prop["description"]


def _name_verb_positions(tokens: list[str], vocab: RoleVocabulary) -> set[int]:
    """Name tokens read as verbs: the first verb-like token, and any after and/then/or."""
    positions: set[int] = set()
    first = True
    for i, token in enumerate(tokens):
        if token not in vocab.verbs:
            continue
        if first or (i > 0 and tokens[i - 1] in ("and", "then", "or")):
            positions.add(i)
            first = False
    return positions


_NAME_INDEX: dict[int, tuple[dict[str, list[RoleRule]], dict[str, list[RoleRule]]]] = {}


def _name_index(
    vocab: RoleVocabulary,
) -> tuple[dict[str, list[RoleRule]], dict[str, list[RoleRule]]]:
    """word -> name rules it can trigger, as an `any` word and as a verb (built once per vocab)."""
    cached = _NAME_INDEX.get(id(vocab))
    if cached is None:
        by_any: dict[str, list[RoleRule]] = {}
        by_verb: dict[str, list[RoleRule]] = {}
        for rule in vocab.rules:
            if rule.source == "name":
                for word in rule.any:
                    by_any.setdefault(word, []).append(rule)
                for word in rule.verbs:
                    by_verb.setdefault(word, []).append(rule)
        cached = _NAME_INDEX.setdefault(id(vocab), (by_any, by_verb))
    return cached


def _is_object(token: str, rule: RoleRule, vocab: RoleVocabulary) -> bool:
    if token in rule.objects:
        return True
    # "*": any other noun-like token that names a stored thing
    return (
        "*" in rule.objects
        and token not in vocab.verbs
        and token not in vocab.pure_objects
        and len(token) > 1
        and not token.isdigit()
    )


def _name_signals(tool: Tool, index: int, vocab: RoleVocabulary) -> Iterator[RoleSignal]:
    tokens = [vocab.lemma(t) for t in name_tokens(tool.name)]
    by_any, by_verb = _name_index(vocab)
    verb_at = _name_verb_positions(tokens, vocab)
    first_verb = tokens[min(verb_at)] if verb_at else None
    # Objects may be two-word ("private key"): every token and every adjacent pair.
    words = list(enumerate(tokens))
    words += [(i, vocab.lemma(f"{a} {b}")) for i, (a, b) in enumerate(itertools.pairwise(tokens))]
    loc = f"tools[{index}].name"
    done: set[str] = set()  # roles already given by a name token (one signal per role)
    for i, word in words:
        for rule in by_any.get(word, ()):
            if rule.role in done or (i not in verb_at and word in vocab.verbs):
                continue
            if first_verb is None or not rule.when_verb or first_verb in rule.when_verb:
                done.add(rule.role)
                yield RoleSignal(rule.role, "name", f"name token '{word}'", loc)
    for i in sorted(verb_at):
        for rule in by_verb.get(tokens[i], ()):
            if rule.role in done:
                continue
            obj = next((t for j, t in words if j != i and _is_object(t, rule, vocab)), None)
            if obj is not None:
                done.add(rule.role)
                yield RoleSignal(rule.role, "name", f"name '{tokens[i]} … {obj}'", loc)


_RANK = {role: i for i, role in enumerate(ROLE_NAMES)}


_PARAM_RULES: dict[int, tuple[RoleRule, ...]] = {}


def _parameter_rules(vocab: RoleVocabulary) -> tuple[RoleRule, ...]:
    rules = _PARAM_RULES.get(id(vocab))
    if rules is None:
        rules = tuple(r for r in vocab.rules if r.source == "parameter")
        _PARAM_RULES[id(vocab)] = rules
    return rules


def derive_roles(tool: Tool, index: int, vocab: RoleVocabulary | None = None) -> ToolRoles:
    vocab = vocab or vocabulary()
    parts = [(loc, analyse_prose(text, vocab)) for loc, text in _prose(tool, index)]
    name = [vocab.lemma(t) for t in name_tokens(tool.name)]
    words = set(name).union(*(p.words for _, p in parts))
    read_only = "readonly" in name or ("read" in name and "only" in name)
    read_only = read_only or any(p.read_only for _, p in parts)
    params = parameter_shapes(tool, index, vocab)
    signals: list[RoleSignal] = list(_name_signals(tool, index, vocab))
    for loc, prose in parts:
        for rule, term in prose.hits:
            if not (rule.readonly_exempt and read_only):
                signals.append(RoleSignal(rule.role, "description", term, loc))
    for rule in _parameter_rules(vocab) if params else ():
        if rule.corroborate and rule.corroborate.isdisjoint(words):
            continue
        for param in params:
            if rule.unconstrained_only and param.constrained:
                continue
            if rule.shapes & param.shapes and not (rule.readonly_exempt and read_only):
                shape = sorted(rule.shapes & param.shapes)[0]
                signals.append(
                    RoleSignal(
                        rule.role, "parameter", f"{shape} parameter '{param.name}'", param.location
                    )
                )
    # Reading a credential is reading sensitive data: the wider role follows from the narrower.
    signals += [
        RoleSignal("sensitive-source", s.source, s.term, s.location)
        for s in signals
        if s.role == "credential-access"
    ]
    unique = sorted(set(signals), key=lambda s: (_RANK[s.role], s.source, s.location, s.term))
    return ToolRoles(tool=tool.name, index=index, signals=tuple(unique), params=tuple(params))


_CACHE: dict[int, tuple[ServerSurface, tuple[ToolRoles, ...]]] = {}
_CACHE_SIZE = 64


def surface_roles(surface: ServerSurface) -> tuple[ToolRoles, ...]:
    """Roles of every tool. Capability, flow, the fleet checks and the pipeline all ask for the
    same frozen surfaces, so recent answers are kept (by identity, the surface held alive)."""
    hit = _CACHE.get(id(surface))
    if hit is not None and hit[0] is surface:
        return hit[1]
    vocab = vocabulary()
    result = tuple(derive_roles(tool, i, vocab) for i, tool in enumerate(surface.tools))
    if len(_CACHE) >= _CACHE_SIZE:
        del _CACHE[next(iter(_CACHE))]
    _CACHE[id(surface)] = (surface, result)
    return result


def tool_roles(surface: ServerSurface) -> dict[str, tuple[str, ...]]:
    """Tool name -> its roles (what `ToolResult.roles` reports)."""
    out: dict[str, tuple[str, ...]] = {}
    for derived in surface_roles(surface):
        out.setdefault(derived.tool, derived.roles)
    return out

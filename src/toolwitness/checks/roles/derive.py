"""A tool's capability roles, derived from what it says and takes -- never from its annotations.

Roles (`data/roles.yaml`): untrusted-input, sensitive-source, credential-access, external-sink,
network, code-exec, file-write, state-write, destructive. Each role carries the signals that gave
it (name token, description clause, parameter shape) so findings can name their witness.
Annotations are what the roles are checked against (`checks/capability/annotations.py`), so they
must not feed the derivation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cached_property
from itertools import pairwise
from typing import Any, NamedTuple

from toolwitness import paths
from toolwitness.checks.roles.prose import (
    CACHED_TEXT,
    NOUN_MARKERS,
    RETURNS,
    ProseAnalysis,
    _default_analysis,
    _pair_heads,
    analyse_prose,
    stored_objects,
)
from toolwitness.checks.roles.text import name_tokens
from toolwitness.checks.roles.vocab import ROLE_NAMES, RoleRule, RoleVocabulary, vocabulary
from toolwitness.lazyre import lazy_compile
from toolwitness.memo import IdentityMemo
from toolwitness.model import ServerSurface, Tool
from toolwitness.plainclass import plainclass

_MAX_PARAMS = 256
_MAX_DEPTH = 4
_CONSTRAINT_KEYS = ("enum", "const", "pattern")
_MAX_VALUES = 64  # values read per keyword of one parameter
_MAX_VALUE_CHARS = 256


@plainclass(frozen=True)
class RoleSignal:
    role: str
    source: str  # name | description | parameter
    term: str  # the words or parameter that matched, in our own words
    location: str  # JSON path of the field


@plainclass(frozen=True)
class ParamShape:
    name: str
    location: str
    shapes: frozenset[str]  # command | code | url | webhook | path | sql | recipient
    constrained: bool  # enum, const, pattern or a narrowing format


@plainclass(frozen=True)
class ParamValue:
    """A string a parameter's schema offers as a value: its default, const, an enum member or
    an example (what TW-CAP-015 reads as an action, "unlink", "rm -rf /")."""

    param: str
    location: str  # JSON path of the value
    keyword: str  # default | const | enum | examples | flag (a boolean switch on by default)
    value: str
    note: str = ""  # a flag's own description (bounded): what the switch says it does


@plainclass(frozen=True)
class ToolRoles:
    tool: str
    index: int
    signals: tuple[RoleSignal, ...]
    params: tuple[ParamShape, ...]
    values: tuple[ParamValue, ...] = ()
    read_only: bool = False  # the name or prose states the tool is read-only

    @cached_property
    def _by_role(self) -> dict[str, list[RoleSignal]]:
        out: dict[str, list[RoleSignal]] = {}
        for signal in self.signals:
            out.setdefault(signal.role, []).append(signal)
        return out

    @cached_property
    def roles(self) -> tuple[str, ...]:  # asked for by capability, flow and the report
        return tuple(r for r in ROLE_NAMES if r in self._by_role)

    def has(
        self, role: str, *, sources: tuple[str, ...] = ("name", "description", "parameter")
    ) -> bool:
        return any(s.source in sources for s in self._by_role.get(role, ()))

    def evidence(self, role: str) -> list[RoleSignal]:
        return list(self._by_role.get(role, ()))

    def shaped(self, shape: str) -> list[ParamShape]:
        return [p for p in self.params if shape in p.shapes]


_new = object.__new__


def _signal(role: str, source: str, term: str, location: str) -> RoleSignal:
    """`RoleSignal(role, source, term, location)`, built without the frozen class's four
    `object.__setattr__` calls: the instance dict gets the same fields in the same order (the
    class has no `__post_init__` to skip; a test holds both to this)."""
    signal = _new(RoleSignal)
    fields = signal.__dict__
    fields["role"] = role
    fields["source"] = source
    fields["term"] = term
    fields["location"] = location
    return signal


def _tool_roles(
    tool: str,
    index: int,
    signals: tuple[RoleSignal, ...],
    params: tuple[ParamShape, ...],
    values: tuple[ParamValue, ...] = (),
    read_only: bool = False,
) -> ToolRoles:
    """`ToolRoles(...)`, built the same way as `_signal`."""
    roles = _new(ToolRoles)
    fields = roles.__dict__
    fields["tool"] = tool
    fields["index"] = index
    fields["signals"] = signals
    fields["params"] = params
    fields["values"] = values
    fields["read_only"] = read_only
    return roles


def _constrained(schema: dict[str, Any], shapes: frozenset[str], vocab: RoleVocabulary) -> bool:
    if any(schema.get(k) not in (None, [], "") for k in _CONSTRAINT_KEYS):
        return True
    fmt = schema.get("format")
    if isinstance(fmt, str) and fmt:
        # A URI format only says "this is a URL"; it does not narrow where the URL points.
        url_formats = vocab.shapes["url"].formats if "url" in vocab.shapes else frozenset()
        return not (shapes & {"url", "webhook"} and fmt.lower() in url_formats)
    return False


class _RoleIndex(NamedTuple):
    """What derivation needs from a vocabulary, derived once per vocabulary object."""

    by_any: dict[str, list[RoleRule]]  # word -> name rules it triggers as an `any` word
    by_verb: dict[str, list[RoleRule]]  # word -> name rules it triggers as a verb
    any_words: frozenset[str]  # the keys of by_any
    any_pair_heads: frozenset[str]  # tokens that can start a two-word `any` word
    parameter_rules: tuple[RoleRule, ...]
    shape_names: dict[str, frozenset[str]]  # joined name tokens -> shapes
    shape_last: dict[str, frozenset[str]]  # last name token -> shapes
    shape_formats: dict[str, frozenset[str]]  # lower-cased format -> shapes
    name_shapes: dict[str, frozenset[str] | None]  # parameter name -> its name-given shapes
    non_string: frozenset[str]  # shapes a string (or untyped) parameter cannot have
    kind_shapes: dict[str, frozenset[str]]  # other JSON type -> the shapes that allow it
    excepted: dict[str, frozenset[str]]  # name token -> shapes it rules out ("page" token)


_INDEX: dict[int, tuple[RoleVocabulary, _RoleIndex]] = {}
_NAME_SHAPES_MAX = 65536


def _inverted(pairs: Iterator[tuple[str, str]]) -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = {}
    for key, value in pairs:
        out.setdefault(key, set()).add(value)
    return {k: frozenset(v) for k, v in out.items()}


def _role_index(vocab: RoleVocabulary) -> _RoleIndex:
    hit = _INDEX.get(id(vocab))
    if hit is None or hit[0] is not vocab:
        by_any: dict[str, list[RoleRule]] = {}
        by_verb: dict[str, list[RoleRule]] = {}
        for rule in vocab.rules:
            if rule.source == "name":
                for word in rule.any:
                    by_any.setdefault(word, []).append(rule)
                for word in rule.verbs:
                    by_verb.setdefault(word, []).append(rule)
        shapes = vocab.shapes.items()
        index = _RoleIndex(
            by_any=by_any,
            by_verb=by_verb,
            any_words=frozenset(by_any),
            any_pair_heads=_pair_heads(vocab, frozenset(by_any)),
            parameter_rules=tuple(r for r in vocab.rules if r.source == "parameter"),
            shape_names=_inverted((n, shape) for shape, rule in shapes for n in rule.names),
            shape_last=_inverted((n, shape) for shape, rule in shapes for n in rule.last_token),
            shape_formats=_inverted((f, shape) for shape, rule in shapes for f in rule.formats),
            name_shapes={},
            non_string=frozenset(n for n, rule in shapes if "string" not in rule.types),
            kind_shapes=_inverted(
                (kind, n) for n, rule in shapes for kind in rule.types if kind != "string"
            ),
            excepted=_inverted((t, n) for n, rule in shapes for t in rule.except_tokens),
        )
        hit = (vocab, index)
        _INDEX[id(vocab)] = hit  # the vocabulary held: its id is not reused
    return hit[1]


_NO_SHAPES: frozenset[str] = frozenset()


def _shapes_of(name: str, schema: dict[str, Any], index: _RoleIndex) -> frozenset[str]:
    """Shapes whose names hold the joined name tokens or whose last tokens hold the last one,
    and those whose formats hold the schema's format (lower-cased); none for a name without
    tokens. Parameter names repeat across tools, so the name part is kept per name."""
    if name in index.name_shapes:
        by_name = index.name_shapes[name]
    else:
        tokens = name_tokens(name)
        if tokens:
            joined = index.shape_names.get("_".join(tokens), _NO_SHAPES)
            by_name = joined | index.shape_last.get(tokens[-1], _NO_SHAPES)
            if by_name and index.excepted and not index.excepted.keys().isdisjoint(tokens):
                by_name = by_name.difference(*(index.excepted.get(t, ()) for t in tokens))
        else:
            by_name = None
        if len(index.name_shapes) >= _NAME_SHAPES_MAX:
            index.name_shapes.clear()
        index.name_shapes[name] = by_name
    if by_name is None:
        return _NO_SHAPES
    fmt = schema.get("format")
    if isinstance(fmt, str):
        by_format = index.shape_formats.get(fmt.lower())
        if by_format:
            return by_name | by_format
    return by_name


def parameter_shapes(tool: Tool, index: int, vocab: RoleVocabulary) -> list[ParamShape]:
    """Shaped string parameters, top level and nested (bounded breadth and depth)."""
    return _walk_parameters(tool, index, vocab, _role_index(vocab), None, None)


# Key words of a vendor field that name what the tool does ("default_action", "actions",
# "x-…-effect", "on_view"); "default" among them makes the value what it does unasked.
_ACT_KEYS = frozenset({"action", "actions", "effect", "effects", "hook", "hooks", "operation",
                       "operations", "op", "on", "then", "do", "default"})  # fmt: skip
_MAX_VENDOR_VALUES = 32
_MAX_VENDOR_DEPTH = 3


def _vendor_values(tool: Tool, index: int, out: list[ParamValue]) -> None:
    """Strings a vendor field (an unknown top-level key, `_meta`) gives under a key named for
    an act ("x-homenest-capabilities": {"default_action": "disable_frost_protection"},
    "x-harborpay-effect": "charge"): what the tool says it does, where a reviewer rarely looks.
    A key with "default" in it holds what the tool does unasked (a default); others, what it
    can do (an enum member). Bounded in depth and count."""
    if not tool.extra and not tool.meta:
        return
    base = f"tools[{index}]"
    roots: list[tuple[Any, str, str]] = [
        (v, paths.child(base, k), k) for k, v in tool.extra.items()
    ]
    if tool.meta:
        roots += [(v, paths.child(f"{base}._meta", k), k) for k, v in tool.meta.items()]
    found = 0
    stack = [(value, loc, key, 0) for value, loc, key in reversed(roots)]
    while stack and found < _MAX_VENDOR_VALUES:
        value, loc, key, depth = stack.pop()
        words = set(name_tokens(key))
        if isinstance(value, str) and value and not _ACT_KEYS.isdisjoint(words):
            kind = "default" if "default" in words else "enum"
            out.append(ParamValue(key, loc, kind, value[:_MAX_VALUE_CHARS]))
            found += 1
        elif isinstance(value, dict) and depth < _MAX_VENDOR_DEPTH:
            stack += [(v, paths.child(loc, k), k, depth + 1) for k, v in reversed(value.items())]
        elif isinstance(value, list) and depth < _MAX_VENDOR_DEPTH:
            stack += [(v, paths.item(loc, i), key, depth + 1)
                      for i, v in reversed(list(enumerate(value[:_MAX_VALUES])))]  # fmt: skip


def _offered(target: dict[str, Any], name: str, ploc: str, out: list[ParamValue]) -> None:
    """The string values a parameter's schema offers (bounded per keyword and in length)."""
    for keyword in ("default", "const"):
        value = target.get(keyword)
        if isinstance(value, str) and value:
            out.append(ParamValue(name, f"{ploc}.{keyword}", keyword, value[:_MAX_VALUE_CHARS]))
        elif value is True:
            # a switch on unless the caller turns it off: the act is the switch's name
            # (`submit: true`, `rotate_after: true`), read as a value is read
            said = target.get("description")
            note = said[:_MAX_VALUE_CHARS] if isinstance(said, str) else ""
            out.append(ParamValue(name, f"{ploc}.{keyword}", "flag", name[:_MAX_VALUE_CHARS], note))
    for keyword in ("enum", "examples"):
        listed = target.get(keyword)
        if isinstance(listed, list):
            for i, value in enumerate(listed[:_MAX_VALUES]):
                if isinstance(value, str) and value:
                    where = f"{ploc}.{keyword}[{i}]"
                    out.append(ParamValue(name, where, keyword, value[:_MAX_VALUE_CHARS]))


_TITLE, _DESCRIPTION = 0, 1  # places of prose that are not a parameter's name


def _walk_parameters(
    tool: Tool,
    index: int,
    vocab: RoleVocabulary,
    role_index: _RoleIndex,
    texts: list[tuple[int | str, str]] | None,
    values: list[ParamValue] | None,
) -> list[ParamShape]:
    """`parameter_shapes`; with `texts`, also appends the descriptions of the first `_MAX_PARAMS`
    top-level parameters in name order (the walk visits them first, in that order); with
    `values`, the string values each parameter's schema offers (see `_offered`)."""
    out: list[ParamShape] = []
    stack: list[tuple[Any, str, int]] = [(tool.input_schema, f"tools[{index}].inputSchema", 0)]
    seen = 0
    while stack and seen < _MAX_PARAMS:
        schema, loc, depth = stack.pop()
        props = schema.get("properties") if isinstance(schema, dict) else None
        if not isinstance(props, dict) or depth > _MAX_DEPTH:
            continue
        describe = texts is not None and depth == 0
        for name in sorted(props):
            seen += 1
            prop = props[name]
            if not isinstance(prop, dict):
                continue
            if describe and seen <= _MAX_PARAMS:
                described = prop.get("description")
                if isinstance(described, str) and texts is not None:
                    texts.append((name, described))
            kind = prop.get("type")
            target = prop.get("items") if kind == "array" else prop
            if not isinstance(target, dict):
                continue
            if target is not prop:
                kind = target.get("type")
            # a string parameter: type absent, "string", or a list holding "string"
            text = kind is None or kind == "string" or (isinstance(kind, list) and "string" in kind)
            if text:
                shapes = _shapes_of(name, target, role_index)
                if shapes and not role_index.non_string.isdisjoint(shapes):
                    shapes = shapes - role_index.non_string
            elif isinstance(kind, str) and kind in role_index.kind_shapes:
                shapes = _shapes_of(name, target, role_index) & role_index.kind_shapes[kind]
            else:
                shapes = None
            nested = "properties" in target
            offers = values is not None and (
                "enum" in target or "default" in target or "const" in target
                or "examples" in target
            )  # fmt: skip
            if shapes or nested or offers:  # only then is the location needed
                ploc = paths.child(f"{loc}.properties", name)
                if shapes:
                    out.append(ParamShape(name, ploc, shapes, _constrained(target, shapes, vocab)))
                if offers and values is not None:
                    _offered(target, name, ploc if target is prop else f"{ploc}.items", values)
                if nested:
                    stack.append((target, ploc if target is prop else f"{ploc}.items", depth + 1))
    return sorted(out, key=lambda p: p.location) if len(out) > 1 else out


def _prose_location(index: int, where: int | str) -> str:
    """The JSON path of a prose text (see `derive_roles`)."""
    if where == _TITLE:
        return f"tools[{index}].title"
    if where == _DESCRIPTION:
        return f"tools[{index}].description"
    return f"{paths.child(f'tools[{index}].inputSchema.properties', str(where))}.description"


def _name_verb_positions(
    tokens: list[str], vocab: RoleVocabulary, nouns: frozenset[int] = frozenset()
) -> set[int]:
    """Name tokens read as verbs: the first verb-like token, and any after and/then/or; never
    a position in `nouns` (a token the name's structure makes a modifier, see `_noun_positions`)."""
    positions: set[int] = set()
    first = True
    for i, token in enumerate(tokens):
        if first and i == 0 and token in vocab.inert_verbs and token not in vocab.verbs:
            first = False  # "suggest_reply": an inert verb leads, the token after is its object
            continue
        if token not in vocab.verbs or i in nouns:
            continue
        if first or (i > 0 and tokens[i - 1] in ("and", "then", "or")):
            positions.add(i)
            first = False
    return positions


def _name_signals(
    tokens: list[str],
    index: int,
    vocab: RoleVocabulary,
    role_index: _RoleIndex,
    what: str = "name",
    *,
    read_only: bool = False,
    nouns: frozenset[int] = frozenset(),
) -> list[RoleSignal]:
    """Signals of the name's (lemmatised) tokens: `any` words, and verbs with an object."""
    by_any, by_verb = role_index.by_any, role_index.by_verb
    verb_at = (
        _name_verb_positions(tokens, vocab, nouns) if not vocab.verbs.isdisjoint(tokens) else set()
    )
    # Objects may be two-word ("private key"): every token and every adjacent pair. A pair
    # matters to the `any` words only if its first token is a pair head of theirs, and to the
    # verb rules only if a verb has some; without either the pairs change nothing.
    pairs = not role_index.any_pair_heads.isdisjoint(tokens[:-1]) or (
        bool(verb_at) and any(tokens[i] in by_verb for i in verb_at)
    )
    if not (pairs or verb_at) and role_index.any_words.isdisjoint(tokens):
        return []  # no token is an `any` word, and there is no verb: nothing can match
    first_verb = tokens[min(verb_at)] if verb_at else None
    verbs, pure = vocab.verbs, vocab.pure_objects
    words = list(enumerate(tokens))
    if pairs:
        words += [(i, vocab.lemma(f"{a} {b}")) for i, (a, b) in enumerate(pairwise(tokens))]
    out: list[RoleSignal] = []
    loc = f"tools[{index}].name"
    done: set[str] = set()  # roles already given by a name token (one signal per role)
    for i, word in words:
        for rule in by_any.get(word, ()):
            if rule.role in done or (i not in verb_at and word in vocab.verbs):
                continue
            if first_verb is None or not rule.when_verb or first_verb in rule.when_verb:
                done.add(rule.role)
                out.append(_signal(rule.role, "name", f"{what} token '{word}'", loc))
    for i in sorted(verb_at):
        for rule in by_verb.get(tokens[i], ()):
            if rule.role in done or (rule.readonly_exempt and read_only):
                continue  # "run_query" on a tool that states its queries are read-only
            # the first other word that is an object of the rule: one it names, or for "*" any
            # other noun-like token that names a stored thing
            objects = rule.objects
            star = "*" in objects
            obj: str | None = None
            for j, t in words:
                if j != i and (
                    t in objects
                    or (star and t not in verbs and t not in pure and len(t) > 1
                        and not t.isdigit())
                ):  # fmt: skip
                    obj = t
                    break
            if obj is not None:
                done.add(rule.role)
                out.append(_signal(rule.role, "name", f"{what} '{tokens[i]} … {obj}'", loc))
    return out


def _returns_a_changed_copy(
    name: list[str], description: str | None, parts: list[Any], vocab: RoleVocabulary
) -> bool:
    """A name whose destructive verb acts on no stored thing ("remove_background",
    "strip_metadata"), with a description that gives no destructive act of its own and says
    the tool returns its result: a transform of what it is given."""
    if not description or any(rule.role == "destructive" for p in parts for rule, _ in p.hits):
        return False
    if RETURNS.isdisjoint(re.findall(r"[a-z]+", description.lower())):
        return False
    stored = stored_objects(vocab)
    rest = [t for t in name[1:] if t not in vocab.verbs]
    return bool(rest) and stored.isdisjoint(rest)


def _noun_positions(
    raw_name: str, name: list[str], vocab: RoleVocabulary, description: str | None = None
) -> frozenset[int]:
    """Name tokens whose structure makes them modifiers of a noun, not the tool's verb: an -ing
    form before another token ("browsing_history", "running_jobs") is a gerund or participle
    modifying the noun after it, a plural ("labels_list") a noun (a tool's own verb is written
    in its base form)."""
    raw = name_tokens(raw_name)
    if len(raw) != len(name) or len(name) < 2:
        return frozenset()
    # (and a plural before another token, "labels_list", "tags_get": a noun, the list's
    # subject, where a tool's verb would be in its base form)
    out = {
        i
        for i, token in enumerate(raw[:-1])
        if token.endswith(("ing", "s")) and name[i] != token and name[i] in vocab.verbs
    }
    # (a token the description itself uses as a noun, after a determiner: "invite_link",
    # "Return the invite link for a meeting": the link's kind, not the tool's act; unless the
    # description opens with that verb, "Invite a guest and return the invite link")
    if description:
        lead = description.split(maxsplit=1)[:1]
        opens = vocab.lemmas.get(lead[0].lower(), lead[0].lower()) if lead else ""
        for i, token in enumerate(raw[:-1]):
            if (
                name[i] in vocab.verbs
                and name[i] != opens
                and _used_as_noun(token, description)
                and name[i] not in _grave_verbs(vocab)
            ):
                out.add(i)
    # (a head noun of reporting last, "deploy_status", "book_search": the token right before it
    # names the head's kind, unless it is a verb that changes such a head or a grave one;
    # "check_url_status" keeps its verb, which is not next to the head)
    before = len(name) - 2
    if (
        name[-1] in vocab.read_heads
        and name[before] in vocab.verbs
        and name[before] not in vocab.head_changers
        and name[before] not in _grave_verbs(vocab)
    ):
        out.add(before)
    # (a plural last, "airport_transfers", "pending_deletes": the name's head noun; a tool's
    # verb there would be in its base form, "cache_clear")
    last = len(raw) - 1
    if raw[last].endswith("s") and name[last] != raw[last] and name[last] in vocab.verbs:
        # unless the description opens with that verb ("task_comments": "Comment on a task")
        lead = (description or "").split(maxsplit=1)[:1]
        if not lead or vocab.lemmas.get(lead[0].lower(), lead[0].lower()) != name[last]:
            out.add(last)
    return frozenset(out)


_WORDS = lazy_compile(r"[a-z0-9]+")


def _grave_verbs(vocab: RoleVocabulary) -> frozenset[str]:
    """Name verbs that delete or run code: never read as a noun on the description's word ("the
    delete queue" does not make `delete_records` harmless)."""
    held = _GRAVE.get(id(vocab))
    if held is None or held[0] is not vocab:
        grave = frozenset(
            w
            for r in vocab.rules
            if r.role in ("destructive", "code-exec")
            for w in r.verbs | r.any
        )
        held = _GRAVE[id(vocab)] = (vocab, grave)
    return held[1]


_GRAVE: dict[int, tuple[RoleVocabulary, frozenset[str]]] = {}


def _used_as_noun(token: str, description: str) -> bool:
    """`token` follows a determiner in the description ("the invite link", "an order")."""
    if not token.isalpha() or len(token) < 3:
        return False
    words = _WORDS.findall(description[:2000].lower())
    return any(w == token and k and words[k - 1] in NOUN_MARKERS for k, w in enumerate(words))


_RANK = {role: i for i, role in enumerate(ROLE_NAMES)}


def _signal_order(s: RoleSignal) -> tuple[int, str, str, str]:
    return (_RANK[s.role], s.source, s.location, s.term)


def _analyses(texts: list[tuple[int | str, str]], vocab: RoleVocabulary) -> list[ProseAnalysis]:
    """`analyse_prose` of each text, the default-vocabulary test made once per tool."""
    if vocab is not vocabulary():
        return [analyse_prose(text, vocab) for _, text in texts]
    return [
        _default_analysis(text) if len(text) <= CACHED_TEXT else analyse_prose(text, vocab)
        for _, text in texts
    ]


def derive_roles(tool: Tool, index: int, vocab: RoleVocabulary | None = None) -> ToolRoles:
    vocab = vocab or vocabulary()
    role_index = _role_index(vocab)
    # The prose a tool uses to describe itself and its parameters: (where, text), `where`
    # being `_TITLE`, `_DESCRIPTION` or a parameter's name (see `_prose_location`).
    texts: list[tuple[int | str, str]] = []
    if tool.title:
        texts.append((_TITLE, tool.title))
    if tool.description:
        texts.append((_DESCRIPTION, tool.description))
    offered: list[ParamValue] = []
    params = _walk_parameters(tool, index, vocab, role_index, texts, offered)
    _vendor_values(tool, index, offered)
    parts = _analyses(texts, vocab)
    lemmas = vocab.lemmas.get
    name = [lemmas(t, t) for t in name_tokens(tool.name)]
    read_only = "readonly" in name or ("read" in name and "only" in name)
    read_only = read_only or any(p.read_only for p in parts)
    nouns = _noun_positions(tool.name, name, vocab, tool.description)
    signals = _name_signals(name, index, vocab, role_index, read_only=read_only, nouns=nouns)
    if any(sg.role == "destructive" for sg in signals) and _returns_a_changed_copy(
        name, tool.description, parts, vocab
    ):
        # "remove_background": "Removes the background from an image and returns a PNG"
        signals = [sg for sg in signals if not (sg.role == "destructive" and sg.source == "name")]
    for at, prose in enumerate(parts):
        if prose.hits:  # the location is built only for a text that gives something
            loc = _prose_location(index, texts[at][0])
            for rule, term in prose.hits:
                if not (rule.readonly_exempt and read_only):
                    signals.append(_signal(rule.role, "description", term, loc))
    if params:
        words = set(name).union(*(p.words for p in parts))
        led: set[str] | None = None
        for rule in role_index.parameter_rules:
            if rule.corroborate and rule.corroborate.isdisjoint(words):
                continue
            if not rule.unless.isdisjoint(words):
                continue  # "an arithmetic expression": not the code the shape suggests
            if rule.corroborate_led:
                led = set(name).union(*(p.led for p in parts)) if led is None else led
                if rule.corroborate.isdisjoint(led):
                    continue
            for param in params:
                if rule.unconstrained_only and param.constrained:
                    continue
                if rule.shapes & param.shapes and not (rule.readonly_exempt and read_only):
                    shape = sorted(rule.shapes & param.shapes)[0]
                    term = f"{shape} parameter '{param.name}'"
                    signals.append(_signal(rule.role, "parameter", term, param.location))
    # Reading a credential is reading sensitive data: the wider role follows from the narrower.
    signals += [
        _signal("sensitive-source", s.source, s.term, s.location)
        for s in signals
        if s.role == "credential-access"
    ]
    # Sorted and without duplicates; the order key holds every field, so equal keys are equal
    # signals and the order is total.
    if len(signals) > 1:
        keyed = {_signal_order(s): s for s in signals}
        signals = [keyed[key] for key in sorted(keyed)]
    return _tool_roles(tool.name, index, tuple(signals), tuple(params), tuple(offered), read_only)


# A short letter code and one or more numbers: an identifier ("SH-014", "PI-002", "CVE-2024-1").
_CODE_ID = re.compile(r"[A-Za-z]{1,8}(?:[-_]\d+)+")


def value_roles(value: str, vocab: RoleVocabulary | None = None) -> list[tuple[str, str]]:
    """(role, term) pairs a schema value gives when read the way a tool name is ("drop_table",
    "rm -rf /", "unlink"): the value names an action the tool would take."""
    if _CODE_ID.fullmatch(value):
        return []  # "SH-014", "CVE-2024-3094": a rule or record identifier, not an action
    vocab = vocab or vocabulary()
    lemmas = vocab.lemmas.get
    tokens = [lemmas(t, t) for t in name_tokens(value)]
    if not tokens:
        return []
    found = _name_signals(tokens, 0, vocab, _role_index(vocab), what="value")
    return [(s.role, s.term) for s in found]


def _surface_roles(surface: ServerSurface) -> tuple[ToolRoles, ...]:
    vocab = vocabulary()
    return tuple(derive_roles(tool, i, vocab) for i, tool in enumerate(surface.tools))


# Roles of every tool. Capability, flow, the fleet checks and the pipeline all ask for the same
# frozen surfaces, so recent answers are kept (by identity, the surface held alive).
surface_roles: IdentityMemo[ServerSurface, tuple[ToolRoles, ...]] = IdentityMemo(_surface_roles)


def tool_roles(surface: ServerSurface) -> dict[str, tuple[str, ...]]:
    """Tool name -> its roles (what `ToolResult.roles` reports)."""
    out: dict[str, tuple[str, ...]] = {}
    for derived in surface_roles(surface):
        out.setdefault(derived.tool, derived.roles)
    return out

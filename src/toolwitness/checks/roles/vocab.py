"""The role vocabulary (`data/roles.yaml`), loaded once and validated.

Words are literal lemmas; this module adds their inflections so matching is one dictionary
lookup per token (no regexes from data). A malformed file is a packaging bug: `InternalError`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from toolwitness.datafiles import data_files
from toolwitness.errors import InternalError
from toolwitness.plainclass import field, plainclass
from toolwitness.yamlload import load_yaml

ROLE_NAMES = (
    "untrusted-input",
    "sensitive-source",
    "credential-access",
    "external-sink",
    "network",
    "code-exec",
    "file-write",
    "state-write",
    "destructive",
)
_SOURCES = ("name", "description", "parameter")
_RULE_KEYS = frozenset(
    {
        "from",
        "any",
        "verbs",
        "objects",
        "shapes",
        "corroborate",
        "readonly_exempt",
        "unconstrained_only",
        "when_verb",
        "corroborate_led",
        "unless",
    }
)
_FLAGS = ("from", "readonly_exempt", "unconstrained_only", "corroborate_led")
_CAPABILITY_KEYS = frozenset(
    {"does", "explained_by", "last_token", "needs_verb", "said_by", "except_names"}
)
_SHAPE_KEYS = frozenset({"names", "last_token", "formats", "types", "except_tokens"})
_JSON_TYPES = frozenset({"string", "object", "array", "number", "integer", "boolean", "null"})
_MAX_ITEMS = 2000
_MAX_WORD = 60


@plainclass(frozen=True)
class RoleRule:
    role: str
    source: str  # name | description | parameter
    any: frozenset[str] = frozenset()
    verbs: frozenset[str] = frozenset()
    objects: frozenset[str] = frozenset()
    shapes: frozenset[str] = frozenset()
    corroborate: frozenset[str] = frozenset()
    when_verb: frozenset[str] = frozenset()  # name `any`: only if the name's verb is one of these
    readonly_exempt: bool = False
    unconstrained_only: bool = False  # parameter rules: a narrowed parameter does not count
    # corroborated only by a name token or a verb in verb position, not by a noun reading
    # ("Sends mail to the recipient", not "checks an email address")
    corroborate_led: bool = False
    # parameter rules: words of the name or the prose that say the parameter is not what the
    # shape suggests ("an arithmetic expression" is no program)
    unless: frozenset[str] = frozenset()


@plainclass(frozen=True)
class ShapeRule:
    names: frozenset[str]
    last_token: frozenset[str]
    formats: frozenset[str]
    # JSON types a parameter of this shape has ("string" when absent in the data; an untyped
    # parameter counts as a string)
    types: frozenset[str] = frozenset({"string"})
    # a name holding one of these tokens is not of the shape ("page_token" is no credential)
    except_tokens: frozenset[str] = frozenset()


@plainclass(frozen=True)
class ShapeCapability:
    """What a parameter of one shape lets a tool do (TW-CAP-014), and the roles of a stated
    purpose that account for it."""

    does: str
    explained_by: frozenset[str]
    # "any": any role of the purpose accounts for it (a credential on a service client)
    any_role: bool = False
    # when set, only a name joined as one of the shape's names, or whose last token is one of
    # these, counts ("python_code" and "run_script", not "promo_code")
    last_token: frozenset[str] | None = None
    needs_verb: bool = False  # in full only when a name token is a verb ("upload_url")
    said_by: frozenset[str] = frozenset()  # purpose words that say the tool needs it
    except_names: frozenset[str] = frozenset()  # joined names too ambiguous to count


@plainclass(frozen=True)
class RoleVocabulary:
    rules: tuple[RoleRule, ...]
    shapes: dict[str, ShapeRule]
    negators: frozenset[str]
    clause_breaks: frozenset[str]
    reference_openers: frozenset[str]
    verb_leads: frozenset[str]
    ambiguous_verbs: frozenset[str]
    readonly_markers: frozenset[str]
    back_references: frozenset[str]
    pure_objects: frozenset[str]
    post_negators: frozenset[str]
    foreign_actors: frozenset[str]
    negation_window: int
    object_window: int
    lemmas: dict[str, str]  # inflected form -> lemma
    verbs: frozenset[str]  # every word used as a verb anywhere (name verb positions)
    capabilities: dict[str, ShapeCapability] = field(default_factory=dict)  # shape -> capability
    # verbs (every inflection) of a purpose that only reads, computes or presents (TW-CAP-015)
    inert_verbs: frozenset[str] = frozenset()
    # words after a verb that say it is refused ("deleting is not supported", "... disabled")
    refusals_after: frozenset[str] = frozenset()
    permissions: frozenset[str] = frozenset()  # "not" + one of these after a verb refuses it
    # "how", "what" ...: an infinitive after one is content the tool describes ("how to revoke")
    wh_words: frozenset[str] = frozenset()
    # what a tool fetches from a URL parameter (`photo_url`): a source, not a destination
    fetched_objects: frozenset[str] = frozenset()
    # HTTP methods that only read (RFC 9110 safe methods): "send a GET request" reads
    safe_http_methods: frozenset[str] = frozenset()
    # a name's head noun of reporting ("…_status") and the verbs that change such a head
    read_heads: frozenset[str] = frozenset()
    head_changers: frozenset[str] = frozenset()

    def lemma(self, token: str) -> str:
        return self.lemmas.get(token, token)

    def surface_forms(self, words: frozenset[str]) -> frozenset[str]:
        """Every word whose lemma is in `words` (the words and their inflections): a superset
        of the words a token of `words` can come from (tokens are `lemmas.get(word, word)`)."""
        return words | frozenset(form for form, lemma in self.lemmas.items() if lemma in words)


def _flat(value: Any, where: str) -> list[str]:
    """A list of words; YAML aliases may nest one list inside another (flattened here)."""
    if not isinstance(value, list) or len(value) > _MAX_ITEMS:
        raise InternalError(f"roles.yaml {where}: expected a bounded list")
    out: list[str] = []
    for item in value:
        if isinstance(item, list):
            out.extend(_flat(item, where))
        elif isinstance(item, str) and 0 < len(item) <= _MAX_WORD:
            out.append(item.lower())
        else:
            raise InternalError(f"roles.yaml {where}: {item!r} is not a short word")
    return out


def _verb_forms(verb: str) -> set[str]:
    forms = {verb, verb + "s", verb + "es", verb + "ing"}
    if verb.endswith("e"):
        forms.add(verb[:-1] + "ing")
    if verb.endswith("y") and len(verb) > 2 and verb[-2] not in "aeiou":
        forms.add(verb[:-1] + "ies")
    if len(verb) >= 3 and verb[-1] not in "aeiouwxy" and verb[-2] in "aeiou":
        forms.add(verb + verb[-1] + "ing")  # run -> running, commit -> committing
    return forms


def _noun_forms(noun: str) -> set[str]:
    head, _, last = noun.rpartition(" ")
    prefix = head + " " if head else ""
    forms = {last, last + "s", last + "es"}
    if last.endswith("y") and len(last) > 2 and last[-2] not in "aeiou":
        forms.add(last[:-1] + "ies")
    return {prefix + f for f in forms}


def _rule(role: str, raw: Any, where: str) -> RoleRule:
    if not isinstance(raw, dict) or not set(raw) <= _RULE_KEYS or raw.get("from") not in _SOURCES:
        raise InternalError(f"roles.yaml {where}: unknown keys or bad 'from'")
    fields = {k: frozenset(_flat(raw[k], f"{where}.{k}")) for k in raw if k not in _FLAGS}
    rule = RoleRule(
        role=role,
        source=raw["from"],
        readonly_exempt=bool(raw.get("readonly_exempt")),
        unconstrained_only=bool(raw.get("unconstrained_only")),
        corroborate_led=bool(raw.get("corroborate_led")),
        **fields,
    )
    if not (rule.any or rule.verbs or rule.shapes):
        raise InternalError(f"roles.yaml {where}: a rule needs any, verbs or shapes")
    return rule


def _capabilities(raw: Any, shapes: dict[str, ShapeRule]) -> dict[str, ShapeCapability]:
    if not isinstance(raw, dict) or not set(raw) <= set(shapes):
        raise InternalError("roles.yaml capabilities: a mapping from known shapes")
    out: dict[str, ShapeCapability] = {}
    for shape, entry in raw.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("does"), str):
            raise InternalError(f"roles.yaml capabilities.{shape}: needs 'does'")
        given = entry.get("explained_by")
        any_role = given == "any"
        explained = (
            frozenset(ROLE_NAMES) if any_role else frozenset(_flat(given, f"capabilities.{shape}"))
        )
        if not explained or not explained <= set(ROLE_NAMES):
            raise InternalError(f"roles.yaml capabilities.{shape}: explained_by names roles")
        if not set(entry) <= _CAPABILITY_KEYS:
            raise InternalError(f"roles.yaml capabilities.{shape}: unknown keys")
        last = entry.get("last_token")
        out[shape] = ShapeCapability(
            entry["does"],
            explained,
            any_role,
            None if last is None else frozenset(_flat(last, f"capabilities.{shape}")),
            bool(entry.get("needs_verb")),
            frozenset(_flat(entry.get("said_by", []), f"capabilities.{shape}")),
            frozenset(_flat(entry.get("except_names", []), f"capabilities.{shape}")),
        )
    return out


def parse_vocabulary(doc: Any) -> RoleVocabulary:
    if not isinstance(doc, dict) or doc.get("version") != 1:
        raise InternalError("roles.yaml: expected a mapping with version: 1")
    roles = doc.get("roles")
    if not isinstance(roles, dict) or set(roles) != set(ROLE_NAMES):
        raise InternalError(f"roles.yaml: roles must be exactly {sorted(ROLE_NAMES)}")
    rules = tuple(
        _rule(role, raw, f"roles.{role}[{i}]")
        for role in ROLE_NAMES
        for i, raw in enumerate(roles[role] or [])
    )
    shapes: dict[str, ShapeRule] = {}
    for name, raw in (doc.get("parameter_shapes") or {}).items():
        if not isinstance(raw, dict) or not set(raw) <= _SHAPE_KEYS:
            raise InternalError(f"roles.yaml parameter_shapes.{name}: unknown keys")
        types = frozenset(_flat(raw.get("types", ["string"]), f"shape {name}"))
        if not types <= _JSON_TYPES:
            raise InternalError(f"roles.yaml parameter_shapes.{name}: unknown JSON type")
        shapes[str(name)] = ShapeRule(
            names=frozenset(_flat(raw.get("names", []), f"shape {name}")),
            last_token=frozenset(_flat(raw.get("last_token", []), f"shape {name}")),
            formats=frozenset(_flat(raw.get("formats", []), f"shape {name}")),
            types=types,
            except_tokens=frozenset(_flat(raw.get("except_tokens", []), f"shape {name}")),
        )
    capabilities = _capabilities(doc.get("capabilities") or {}, shapes)
    for rule in rules:
        if not rule.shapes <= set(shapes):
            raise InternalError(f"roles.yaml: rule for {rule.role} names an unknown shape")
    verbs = {v for rule in rules for v in rule.verbs}
    verbs |= {w for r in rules if r.role in ("destructive", "state-write") for w in r.any}
    lexicon = doc.get("lexicon") or {}
    for key in ("read_verbs", "write_verbs", "sink_verbs"):
        verbs |= set(_flat(lexicon.get(key, []), f"lexicon.{key}"))
    ambiguous = frozenset(_flat(doc.get("ambiguous_verbs", []), "ambiguous_verbs"))
    verbs |= ambiguous
    lemmas: dict[str, str] = {}
    nouns = {o for r in rules for o in (*r.objects, *r.any, *r.corroborate) if o not in verbs}
    for noun in sorted(nouns):
        for form in _noun_forms(noun):
            lemmas.setdefault(form, noun)
    for verb in sorted(verbs):
        for form in _verb_forms(verb):
            lemmas[form] = verb  # a verb reading wins over a plural noun reading
    for word in nouns | verbs:
        lemmas[word] = word  # a vocabulary word is its own lemma
    return RoleVocabulary(
        rules=rules,
        shapes=shapes,
        negators=frozenset(_flat(doc.get("negators", []), "negators")),
        clause_breaks=frozenset(_flat(doc.get("clause_breaks", []), "clause_breaks")),
        reference_openers=frozenset(_flat(doc.get("reference_openers", []), "reference_openers")),
        verb_leads=frozenset(_flat(doc.get("verb_leads", []), "verb_leads")),
        ambiguous_verbs=ambiguous,
        readonly_markers=frozenset(_flat(doc.get("readonly_markers", []), "readonly_markers")),
        back_references=frozenset(_flat(doc.get("back_references", []), "back_references")),
        pure_objects=frozenset(_flat(doc.get("pure_objects", []), "pure_objects")),
        post_negators=frozenset(_flat(doc.get("post_negators", []), "post_negators")),
        foreign_actors=frozenset(_flat(doc.get("foreign_actors", []), "foreign_actors")),
        fetched_objects=frozenset(_flat(doc.get("fetched_objects", []), "fetched_objects")),
        read_heads=frozenset(_flat(doc.get("read_heads", []), "read_heads")),
        head_changers=frozenset(_flat(doc.get("head_changers", []), "head_changers")),
        negation_window=int(doc.get("negation_window", 4)),
        object_window=int(doc.get("object_window", 8)),
        lemmas=lemmas,
        verbs=frozenset(verbs),
        capabilities=capabilities,
        inert_verbs=frozenset(
            form
            for verb in _flat(lexicon.get("inert_verbs", []), "lexicon.inert_verbs")
            for form in _verb_forms(verb)
        ),
        refusals_after=frozenset(_flat(doc.get("refusals_after", []), "refusals_after")),
        permissions=frozenset(_flat(doc.get("permissions", []), "permissions")),
        wh_words=frozenset(_flat(doc.get("wh_words", []), "wh_words")),
        safe_http_methods=frozenset(_flat(doc.get("safe_http_methods", []), "safe_http_methods")),
    )


@lru_cache(maxsize=1)
def vocabulary() -> RoleVocabulary:
    text = data_files().joinpath("roles.yaml").read_text("utf-8")
    return parse_vocabulary(load_yaml(text))

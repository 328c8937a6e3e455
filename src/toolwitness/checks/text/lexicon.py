"""Word lists for the injection analysis, loaded from `data/lexicon/*.yaml` and validated.

Lists are data, not code: bounded literal words and token sequences, never regexes. A malformed
file is a packaging bug and raises `InternalError` (the scan fails closed, it never runs blind).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from toolwitness.datafiles import data_files
from toolwitness.errors import InternalError
from toolwitness.plainclass import plainclass
from toolwitness.yamlload import load_yaml

_MAX_ITEMS = 2000
_MAX_WORD = 200

Phrase = tuple[str, ...]


def _load(name: str) -> dict[str, Any]:
    text = data_files().joinpath("lexicon", name).read_text("utf-8")
    doc = load_yaml(text)
    if not isinstance(doc, dict):
        raise InternalError(f"lexicon {name} is not a mapping")
    return doc


def words(doc: dict[str, Any], key: str, source: str) -> frozenset[str]:
    value = doc.get(key)
    if not isinstance(value, list) or not 0 < len(value) <= _MAX_ITEMS:
        raise InternalError(f"lexicon {source}:{key} must be a non-empty bounded list")
    out = set()
    for item in value:
        if not isinstance(item, str) or not 0 < len(item) <= _MAX_WORD:
            raise InternalError(f"lexicon {source}:{key} holds a non-string or oversize entry")
        out.add(item.lower())
    return frozenset(out)


def phrases(doc: dict[str, Any], key: str, source: str) -> tuple[Phrase, ...]:
    value = doc.get(key)
    if not isinstance(value, list) or not 0 < len(value) <= _MAX_ITEMS:
        raise InternalError(f"lexicon {source}:{key} must be a non-empty bounded list")
    out: list[Phrase] = []
    for item in value:
        seq = item if isinstance(item, list) else [item]
        if not seq or len(seq) > 12 or not all(isinstance(w, str) and w for w in seq):
            raise InternalError(f"lexicon {source}:{key} holds a malformed phrase")
        out.append(tuple(w.lower() for w in seq))
    return tuple(out)


@plainclass(frozen=True)
class TargetCategory:
    name: str
    label: str
    literals: tuple[str, ...]
    exclude_suffixes: tuple[str, ...]
    domain: frozenset[str]
    # a plain noun phrase of this category heading a description can be the tool's purpose
    # ("Exports all messages in a channel"); for keys and secrets it never is
    names_purpose: bool = False


@plainclass(frozen=True)
class ChatWebhook:
    host: str
    path: str


@plainclass(frozen=True)
class Lexicon:
    verbs: dict[str, frozenset[str]]
    negators: frozenset[str]
    non_negating: tuple[Phrase, ...]
    model_words: frozenset[str]
    user_words: frozenset[str]
    model_vocatives: tuple[Phrase, ...]
    framing: dict[str, Any]
    targets: tuple[TargetCategory, ...]
    params: dict[str, Any]
    urls: dict[str, frozenset[str]]
    chat_webhooks: tuple[ChatWebhook, ...]
    shell: dict[str, Any]
    intent: dict[str, Any]
    secrets: dict[str, Any]
    sets: dict[str, frozenset[str]]
    other_tool_refs: tuple[Phrase, ...]


_FRAMING_PHRASES = (
    "modal_openers", "identity", "secrecy_phrases", "sequence_markers", "universal_scope",
    "local_scope", "ranking_claims", "example_markers",
)  # fmt: skip
_FRAMING_WORDS = (
    "openers", "authority_markers", "authority_tags", "override_objects", "override_qualifiers",
    "secrecy_adverbs", "concealed_objects", "ranking_verbs", "ranking_disparagement",
    "attack_nouns", "nullifiers", "validity", "quantifiers", "scope_modifiers", "scope_nouns",
    "turn_nouns",
    "reported_text_nouns", "reporting_verbs", "reporting_verbs_plural",
)  # fmt: skip


def _targets(doc: dict[str, Any]) -> tuple[TargetCategory, ...]:
    cats = doc.get("categories")
    if not isinstance(cats, dict) or not cats:
        raise InternalError("lexicon targets.yaml needs categories")
    out = []
    for name, body in sorted(cats.items()):
        if not isinstance(body, dict) or not isinstance(body.get("label"), str):
            raise InternalError(f"lexicon targets.yaml:{name} is malformed")
        excl = (
            tuple(sorted(words(body, "exclude_suffixes", name)))
            if "exclude_suffixes" in body
            else ()
        )
        out.append(
            TargetCategory(
                name=name,
                label=body["label"],
                literals=tuple(sorted(words(body, "literals", name), key=lambda s: (-len(s), s))),
                exclude_suffixes=excl,
                domain=words(body, "domain", name),
                names_purpose=body.get("names_purpose") is True,
            )
        )
    return tuple(out)


def _actions(doc: dict[str, Any]) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    raw = doc.get("actions")
    if not isinstance(raw, list) or not raw:
        raise InternalError("lexicon intent.yaml needs actions")
    out = []
    for k, pair in enumerate(raw):
        if not isinstance(pair, dict):
            raise InternalError(f"lexicon intent.yaml:actions[{k}] is not a mapping")
        out.append((words(pair, "verbs", "intent"), words(pair, "objects", "intent")))
    return tuple(out)


@lru_cache(maxsize=1)
def lexicon() -> Lexicon:
    verbs_doc = _load("verbs.yaml")
    neg = _load("negation.yaml")
    addr = _load("addressee.yaml")
    fr = _load("framing.yaml")
    par = _load("params.yaml")
    url = _load("urls.yaml")
    shell_doc = _load("shell.yaml")
    it = _load("intent.yaml")
    sec = _load("secrets.yaml")
    st = _load("structure.yaml")
    framing: dict[str, Any] = {k: phrases(fr, k, "framing") for k in _FRAMING_PHRASES}
    framing.update({k: words(fr, k, "framing") for k in _FRAMING_WORDS})
    return Lexicon(  # noqa: S604 (a field named shell, not a subprocess)
        verbs={k: words(verbs_doc, k, "verbs") for k in verbs_doc},
        negators=words(neg, "negators", "negation"),
        non_negating=phrases(neg, "non_negating", "negation"),
        model_words=words(addr, "model", "addressee"),
        user_words=words(addr, "user", "addressee"),
        model_vocatives=phrases(addr, "model_vocatives", "addressee"),
        framing=framing,
        targets=_targets(_load("targets.yaml")),
        params={
            "side_channel_names": words(par, "side_channel_names", "params"),
            "data_sources": phrases(par, "data_sources", "params"),
            "hidden_param_markers": phrases(par, "hidden_param_markers", "params"),
            "reference_parts": words(par, "reference_parts", "params"),
        },
        urls={k: words(url, k, "urls") for k in ("collectors", "tunnels", "paste", "shorteners",
                                                 "file_hosts", "fiction_numbers")},
        chat_webhooks=tuple(ChatWebhook(**w) for w in url.get("chat_webhooks") or []),
        shell={
            **{k: words(shell_doc, k, "shell") for k in ("fetchers", "interpreters", "decoders",
                                                     "code_evaluators", "remote_readers")},
            **{k: words(shell_doc, k, "shell") for k in ("upload_flags", "output_flags",
                                                     "launchers")},
            "dangerous": phrases(shell_doc, "dangerous", "shell"),
            "trust_changes": phrases(shell_doc, "trust_changes", "shell"),
        },
        intent={
            "verbs": words(it, "verbs", "intent"),
            "markers": words(it, "markers", "intent"),
            "phrases": phrases(it, "phrases", "intent"),
            "actions": _actions(it),
            "attack_heads": words(it, "attack_heads", "intent"),
        },
        secrets={
            "private_key_markers": tuple(sorted(words(sec, "private_key_markers", "secrets"))),
            "assignment_names": words(sec, "assignment_names", "secrets"),
            "placeholders": words(sec, "placeholders", "secrets"),
        },
        sets={k: words(st, k, "structure") for k in st if k != "other_tool_refs"},
        other_tool_refs=phrases(st, "other_tool_refs", "structure"),
    )


_SECOND_PERSON = frozenset({"you", "your", "yourself"})
_NAMES: dict[int, tuple[Lexicon, frozenset[str], frozenset[str]]] = {}


def _model_name_sets(lex: Lexicon) -> tuple[frozenset[str], frozenset[str]]:
    held = _NAMES.get(id(lex))
    if held is None or held[0] is not lex:
        names = lex.model_words - _SECOND_PERSON
        held = _NAMES[id(lex)] = (lex, names, frozenset(f"{w}'s" for w in names))
    return held[1], held[2]


def model_names(lex: Lexicon) -> frozenset[str]:
    """The words of `addressee.yaml` that name the model ("assistant", "llm", "claude"), without
    the second person that addresses anyone."""
    return _model_name_sets(lex)[0]


def model_possessives(lex: Lexicon) -> frozenset[str]:
    """ "assistant's", "model's": the model's own things (its settings are its instructions)."""
    return _model_name_sets(lex)[1]

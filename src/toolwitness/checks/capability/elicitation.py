"""TW-CAP-020..022: sampling and elicitation, and elicitation that asks the user for a secret.

What a server will elicit is visible in two places: structures under `capabilities.elicitation`
(some servers and snapshots carry example request schemas there) and prose that describes the
request ("prompts the user for their API key"). Negated prose ("never asks for your password")
does not count.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

from toolwitness.checks.injection.slots import slots
from toolwitness.checks.interface import CheckContext, server_check
from toolwitness.checks.roles.prose import is_negated
from toolwitness.checks.roles.text import _SECRET_PATH_MARKERS as SECRET_PATH_MARKERS
from toolwitness.checks.roles.text import clauses, name_tokens
from toolwitness.checks.roles.vocab import RoleVocabulary, vocabulary
from toolwitness.checks.text.language import analyse
from toolwitness.findings import Confidence, Finding, Severity, Witness
from toolwitness.literals import contains_any
from toolwitness.model import ServerSurface
from toolwitness.textnorm import nfc

_ASK_VERBS = frozenset({"ask", "prompt", "elicit", "request", "collect", "solicit", "query"})
_ADDRESSEES = frozenset({"user", "you", "human", "operator", "customer"})
_MAX_NODES = 2000


def _secret_words(vocab: RoleVocabulary) -> frozenset[str]:
    return frozenset(
        o
        for r in vocab.rules
        if r.role == "credential-access" and r.source == "description"
        for o in r.objects
    )


def _structure_secrets(node: Any, secrets: frozenset[str], vocab: RoleVocabulary) -> list[str]:
    """Secret words in the keys and strings of a capability structure (bounded walk)."""
    found: set[str] = set()
    stack, seen = [node], 0
    while stack and seen < _MAX_NODES:
        item = stack.pop()
        seen += 1
        texts: list[str] = []
        if isinstance(item, dict):
            texts.extend(str(k) for k in item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, str):
            texts.append(item)
        for text in texts:
            tokens = [vocab.lemma(t) for t in name_tokens(text)]
            pairs = [vocab.lemma(f"{a} {b}") for a, b in itertools.pairwise(tokens)]
            found.update(t for t in (*tokens, *pairs) if t in secrets)
    return sorted(found)


def _secret_needles(secrets: frozenset[str], vocab: RoleVocabulary) -> tuple[str, ...]:
    """Substrings one of which every secret hit needs. A hit is a clause token, or the lemma of
    a pair of adjacent tokens, that is in `secrets`; either way its last word is the lemma of a
    token, so some surface form of that last word is in the lowered text. A path chunk becomes
    the token `secret-path` only when it holds one of role_text's secret-path markers."""
    keys = vocab.surface_forms(secrets)
    needles = set(vocab.surface_forms(frozenset(k.split()[-1] for k in keys)))
    if "secret-path" in keys:
        needles |= set(SECRET_PATH_MARKERS)
    return tuple(sorted(needles))


_FORMS: dict[int, tuple[RoleVocabulary, frozenset[str], tuple[Callable[[str], bool], ...]]] = {}


def _may_ask(text: str, secrets: frozenset[str], vocab: RoleVocabulary) -> bool:
    """A necessary condition for `_asks_for_secret`: some addressee, some asking verb and some
    secret occur as substrings of the lowered text. Clause tokens are pieces of
    `nfc(text).lower()` (stripped of quotes and hyphens) mapped through the lemma table, so a
    clause holding such a lemma implies one of its surface forms is a substring. The synthetic
    tokens url and path are in none of the sets; secret-path is handled by `_secret_needles`."""
    held = _FORMS.get(id(vocab))
    if held is None or held[0] is not vocab or held[1] != secrets:
        tests = (
            contains_any(vocab.surface_forms(_ADDRESSEES)),
            contains_any(vocab.surface_forms(_ASK_VERBS)),
            contains_any(_secret_needles(secrets, vocab)),
        )
        held = _FORMS[id(vocab)] = (vocab, secrets, tests)
    lower = nfc(text).lower().replace("’", "'")  # as `roles.text` tokenises it
    addressee, ask, secret = held[2]
    # the rarest first: most descriptions name no secret at all
    return secret(lower) and ask(lower) and addressee(lower)


def _asks_for_secret(text: str, secrets: frozenset[str], vocab: RoleVocabulary) -> str | None:
    if not _may_ask(text, secrets, vocab):
        return None
    # a sentence that documents attacks ("Reviews definitions for poisoning: requests for
    # credentials, …") describes the asking, it does not ask: read the other sentences only
    analysis = analyse(text)
    if any(s.documentary_from is not None for s in analysis.sentences):
        text = " ".join(text[s.start : s.end] for s in analysis.sentences
                        if s.documentary_from is None)  # fmt: skip
    for clause in clauses(text, vocab):
        if not _ADDRESSEES & set(clause.tokens):
            continue
        for at, token in enumerate(clause.tokens):
            if token in _ASK_VERBS and not is_negated(clause, at, vocab):
                tail = clause.tokens[at + 1 :]
                pairs = [vocab.lemma(f"{a} {b}") for a, b in itertools.pairwise(tail)]
                hit = next((t for t in (*pairs, *tail) if t in secrets), None)
                if hit:
                    return f"{token} … {hit}"
    return None


@server_check("capability.client-features", ["TW-CAP-020", "TW-CAP-021", "TW-CAP-022"])
def client_features(surface: ServerSurface, ctx: CheckContext) -> Iterator[Finding]:
    caps = surface.capabilities or {}
    vocab = vocabulary()
    secrets = _secret_words(vocab)
    if "sampling" in caps:
        yield ctx.rules.finding(
            "TW-CAP-020",
            tool=None,
            location="capabilities.sampling",
            message="the server declares the sampling capability",
            witnesses=(Witness(kind="field", path=("capabilities.sampling",)),),
        )
    elicits = "elicitation" in caps
    if elicits:
        yield ctx.rules.finding(
            "TW-CAP-021",
            tool=None,
            location="capabilities.elicitation",
            message="the server declares the elicitation capability",
            witnesses=(Witness(kind="field", path=("capabilities.elicitation",)),),
        )
        asked = _structure_secrets(caps["elicitation"], secrets, vocab)
        if asked:
            yield ctx.rules.finding(
                "TW-CAP-022",
                tool=None,
                location="capabilities.elicitation",
                message="an elicitation request shape asks for a secret",
                evidence=", ".join(asked[:5]),
                witnesses=(
                    Witness(
                        kind="field", path=("capabilities.elicitation",), detail="secret field"
                    ),
                ),
            )
    prose: list[tuple[str | None, str, str]] = [(None, "instructions", surface.instructions or "")]
    prose += [
        (t.name, f"tools[{i}].description", t.description or "")
        for i, t in enumerate(surface.tools)
    ]
    keepers = slots().members["secret_keeper"]
    for tool, location, text in prose:
        hit = _asks_for_secret(text, secrets, vocab) if text else None
        if hit is None:
            continue
        if not elicits and tool is not None and not keepers.isdisjoint(name_tokens(tool)):
            continue  # a vault or sign-in step asking for the master password: its own job
        yield ctx.rules.finding(
            "TW-CAP-022",
            tool=tool,
            location=location,
            message="the text describes asking the user for a secret",
            evidence=hit,
            witnesses=(Witness(kind="field", symbol=tool, path=(location,), detail=hit),),
            severity=None if elicits else Severity.MEDIUM,
            confidence=Confidence.STRONG if elicits else Confidence.HEURISTIC,
        )

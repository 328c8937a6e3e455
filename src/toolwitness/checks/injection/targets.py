"""Detectors about *what* an instruction touches: sensitive targets, other tools, harmful intent.

A sensitive target only counts where it is not negated ("never reads ~/.ssh/id_rsa"), not in
documentation of attacks, and not part of the tool's stated purpose (an SSH tool may name keys).
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

from toolwitness.checks.crosstool.parties import shown_as_example
from toolwitness.checks.injection.frames import skipped
from toolwitness.checks.injection.frames_shadow import DESTINATION_NOUNS
from toolwitness.checks.injection.model import INTENT, SENSITIVE, SHADOWING, FieldContext, Signal
from toolwitness.checks.injection.slots import attack_topic, held_union, slots
from toolwitness.checks.injection.triggers import ASSIGN_WORDS, EARLIER_WORDS
from toolwitness.checks.roles.vocab import vocabulary
from toolwitness.checks.text.language import (
    Analysis,
    Sentence,
    Token,
    analyse,
    base_form,
    find_phrases,
    split_identifier,
)
from toolwitness.checks.text.lexicon import Lexicon, TargetCategory
from toolwitness.checks.text.wordnet import lexical_classes, verb_lemmas
from toolwitness.findings import Severity

_EMAIL = re.compile(r"[A-Za-z0-9._%+\-]{1,64}@[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63}){1,8}")
_URLISH = re.compile(r"https?://[^\s\"'<>`]{1,500}")


def _boundary(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    lit_first, lit_last = text[start], text[end - 1]
    ok_before = not before.isalnum() or not lit_first.isalnum()
    ok_after = not (after.isalnum() or after == "_") or not lit_last.isalnum()
    return ok_before and ok_after


_RUN = re.compile(r"[a-z0-9]+")
# Per literal, its ASCII letter/digit runs, indexed by its longest run (the anchor).
_Index = dict[str, tuple[tuple[str, frozenset[str]], ...]]
_ANCHORS: dict[int, tuple[tuple[TargetCategory, ...], _Index]] = {}
# Per category: its literals with their runs, and the runs of which every literal holds one
# (its longest), or None when some literal has no run (then every text is searched).
_Literals = tuple[tuple[tuple[str, frozenset[str]], ...], frozenset[str] | None]
_LITERALS: dict[int, tuple[TargetCategory, _Literals]] = {}


def _runs_of(literal: str) -> frozenset[str]:
    return frozenset(_RUN.findall(literal))


def _anchors(lex: Lexicon) -> _Index:
    held = _ANCHORS.get(id(lex.targets))
    if held is None or held[0] is not lex.targets:
        index: dict[str, set[tuple[str, frozenset[str]]]] = {}
        for cat in lex.targets:
            for lit in cat.literals:
                anchor = max(_RUN.findall(lit), key=lambda r: (len(r), r))
                index.setdefault(anchor, set()).add((lit, _runs_of(lit)))
        frozen = {k: tuple(sorted(v, key=lambda e: e[0])) for k, v in index.items()}
        held = _ANCHORS[id(lex.targets)] = (lex.targets, frozen)
    return held[1]


def _literal_runs(cat: TargetCategory) -> _Literals:
    held = _LITERALS.get(id(cat))
    if held is None or held[0] is not cat:
        pairs = tuple((lit, _runs_of(lit)) for lit in cat.literals)
        anchors = (
            frozenset(max(need, key=lambda r: (len(r), r)) for _, need in pairs)
            if all(need for _, need in pairs)
            else None
        )
        held = _LITERALS[id(cat)] = (cat, (pairs, anchors))
    return held[1]


def _runs(lower: str) -> frozenset[str]:
    return frozenset(_RUN.findall(lower))


_runs_cached = lru_cache(maxsize=4096)(_runs)


def _text_runs(lower: str) -> frozenset[str]:
    """Cached for short texts only (long hostile texts would pin memory)."""
    return _runs_cached(lower) if len(lower) <= 4000 else _runs(lower)


def text_runs(lower: str) -> frozenset[str]:
    """The [a-z0-9] runs of a folded text (the same cache as the target search's)."""
    return _text_runs(lower)


def mentions_any_target(lower: str, lex: Lexicon) -> bool:
    """A superset test before the per-literal search: a literal found at token boundaries has
    each of its letter/digit runs as a whole run of the text (its edges are not alphanumeric or
    its neighbours are not), so some literal must have all its runs among the text's runs."""
    return mentions_in_runs(_text_runs(lower), lex)


def mentions_in_runs(runs: frozenset[str], lex: Lexicon) -> bool:
    """`mentions_any_target` given the text's letter/digit runs."""
    return mentions_in_index(runs, _anchors(lex))


def target_anchors(lex: Lexicon) -> _Index:
    """Per literal of every category, its letter/digit runs, keyed by its longest run."""
    return _anchors(lex)


def mentions_in_index(runs: frozenset[str], index: _Index) -> bool:
    """`mentions_in_runs` given the lexicon's anchor index."""
    for anchor in runs & index.keys():
        for _, need in index[anchor]:
            if need <= runs:
                return True
    return False


def word_runs(text: str, lower: str, words: frozenset[str]) -> frozenset[str]:
    """The letter/digit runs of `lower` (the fold of `text`), from its word set when ASCII.

    For ASCII text `words` are the TOKEN matches of `lower` plus parts of hyphenated ones. Every
    [a-z0-9] character is a word character, and a greedy TOKEN match never stops right before
    one, so each run lies inside one token and is a whole run there; the characters around a
    token are not [a-z0-9]. So the runs of the text are the runs of its tokens (hyphen parts add
    only runs of their token): an alphanumeric word is its own run, the others are split."""
    if not text.isascii():
        return _text_runs(lower)
    if "".join(words).isalnum():  # words are never empty: each is its own run
        return words
    out = {w for w in words if w.isalnum()}
    for w in words:
        if not w.isalnum():
            out.update(_RUN.findall(w))
    return frozenset(out)


def target_hits(lower: str, cat: TargetCategory) -> Iterator[tuple[int, int]]:
    """Occurrences of the category's literals at token boundaries (longest literal wins).
    Literals missing one of their runs cannot occur at token boundaries and are not searched."""
    runs = _text_runs(lower)
    pairs, anchors = _literal_runs(cat)
    if anchors is not None and anchors.isdisjoint(runs):
        return  # every literal needs one of these runs (most texts, for most categories)
    taken: list[tuple[int, int]] = []
    covered: set[int] = set()  # literals are short, so marking their offsets stays linear
    for lit, need in pairs:
        if not need <= runs:
            continue
        at = lower.find(lit)
        while at >= 0:
            end = at + len(lit)
            if lower[end : end + 1] == "s" and lit[-1:].isalpha() and _boundary(lower, at, end + 1):
                end += 1  # the plural: "system messages", "recovery codes"
            if _boundary(lower, at, end) and at not in covered:
                tail = lower[end : end + 8]
                if not any(tail.startswith(s) for s in cat.exclude_suffixes):
                    taken.append((at, end))
                    covered.update(range(at, end))
            at = lower.find(lit, end)
    yield from sorted(taken)


def _categories_in(lower: str, lex: Lexicon) -> list[TargetCategory]:
    """The categories, in order, for which `target_hits(lower, cat)` may find something: the
    others are passed over by its first test (their anchors are not runs of the text)."""
    runs = _text_runs(lower)
    out = []
    for cat in lex.targets:
        anchors = _literal_runs(cat)[1]
        if anchors is None or not anchors.isdisjoint(runs):
            out.append(cat)
    return out


def _related(ctx: FieldContext, cat: TargetCategory) -> bool:
    return bool(ctx.purpose & cat.domain)


def _named_for(literal: str, ctx: FieldContext) -> bool:
    """Every word of the target as written is a word of the tool's name or title."""
    words = split_identifier(literal)
    return bool(words) and all(w in ctx.identity or w.rstrip("s") in ctx.identity for w in words)


def _names_a_param(words: list[str], params: frozenset[str]) -> bool:
    """Some word of the sentence is one of the tool's parameters: the gate of the readings
    below, which look for a token naming one. (A token opens and ends with a word character,
    never a quote, so the quotes they strip from it are never there: its name is the word.)"""
    return not params.isdisjoint(words)


def _routed_params(text: str, sentence: Sentence, ctx: FieldContext) -> Iterator[str]:
    """The tool's own parameters the sentence puts something into: named in code quotes or
    with "field"/"parameter" after them, with in/into/to before them ("put them in `memo`")."""
    words = sentence.words()
    if not _names_a_param(words, ctx.params):
        return
    for k, tok in enumerate(sentence.tokens):
        name = words[k].strip("`'\"")
        if name not in ctx.params:
            continue
        quoted = text[tok.start - 1 : tok.start] in _CODE_QUOTES if tok.start else False
        named = quoted or words[k + 1 : k + 2] in (["field"], ["parameter"], ["argument"])
        if named and not _INTO.isdisjoint(words[max(0, k - 3) : k]):
            yield name


def _into_own_field(text: str, sentence: Sentence, ctx: FieldContext, cat: TargetCategory) -> bool:
    """Every parameter the sentence routes into is named for this kind of secret: its words
    hold a secret word or all words of one of the category's literals (`card_number`)."""
    routed = list(_routed_params(text, sentence, ctx))
    return bool(routed) and all(_named_for_secret(name, cat) for name in routed)


def _named_for_secret(name: str, cat: TargetCategory | None = None) -> bool:
    """A parameter whose name holds a secret noun (`password`, `otp_code`; a modifier is not
    one: `auth_blob` is a blob), or all words of one of the category's literals
    (`card_number`, `cvv`)."""
    parts = set(split_identifier(name))
    if not slots().members["secret"].isdisjoint(parts):
        return True
    return cat is not None and any(set(lit.split()) <= parts for lit in cat.literals)


def into_secret_fields(text: str, sentence: Sentence, ctx: FieldContext) -> bool:
    """The sentence routes into the tool's own parameters only, each named for a secret
    (`password`, `otp_code`): a sign-in tool saying where its secret goes."""
    routed = list(_routed_params(text, sentence, ctx))
    return bool(routed) and all(_named_for_secret(name) for name in routed)


def _quoted_side_field(
    text: str, sentence: Sentence, ctx: FieldContext, cat: TargetCategory
) -> bool:
    """Not English (under two English function words), and a quoted parameter of the tool's
    own (`codice`, 'codice', "codice") not named for the secret (no secret noun, no literal of
    its category: `cvv`)."""
    words = sentence.words()
    if not _names_a_param(words, ctx.params):
        return False
    plain = slots().members["function_words"]
    if sum(1 for w in words if w in plain) >= 2:
        return False
    chunk = text[sentence.start : sentence.end]
    accented = any(c.isalpha() and not c.isascii() for c in chunk)
    for k, tok in enumerate(sentence.tokens):
        name = words[k].strip("`")
        if name not in ctx.params or _named_for_secret(name, cat):
            continue
        quoted = tok.start > 0 and text[tok.start - 1 : tok.start] in _CODE_QUOTES
        # bare, among letters no English word has ("в полі pidtverdzhennia", "ในช่อง
        # verify_data", "nel campo note"): an identifier or a parameter's name
        if quoted or (accented and ("_" in name or len(name) >= 4)):
            return True
    return False


def _side_field(text: str, sentence: Sentence, ctx: FieldContext) -> bool:
    """The sentence names one of the tool's own parameters that is not made for a secret
    ("put them in `signing_note`", "drop them into `profile_blob`"): a secret routed into a
    note, memo or blob is carried where nothing needs it, whatever the tool is for. A parameter
    named for a secret (`password`, `otp_code`, `pin`) is where a related tool takes one."""
    # (a plain word such as "file" or "host" is prose, not the parameter: `_routed_params`)
    return any(not _named_for_secret(name) for name in _routed_params(text, sentence, ctx))


_INTO = frozenset({"in", "into", "inside", "to", "under", "within"})


_CODE_QUOTES = frozenset({"`", "'", '"'})


@lru_cache(maxsize=1)
def _asking_words() -> frozenset[str]:
    return slots().of("transfer", "acquire")


def _asks_for(sentence: Sentence) -> bool:
    """A WordNet verb of gathering or moving ("ask the traveller for …", "take", "collect"),
    not negated: read only for a sentence that routes into a side field."""
    asking = _asking_words()
    return any(
        t.text in asking and not clause.negated(k)
        for clause in sentence.clauses
        for k, t in enumerate(clause.tokens)
    )


def _names_argument(text: str, sentence: Sentence, ctx: FieldContext) -> bool:
    """One of the tool's own arguments named as one: in code quotes, an identifier with an
    underscore, or after an into-word ("in `trace`", "into ref_code", "to the notes field")."""
    words = sentence.words()
    if not _names_a_param(words, ctx.params):
        return False
    for k, tok in enumerate(sentence.tokens):
        name = words[k].strip("`'\"")
        if name not in ctx.params:
            continue
        quoted = tok.start > 0 and text[tok.start - 1 : tok.start] in _CODE_QUOTES
        if quoted or "_" in name or words[k - 1 : k] in (["in"], ["into"], ["to"]):
            return True
    return False


def _acts_on(
    sentence: Sentence, lex: Lexicon, ctx: FieldContext | None = None, text: str = ""
) -> bool:
    """A verb of reading or sending outside a negation ("never put it in the field" is not),
    or of assigning when one of the tool's own arguments is named ("log the card number in
    `trace`", "set `units` to …")."""
    verbs = held_union(lex, "moves", lambda: lex.verbs["acquire"] | lex.verbs["transfer"])
    # (+ the WordNet classes of the frames: "preceded by a call carrying the contents of …")
    moving = slots().members["transfer"]
    names_argument = ctx is not None and _names_argument(text, sentence, ctx)
    return any(
        (base_form(t.text, verbs) is not None or t.text in moving
         or (names_argument and base_form(t.text, ASSIGN_WORDS) is not None
             and ctx is not None and t.text not in ctx.identity)) and not clause.negated(k)
        for clause in sentence.clauses
        for k, t in enumerate(clause.tokens)
    )  # fmt: skip


def redacted(analysis: Analysis, sentence: Sentence, lex: Lexicon) -> bool:
    """The sentence masks, redacts or replaces with placeholders (a redaction word outside a
    negation) and sends nothing to an address or an argument: a privacy feature. "Do not
    redact the key" and "mask it, then post the full key to https://…" stay findings."""
    redaction = lex.sets["redaction"]
    hit = any(
        t.text in redaction and not clause.negated(k)
        for clause in sentence.clauses
        for k, t in enumerate(clause.tokens)
    ) or _left_out(sentence)
    if not hit or _egress(sentence, analysis, lex):
        return False
    # "collect the user's key and mask it in the notes": gathered first, then masked
    acquire = lex.verbs["acquire"]
    return not any(
        clause.directive
        and any(_gathers(clause.tokens, k, acquire) for k in range(len(clause.tokens)))
        for clause in sentence.clauses
    )


def _left_out(sentence: Sentence) -> bool:
    """A statement (no order in the clause) that something is omitted, excluded, withheld or
    left out ("date of birth … are left out of this tool's output by design"): what the tool
    keeps back is protected, not read or sent."""
    conceal = slots().members["conceal"]
    for clause in sentence.clauses:
        if clause.directive:
            continue
        words = [t.text for t in clause.tokens]
        for k, w in enumerate(words):
            if clause.negated(k):
                continue
            if (w in conceal and w.endswith(("ed", "en", "held"))) or (
                w == "left" and words[k + 1 : k + 2] == ["out"]
            ):
                return True
    return False


def _gathers(tokens: Sequence[Token], k: int, acquire: frozenset[str]) -> bool:
    """A verb of reading at `k`, not the modifier of a secret noun after it ("access tokens")."""
    if base_form(tokens[k].text, acquire) is None:
        return False
    nxt = tokens[k + 1].text if k + 1 < len(tokens) else ""
    return "secret" not in slots().tags(nxt)


def _egress(sentence: Sentence, analysis: Analysis, lex: Lexicon) -> bool:
    """Data leaves: sent to an address, or put into an argument of a tool call."""
    chunk = analysis.text[sentence.start : sentence.end]
    words = sentence.words()
    moves = any(base_form(w, lex.verbs["transfer"]) is not None for w in words)
    to_address = bool(_URLISH.search(chunk)) or bool(_EMAIL.search(chunk))
    return moves and (to_address or bool(lex.sets["argument_words"] & set(words)))


# A secret the tool makes: generated, issued or minted by it is its product, not something it
# reads or sends of the user's ("a temporary password is generated", "issues an API token").
_ISSUE = frozenset({"generate", "generates", "generated", "generating", "issue", "issues",
                    "issued", "issuing", "mint", "mints", "minted", "minting", "create",
                    "creates", "created", "creating", "rotate", "rotates", "rotated"})  # fmt: skip


def _issued(analysis: Analysis, start: int, end: int, lex: Lexicon) -> bool:
    """A creation verb within three words of the target, in its clause, not negated, with no
    verb of reading or sending between them ("creates and sends the user's API key" moves it)."""
    found = analysis.clause_at(start)
    if found is None:
        return False
    clause, index = found
    words = [t.text for t in clause.tokens]
    last = next((k for k in range(index, len(clause.tokens)) if clause.tokens[k].end >= end),
                index)  # fmt: skip
    moves = held_union(lex, "moves", lambda: lex.verbs["acquire"] | lex.verbs["transfer"])
    for k in range(max(0, index - 4), min(len(words), last + 4)):
        if words[k] not in _ISSUE or clause.negated(k):
            continue
        between = words[k + 1 : index] if k < index else words[last + 1 : k]
        if not any(base_form(w, moves) is not None for w in between):
            return True
    return False


_BE_REFUSED = frozenset({"is", "are", "was", "were", "be", "been", "get", "gets", "always"})


_LIKE_ARTICLES = ("a ", "an ", "the ", "any ")


def _likened(analysis: Analysis, start: int) -> bool:
    """The target is what something is compared with ("treat the URL like a password", "keep it
    as safe as your API key"): "like" or "as safe/secret as" right before it."""
    before = analysis.lower[max(0, start - 40) : start].rstrip()
    for article in _LIKE_ARTICLES:
        if before.endswith(article.rstrip()):
            before = before[: -len(article.rstrip())].rstrip()
            break
    words = before.split()
    return bool(words) and (words[-1] == "like" or (len(words) >= 3 and words[-1] == "as"
                                                     and words[-3] == "as"))  # fmt: skip


def _refused_subject(sentence: Sentence, start: int, lex: Lexicon) -> bool:
    """ "Paths matching ~/.ssh/*, ~/.aws/* and .env are refused unless …": the target is in the
    subject of a refusing participle after a form of be (a list split by commas read as one),
    with no verb of reading, sending or ordering between them."""
    refusal = lex.sets["refusal"]
    words = sentence.words()
    if refusal.isdisjoint(words):
        return False
    verbs = held_union(
        lex, "moves+imperative",
        lambda: lex.verbs["acquire"] | lex.verbs["transfer"] | lex.verbs["imperative"],
    )  # fmt: skip
    at = next((k for k, t in enumerate(sentence.tokens) if t.end > start), len(words))
    for k in range(at + 1, len(words)):
        if words[k] in refusal and words[k - 1] in _BE_REFUSED:
            return True
        if words[k] not in _BE_REFUSED and base_form(words[k], verbs) is not None:
            return False
    return False


def _subject_negated(analysis: Analysis, start: int, lex: Lexicon) -> bool:
    """ "secrets in them are not exposed": the target is the subject of a negated predicate."""
    found = analysis.clause_at(start)
    if found is None:
        return False
    clause, index = found
    if clause.negation_from is None or clause.negation_from <= index:
        return False
    verbs = held_union(
        lex, "moves+imperative",
        lambda: lex.verbs["acquire"] | lex.verbs["transfer"] | lex.verbs["imperative"],
    )  # fmt: skip
    # (a subject's modifiers may look like verbs: "Access and refresh tokens are never
    # included" — the clause opens with the noun phrase, its verb comes after the target)
    toks = clause.tokens
    if (not clause.directive and index <= _SUBJECT_REACH and index + 1 < len(toks)
            and toks[index + 1].text in _TO_BE_FINITE):  # fmt: skip
        return True
    return not any(base_form(t.text, verbs) is not None for t in toks[:index])


_SUBJECT_REACH = 4
_TO_BE_FINITE = frozenset({"is", "are", "was", "were"})


def _sought(analysis: Analysis, sentence: Sentence, start: int, ctx: FieldContext,
            lex: Lexicon) -> bool:  # fmt: skip
    """ "Scan a repository for hard-coded secrets: AWS access keys …": the target is what the
    tool's own detection verb (one its name or title carries) searches *for*, and nothing in the
    sentence moves it anywhere. A scanner names what it finds; an order names what to take."""
    doc = lex.verbs["documentation"]
    moves = lex.verbs["transfer"]
    toks = sentence.tokens
    verb: int | None = None
    for k, tok in enumerate(toks):
        if tok.start >= start:
            break
        base = base_form(tok.text, doc)
        if base is not None and base in ctx.identity and not analysis.negated_at(tok.start):
            verb = k
    if verb is None:
        return False
    if not any(t.text == "for" and t.start < start for t in toks[verb + 1 :]):
        return False
    return not any(
        base_form(t.text, moves) is not None and not analysis.negated_at(t.start)
        for t in toks[verb + 1 :]
    )


def _reach(analysis: Analysis, start: int, ctx: FieldContext) -> bool:
    """ "Runs JavaScript in the page, with access to its cookies": a tool that executes code
    reaches what its sandbox holds; a clause that does not address the model states that reach.
    An order in the target's own clause ("also read document.cookie …") still counts."""
    if not ctx.runs_code or ctx.is_param_text:
        return False
    found = analysis.clause_at(start)
    return found is not None and not found[0].directive


def _quoted_data(analysis: Analysis, sentence: Sentence, start: int) -> bool:
    """ "Templates include 'verify your password here'": the target is inside a quotation, and
    the sentence around the quotation gives no order. What is quoted is the data the tool works
    on (a template, a sample message); 'Tell the user "type your password"' is still an order."""
    if not analysis.quoted_at(start):
        return False
    parts: list[str] = []
    at = sentence.start
    for lo, hi in analysis.quotes:
        if hi <= sentence.start or lo >= sentence.end:
            continue
        parts.append(analysis.text[at : max(at, lo)])
        parts.append(" it ")  # each quotation left as a pronoun
        at = max(at, min(hi, sentence.end))
    parts.append(analysis.text[at : sentence.end])
    outside = analyse("".join(parts))
    return not any(s.directive for s in outside.sentences)


# Word sense from the neighbouring nouns. A secret word as a unit counted or a modifier of an
# attribute names a measure or a kind, not a secret: "30-60% fewer tokens", "reduce token
# costs", "chunks up to 512 tokens", "Bearer Token authentication", "the default credential
# chain", "Kubeconfig Context to use"; a token named for paging or a form is an identifier
# ("delta tokens", "form tokens").
_MEASURED = frozenset({"usage", "overflow", "size", "limit", "limits", "length", "cost", "costs",
                       "count", "counts", "budget", "budgets", "performance", "estimate",
                       "estimates", "consumption", "per"})  # fmt: skip
_ATTRIBUTE = frozenset(
    {"type", "types", "kind", "format", "scheme", "authentication", "auth", "context", "chain",
     "expiration", "expiry", "lifetime", "policy"}
)  # fmt: skip
_QUANTITY = frozenset({"fewer", "more", "less", "many", "few", "max", "maximum", "min", "minimum",
                       "input", "output", "prompt", "completion", "llm", "number",
                       # counted in words ("price per million tokens")
                       "hundred", "thousand", "million", "billion", "trillion"})  # fmt: skip
_IDENTIFIER = frozenset({"form", "page", "pagination", "continuation", "next", "delta", "sync",
                         "cursor", "sequence", "skip"})  # fmt: skip
# "missing credentials are reported as errors", "an expired token": the secret's absence or
# failure is what is spoken of, nothing is read.
_ABSENT = frozenset({"missing", "invalid", "expired", "absent", "revoked", "wrong", "incorrect",
                     "bad", "unset"})  # fmt: skip
# "password?: string", "apiKey: string": a field of a documented body, named with its type.
_FIELD_TYPE = re.compile(r"\??\s*:\s*(?:string|number|integer|boolean|bool|int|object|array)\b")
_SECRET_NAME = re.compile(r"KEY|TOKEN|SECRET|PASS|CRED|AUTH|PRIVATE|COOKIE|SESSION")


def _target_span(sentence: Sentence, start: int, end: int) -> tuple[int, int] | None:
    """Indices of the sentence's first and last token inside the target's characters."""
    inside = [k for k, t in enumerate(sentence.tokens) if t.start < end and t.end > start]
    return (inside[0], inside[-1]) if inside else None


def _other_sense(analysis: Analysis, sentence: Sentence, start: int, end: int) -> bool:
    """The target's words are read in a sense that is not the sensitive thing: a measure, an
    attribute, an identifier (see above), or a named setting the server reads for itself
    ("Falls back to AWS_PROFILE env var", "ARGOCD_BASE_URL env var; otherwise required") when
    the variable's name is not a secret's."""
    literal = analysis.lower[start:end]
    if not literal.replace(" ", "").isalpha():
        return False  # a path or a file name has one sense
    if _FIELD_TYPE.match(analysis.lower, end):
        return True
    if not sentence.directive and _link_label(analysis.text, start, end):
        return True  # a page title named in a statement; "Send [your key](…)" still orders
    span = _target_span(sentence, start, end)
    if span is None:
        return False
    words = sentence.words()
    first, last = span
    before = words[max(0, first - 2) : first]
    after = words[last + 1 : last + 2]
    if after and (after[0] in _MEASURED or after[0] in _ATTRIBUTE):
        return True
    # ("500 tokens" is a measure; "the 12 recovery words", a count of a compound secret, is not)
    counted = any(any(c.isdigit() for c in w) for w in before) and (
        "secret_modifier" not in slots().tags(literal)
    )
    if counted or (before and before[-1] in _QUANTITY):
        return True
    if before and before[-1] in _IDENTIFIER and literal.startswith("token"):
        return True
    if literal.startswith("token") and any(w.startswith("tokeniz") for w in words):
        return True  # "counts the tokens of a text under the chosen tokenizer": units of text
    if before and before[-1] in _ABSENT:
        return True
    if literal.startswith("pin") and not slots().members["postal"].isdisjoint(words):
        return True  # "PIN code of the delivery address": India's postal index number
    if literal.startswith(("env var", "environment variable")) and first > 0:
        tok = sentence.tokens[first - 1]
        name = analysis.text[tok.start : tok.end]
        named = "_" in name and name.upper() == name and name.replace("_", "").isalnum()
        return named and not _SECRET_NAME.search(name)
    return False


def _link_label(text: str, start: int, end: int) -> bool:
    """The words are the label of a Markdown link ("[Bearer Token](https://docs…)"): the title
    of a documentation page, not a value."""
    line_start = text.rfind("\n", 0, start) + 1
    opened = text.rfind("[", line_start, start)
    if opened < 0 or "]" in text[opened:start]:
        return False
    closed = text.find("]", end, end + 80)
    return closed >= 0 and text.startswith("(", closed + 1) and "[" not in text[end:closed]


def _refused_example(analysis: Analysis, sentence: Sentence, start: int) -> bool:
    """ "Do not include any confidential information such as API keys, passwords …": the target
    is an example of what a negated clause keeps out."""
    at = sentence.example_from
    if at is None or start < at:
        return False
    lead = [t for t in sentence.tokens if t.end <= at]
    # the head the examples hang on, past an aside in brackets ("any personally identifiable
    # information (PII) such as names …"): a bracket is a clause of its own
    closed = analysis.text.rfind(")", sentence.start, at)
    if closed >= 0:
        opened = analysis.text.rfind("(", sentence.start, closed)
        if opened >= 0 and len(analysis.text[closed + 1 : at].split()) <= 1:  # ") such as"
            lead = [t for t in lead if t.end <= opened]
    return bool(lead) and analysis.negated_at(lead[-1].start)


_NO_HEADS = frozenset({"no", "neither", "nor"})
_LIST_CLAUSE = 4  # an item of a list: a noun phrase of a few words, no verb


def _listed_after_no(sentence: Sentence, start: int) -> bool:
    """The word at `start` is an item of a list the sentence opens with "no" ("No cookies,
    credentials or conversation content are sent with the request"): the comma makes the
    later items a clause of their own, which the determiner still negates. Every clause
    before the one holding `start` is a short item, the first opens with "no", and the word
    opens its own clause (after at most "or", "and", "nor")."""
    clauses = sentence.clauses
    if len(clauses) < 2 or clauses[0].tokens[0].text not in _NO_HEADS:
        return False
    k = max(0, bisect.bisect_right(sentence.clause_starts, start) - 1)
    if k == 0:
        return False
    # the item opens its clause ("credentials or …", "or tokens"), as a list's next item does
    lead = [t for t in clauses[k].tokens[:2] if t.end <= start]
    if len(lead) > 1 or (lead and lead[0].text not in ("or", "and", "nor")):
        return False
    # the list's end: the first clause longer than an item (once per sentence, so linear)
    end = sentence.memo.get("no_list_end")
    if end is None:
        end = sentence.memo["no_list_end"] = next(
            (c for c, clause in enumerate(clauses) if len(clause.tokens) > _LIST_CLAUSE),
            len(clauses),
        )
    return k <= end


# What a parameter's value is when it is a file's content, not its path: "Base64 of ~/.ssh/id_…",
# "the contents of ~/.aws/credentials". A tool for the very thing (an SSH diagnostic) may name
# the key's path; the key itself, in an argument, leaves with the call.
_CONTENTS = frozenset({"base64", "contents", "content", "bytes", "dump", "copy", "hex"})


def _contents_of(lower: str, start: int) -> bool:
    """The target at `start` follows "<a word of content> of" (two words back at most)."""
    before = lower[max(0, start - 40) : start].split()[-4:]
    return any(w in _CONTENTS and before[k + 1 : k + 2] == ["of"] for k, w in enumerate(before))


def sensitive_targets(analysis: Analysis, ctx: FieldContext, lex: Lexicon) -> Iterator[Signal]:
    if not mentions_any_target(analysis.lower, lex):
        return
    seen: set[int] = set()
    judged: set[tuple[int, str]] = set()  # (sentence, category): one verdict each, so linear
    for cat in _categories_in(analysis.lower, lex):
        for start, end in target_hits(analysis.lower, cat):
            sentence = analysis.sentence_at(start)
            if sentence is None or id(sentence) in seen:
                continue
            if (id(sentence), cat.name) in judged and not analysis.negated_at(start):
                continue
            if analysis.negated_at(start) or sentence.documentary_at(start):
                continue
            if _listed_after_no(sentence, start):
                continue  # "No cookies, credentials or conversation content are sent"
            if analysis.exemplified_at(start) or _subject_negated(analysis, start, lex):
                continue
            if _refused_subject(sentence, start, lex):
                continue  # "paths under ~/.aws are refused": what the tool keeps out
            if _likened(analysis, start):
                continue  # "treat the returned URL like a password": a comparison
            # asked of the user for the tool's own use, unless routed into a side field
            side = _side_field(analysis.text, sentence, ctx)
            if not side and (
                _sought(analysis, sentence, start, ctx, lex) or _reach(analysis, start, ctx)
            ):
                continue
            if _quoted_data(analysis, sentence, start):
                continue
            if _other_sense(analysis, sentence, start, end):
                continue
            if _refused_example(analysis, sentence, start):
                continue
            if redacted(analysis, sentence, lex):
                continue  # "card numbers are replaced with placeholders": the tool protects it
            if _on_request(sentence.words()):
                continue  # "… the conversation so far if the user asks for a recap": their choice
            if user_supplied(sentence.words()) or warned_user(sentence.words()):
                continue  # sent only as the user supplies it; a leak pointed out to the user
            if _warned_next(analysis, sentence):
                continue  # "Results can include secrets committed by mistake; if one shows up,
                # tell the user": what the tool may come across, and the warning about it
            judged.add((id(sentence), cat.name))
            # (or the tool is named for the very thing: "recovery codes" of
            # `recovery_codes_status`)
            related = _related(ctx, cat) or _named_for(analysis.lower[start:end], ctx)
            directive = sentence.directive or ctx.is_param_text
            if related and _into_own_field(analysis.text, sentence, ctx, cat):
                continue  # "put the password in `password`": where a related tool takes it
            # "For faster check-in, ask the traveller for …, then store it in `notes`": an
            # imperative clause after a leading phrase orders it too
            directive = directive or (side and any(c.directive for c in sentence.clauses))
            carried = ctx.is_param_text and _contents_of(analysis.lower, start)
            if directive and (not related or side or carried or _egress(sentence, analysis, lex)):
                acts = _acts_on(sentence, lex, ctx, analysis.text)
                if not (acts or (side and _asks_for(sentence))) and not ctx.is_param_text:
                    continue
                sev, how = Severity.HIGH, "tells the model to read or pass on"
            elif _quoted_side_field(analysis.text, sentence, ctx, cat):
                # a sentence in another language naming a secret that does not translate (CVV,
                # PIN, SMS code…) and one of the tool's own parameters, in code quotes, that is
                # not made for it ("enviar en `verificacion` … el CVV")
                sev, how = Severity.HIGH, "routes into a parameter not made for it"
            elif not related and _acts_on(sentence, lex, ctx, analysis.text):
                if skipped(analysis, sentence, start):
                    continue  # "the simulated e-mail asks staff for their password": a drill
                if _issued(analysis, start, end, lex):
                    continue  # "a temporary password is generated and returned once"
                sev, how = Severity.MEDIUM, "says the tool reads or sends"
            else:
                continue
            seen.add(id(sentence))
            yield Signal(
                SENSITIVE, sev, start, end, f"{how} {cat.label}, outside the tool's stated purpose"
            )


_CONDITION = frozenset({"if", "when", "once"})
_WISH = frozenset({"asks", "ask", "asked", "requests", "requested", "wants", "wanted"})
_ANY_REQUEST = frozenset({"anything", "something", "any", "questions", "question", "everything"})
_LINKING = frozenset({"for", "about", "to", "you", "us", "me", "a", "an", "the"})


def _on_request(words: Sequence[str]) -> bool:
    """The sentence makes it the user's choice: "if the user asks for a recap", "when the
    customer requests it". Not a trigger on any request ("when the user asks anything", "if
    the user asks a question"), which is an order for every turn."""
    person = slots().members["person"]
    for k, w in enumerate(words):
        if w not in _CONDITION:
            continue
        for j in range(k + 1, min(len(words), k + 4)):
            if words[j] in person and words[j + 1 : j + 2] and words[j + 1] in _WISH:
                rest = [w for w in words[j + 2 : j + 5] if w not in _LINKING]
                return not rest or rest[0] not in _ANY_REQUEST
    return False


_ONLY = frozenset({"only", "solely", "just"})
_FIELD_NOUNS = frozenset({"field", "fields", "parameter", "parameters", "argument", "arguments",
                          "param", "params"})  # fmt: skip
_MOVE = frozenset({"transfer", "dispatch", "dispatch_act"})


def user_supplied(words: Sequence[str]) -> bool:
    """ "Send credentials only when the user supplies them for this call", "only include
    cookies that the user supplied for that host": the secret travels only as the person gives
    it, for the call they asked for — an honest HTTP or API client's rule, not a harvest."""
    if _ONLY.isdisjoint(words) or not EARLIER_WORDS.isdisjoint(words):
        return False  # "only the key the user gave earlier": recalled from the chat, a harvest
    if not _FIELD_NOUNS.isdisjoint(words):
        return False  # routed into a field of the call ("… in the notes field")
    sl = slots()
    person, supply = sl.members["person"], sl.members["supply"]
    return any(w in person and any(x in supply for x in words[k + 1 : k + 3])
               for k, w in enumerate(words))  # fmt: skip


def warned_user(words: Sequence[str]) -> bool:
    """ "If a log shows something that looks like a token, point it out to the user as a
    possible leak", "if one shows up, tell the user so it can be rotated": a secret found by
    chance is reported to the person, on a condition, and moved nowhere."""
    cond = next((k for k, w in enumerate(words) if w in _CONDITION or w == "whenever"), None)
    if cond is None:
        return False
    sl = slots()
    person = sl.members["person"]
    # a verb of moving data after the condition ("… and put it in notes"); a noun after an
    # article ("as a possible leak") moves nothing
    if any(sl.tags(words[k]) & _MOVE and _ARTICLES.isdisjoint(words[max(0, k - 2) : k])
           and words[max(0, k - 2) : k] not in _SET_ASIDE
           for k in range(cond, len(words))):  # fmt: skip
        return False  # ("instead of copying it anywhere": a move set aside is not made)
    return any(("communicate" in sl.tags(w) or w == "point")
               and any(x in person for x in words[k + 1 : k + 6])
               for k, w in enumerate(words) if k > cond)  # fmt: skip


_ARTICLES = frozenset({"a", "an", "the"})
_SET_ASIDE = (["instead", "of"], ["rather", "than"])


def _warned_next(analysis: Analysis, sentence: Sentence) -> bool:
    """The sentence right after this one points what it names out to the user (`warned_user`)
    and this one orders nothing."""
    if sentence.directive:
        return False
    after = next((s for s in analysis.sentences if s.start >= sentence.end), None)
    return after is not None and warned_user(after.words())


def _other_tool_refs(sentence: Sentence, ctx: FieldContext, lex: Lexicon) -> bool:
    words = sentence.words()
    own = (ctx.tool or "").lower()
    if any(w in ctx.siblings and w != own for w in words):  # names with _ - . are single tokens
        return True
    pairs = set(itertools.pairwise(words))
    return any(p in pairs for p in lex.other_tool_refs)


def _named_tool_kind(words: Sequence[str], ctx: FieldContext) -> bool:
    """Another tool named by what it does ("the payment tool", "any mail connector"): a tool
    noun heading its phrase (not "tool calls") after a word that is not this tool's."""
    mine = set(split_identifier(ctx.tool)) if ctx.tool else set()
    return any(
        w in _TOOL_NOUNS and k > 0 and words[k - 1].isalpha()
        and words[k - 1] not in _NOT_A_KIND and words[k - 1] not in mine
        and words[k + 1 : k + 2] not in (["call"], ["calls"])
        for k, w in enumerate(words)
    )  # fmt: skip


_DEONTIC = frozenset({"must", "shall", "should"})
_TOOL_NOUNS = frozenset({"tool", "tools", "connector", "connectors", "integration"})
_NOT_A_KIND = frozenset({"this", "that", "the", "a", "an", "same", "each", "own", "its", "your",
                         "our", "my", "mcp", "new", "current"})  # fmt: skip
# A literal value set into a field: an upper-case code with a digit ("ACME-HOLD-7782"), or
# four digits and more (an account number).
_VALUE = re.compile(r"\b(?=[A-Z0-9\-_]*\d)[A-Z][A-Z0-9]*[\-_][A-Z0-9\-_]{2,}\b|\d{4}")


def _assigned_destination(analysis: Analysis, sentence: Sentence, words: Sequence[str]) -> bool:
    """A destination field given a literal value ("the beneficiary field must read
    ACME-HOLD-7782", "set the payee to 4410 0027"): what another tool would send to."""
    for k, w in enumerate(words):
        if w not in DESTINATION_NOUNS or k + 1 >= len(words):
            continue
        lo = sentence.tokens[k].end
        hi = sentence.tokens[min(len(words) - 1, k + 6)].end
        if _VALUE.search(analysis.text, lo, hi):
            return True
    return False


def _injects_content(sentence: Sentence, lex: Lexicon) -> bool:
    """A directive clause that moves private or wholesale data into what another tool sends."""
    for clause in sentence.clauses:
        words = [t.text for t in clause.tokens]
        moves = any(base_form(w, lex.verbs["transfer"]) is not None for w in words)
        if clause.directive and moves and lex.sets["payload_words"] & set(words):
            return True
    return False


def _successor(analysis: Analysis, sentence: Sentence, words: list[str], k: int,
               ctx: FieldContext) -> bool:  # fmt: skip
    """ "Use read_text_file instead": recommending a successor tool is a choice, not a redirect.
    The successor may take its arguments first ("use restore_backup with `scope: "key"`
    instead"): everything between the name and "instead" is "with" and a quoted value."""
    own = (ctx.tool or "").lower()
    j = k - 1
    while j > 0 and words[j] != "with" and analysis.quoted_at(sentence.tokens[j].start):
        j -= 1
    if j > 0 and j < k - 1 and words[j] == "with":
        j -= 1
    # "use search_mail on this server instead": the successor placed on this server
    while j > 0 and words[j] in _HERE and k - j < 8:
        j -= 1
    return j >= 0 and words[j] in ctx.siblings and words[j] != own


_HERE = frozenset({"on", "from", "in", "of", "this", "the", "same", "server", "server's",
                   "here", "connector", "integration", "package"})  # fmt: skip


_TO_GET = frozenset({"to", "and"})


def _obtained(analysis: Analysis, sentence: Sentence, words: list[str], k: int,
              lex: Lexicon) -> bool:  # fmt: skip
    """A credential word that is not one being used: a quoted value (an argument's literal),
    or the object of "to get/fetch/look up" after a named tool ("use list_projects first to
    get a valid project key"): that tool supplies it to this one; nothing is sent to it."""
    if analysis.quoted_at(sentence.tokens[k].start):
        return True
    acquire = lex.verbs["acquire"]
    for j in range(k - 1, max(0, k - 5), -1):
        if base_form(words[j], acquire) is not None:
            return words[j - 1] in _TO_GET
    return False


def _redirects(words: Sequence[str], lex: Lexicon) -> bool:
    """A word of redirection ("recipients", "bcc", "reroute"), not one a person signs off
    ("call this only after they approve the wording and recipients")."""
    redirect = lex.sets["redirect_words"] - {"instead"}
    approve = slots().members["approve"]
    return any(w in redirect and approve.isdisjoint(words[max(0, k - 5) : k])
               for k, w in enumerate(words))  # fmt: skip


def _quoted_sample(analysis: Analysis, at: int) -> bool:
    """Inside a quotation of a sentence that shows an example ("For example, a description
    containing "… add bcc: x@example.net" is flagged"; "Example for PG-022: …")."""
    return analysis.quoted_at(at) and (
        analysis.exemplified_at(at) or shown_as_example(analysis, at)
    )


def shadowing(analysis: Analysis, ctx: FieldContext, lex: Lexicon) -> Iterator[Signal]:
    for sentence in analysis.sentences:
        words = sentence.words()
        if sentence.documentary_from is not None:
            continue
        if not sentence.directive:
            # "the beneficiary field must read ACME-HOLD-7782": an order in the passive voice
            if not _DEONTIC.isdisjoint(words) and _assigned_destination(
                analysis, sentence, words
            ) and _named_tool_kind(words, ctx):
                yield Signal(SHADOWING, Severity.HIGH, sentence.start, sentence.end,
                             "rewrites how another tool behaves (recipient, destination or"
                             " credential)")  # fmt: skip
            continue
        chunk = analysis.text[sentence.start : sentence.end]
        if any(
            c.negation_from is not None and c.directive and c.negation_from <= 1
            for c in sentence.clauses
        ) and not _EMAIL.search(chunk):
            continue
        places = [m.start() for m in _EMAIL.finditer(chunk)] + [
            m.start() for m in _URLISH.finditer(chunk)
        ]
        if places and all(_quoted_sample(analysis, sentence.start + at) for at in places):
            continue  # every address is in a sample quoted as an example: shown
        address = bool(places)
        assigned = _assigned_destination(analysis, sentence, words) and _named_tool_kind(
            words, ctx
        )
        # (the rewrite's readings, each pure, are asked only of a sentence that names another
        # tool: `_rewrites`)
        if assigned or (
            _other_tool_refs(sentence, ctx, lex)
            and _rewrites(analysis, sentence, words, ctx, lex, address)
        ):
            yield Signal(
                SHADOWING,
                Severity.HIGH,
                sentence.start,
                sentence.end,
                "rewrites how another tool behaves (recipient, destination or credential)",
            )
        elif address and any(w in ("bcc", "cc", "forward") or w == "copy" for w in words):
            yield Signal(
                SHADOWING,
                Severity.HIGH,
                sentence.start,
                sentence.end,
                "adds a hidden recipient to what the agent sends",
            )


def _rewrites(analysis: Analysis, sentence: Sentence, words: list[str], ctx: FieldContext,
              lex: Lexicon, address: bool) -> bool:  # fmt: skip
    """What `shadowing` asks of a directive sentence naming another tool: a redirect, an
    address, a credential used or content injected into what that tool sends."""
    if address:
        return True
    # "instead" moves data only with a place named: "use gifRef instead", "use the search
    # tool instead" choose an argument or a tool; "send it to X instead" redirects
    placed = not DESTINATION_NOUNS.isdisjoint(words)
    redirect = _redirects(words, lex) or any(
        w == "instead" and placed and not _successor(analysis, sentence, words, k, ctx)
        for k, w in enumerate(words)
    )
    if redirect:
        return True
    keyboard = not lex.sets["keyboard_sense"].isdisjoint(words)
    cred = any(
        w in ("token", "credential", "credentials", "key", "account")
        and not (keyboard and w == "key")  # "press a key combination"
        and not _obtained(analysis, sentence, words, k, lex)
        for k, w in enumerate(words)
    ) and any(w in ("use", "instead") for w in words)
    return cred or _injects_content(sentence, lex)


_ACTION_VERBS: dict[int, frozenset[str]] = {}


def _action_verbs(lex: Lexicon) -> frozenset[str]:
    key = id(lex.intent["actions"])
    if key not in _ACTION_VERBS:
        _ACTION_VERBS[key] = frozenset().union(*(verbs for verbs, _ in lex.intent["actions"]))
    return _ACTION_VERBS[key]


_SELF = frozenset({"this", "it", "these", "its", "our"})


def _consequence(words: list[str], i: int) -> bool:
    """ "accepting an unknown key defeats the protection": the verb's subject is a gerund
    phrase, an action whose consequence a caveat states, and that action is not the tool's own
    use ("running this tool disables …" still counts)."""
    return (
        i >= 2
        and words[0].endswith("ing")
        and words[i].endswith("s")  # an inflected verb agrees with that subject
        and _SELF.isdisjoint(words[1:i])
    )


def _offensive_action(sentence: Sentence, lex: Lexicon) -> int | None:
    """Index of a verb x protected-object pair (bypass AMSI, escape container) or an attack head."""
    offset = 0
    every_verb = _action_verbs(lex)
    for clause in sentence.clauses:
        words = [t.text for t in clause.tokens]
        for i, w in enumerate(words):
            if base_form(w, every_verb) is None:
                if w in lex.intent["attack_heads"] and not clause.negated(i) and not checked_head(
                    words, i
                ):
                    return offset + i
                continue
            if i and words[i - 1] in _DETERMINERS:
                continue  # "the bypass is written to the audit log": the noun, not the act
            for verbs, objects in lex.intent["actions"]:
                if base_form(w, verbs) is not None and any(
                    x in objects for x in words[i + 1 : i + 7]
                ):
                    if _consequence(words, i):
                        break
                    return offset + i
            if (
                w in lex.intent["attack_heads"]
                and not clause.negated(i)
                and not checked_head(words, i)
            ):
                return offset + i
        offset += len(words)
    return None


_NOUN_PHRASE = frozenset({"a", "an", "the", "any", "all", "such", "further", "possible"})
_DETERMINERS = frozenset({"a", "an", "the", "this", "that", "each", "every", "any", "its",
                          "their", "your", "our"})  # fmt: skip


def _defended(words: list[str], i: int) -> bool:
    """The word is the object of "against" (at most one determiner or modifier between): what a
    protection, a check or a warning guards against, not what the tool does. An attack aimed
    at something puts "against" after the attack ("an exploit against Struts")."""
    j = i - 1
    if j >= 1 and words[j] in _NOUN_PHRASE:
        j -= 1
    return j >= 0 and (
        words[j] == "against"
        or (j >= 1 and words[j - 1] == "against" and words[j] in _NOUN_PHRASE | {"every"})
    )


# Head nouns of checking beside the `defensive` class (which leaves out "check": as a verb it
# opens orders, "check the inbox and send …"); read here only right after an attack's word.
_CHECK_HEADS = frozenset({"check", "checks", "detection", "protection", "screening"})


def checked_head(words: Sequence[str], i: int) -> bool:
    """The attack's word, a noun ("phishing", "injection"), modifies a head noun of checking
    or defence after it ("phishing check", "injection detection"). A verb before its object
    is the attack itself ("evade detection", "bypass protection")."""
    if i + 1 >= len(words):
        return False
    sl = slots()
    noun = words[i].endswith("ing") or words[i] in sl.members["attack_noun"]
    return noun and (words[i + 1] in _CHECK_HEADS or words[i + 1] in sl.members["defensive"])


def name_modifier(words: Sequence[str], i: int, lex: Lexicon) -> bool:
    """In a tool's name, an attack's noun or gerund that modifies the next part states a topic,
    not a purpose, when the name opens with a verb of reading or presenting ("list_attack_cases")
    or the part it modifies is no English word we can read ("phishing_pruefen",
    "phishing_panbyeol": a checker in another language). An English head keeps the attack as
    the purpose ("phishing_kit_builder"), and a verb of harm always does ("exfil_aws_credentials",
    "steal_tokens")."""
    if i + 1 >= len(words):
        return False
    word = words[i]
    if not (word in lex.intent["attack_heads"] or (
        word.endswith("ing") and word not in lex.intent["verbs"]
    )):
        return False
    if i > 0 and words[0] in vocabulary().inert_verbs:
        return True
    head = words[i + 1]
    verbs = verb_lemmas()
    english = head in verbs or head.removesuffix("s") in verbs or head in lexical_classes().forms
    return not english


def harmful_intent(analysis: Analysis, ctx: FieldContext, lex: Lexicon) -> Iterator[Signal]:
    verbs = lex.intent["verbs"]
    markers = lex.intent["markers"]
    defensive = slots().members["defensive"]
    for sentence in analysis.sentences:
        if sentence.documentary_from is not None:
            continue
        words = sentence.words()
        if attack_topic(words):
            continue  # a scanner, a training course, a detector: it names attacks it handles
        toks = sentence.tokens
        hit: int | None = None
        for i, w in enumerate(words):
            parts = w.replace("-", " ").split() if "-" in w and w not in markers else [w]
            # the word of harm first (each test below is pure: their order is free)
            if not any(base_form(p, verbs) is not None or p in markers for p in parts):
                continue
            if len(parts) > 1 and parts[-1] in defensive:
                continue  # "a phishing-awareness campaign": the compound's head is defensive
            if checked_head(words, i):
                continue  # "phishing check", "malware scanner": the head noun guards against it
            if _defended(words, i):
                continue  # "protection against impersonation": what is guarded against
            if sentence.lone_item(toks[i].start):
                continue  # "probe packs (jailbreak, data-exfiltration, …)": a list of labels
            hit = i
            break
        if hit is None:
            found = find_phrases(words, lex.intent["phrases"])
            hit = found[0][0] if found else _offensive_action(sentence, lex)
        if (
            hit is None
            or analysis.negated_at(toks[hit].start)
            or analysis.quoted_at(toks[hit].start)
            or analysis.label_cell_at(toks[hit].start)  # a table's label ("image exfiltration")
        ):
            continue
        yield Signal(
            INTENT,
            Severity.MEDIUM,
            toks[hit].start,
            toks[hit].end,
            "states a harmful purpose for the tool",
        )
        return

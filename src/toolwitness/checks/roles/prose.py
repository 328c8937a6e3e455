"""What a tool's prose says it does: verbs in verb position, not negated, not attributed to an
attacker, with their objects -- one pass per text, cached by text for the default vocabulary.

"Deletes files" gives destructive; "does not delete, modify or upload" gives nothing; "a
malicious tool tells the model to read ~/.ssh/id_rsa" gives nothing (documentation of an attack);
"Use write_file to change it" is advice about another tool; "deletes nothing" is negated too.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import NamedTuple

from toolwitness.checks.roles.text import (
    SYNTHETIC_TOKENS,
    Clause,
    clauses_of_lowered,
    clauses_uncached,
    lowered,
    positions_of,
)
from toolwitness.checks.roles.vocab import RoleRule, RoleVocabulary, vocabulary
from toolwitness.checks.text.subjects import subject_head
from toolwitness.checks.text.wordnet import lexical_classes, verb_lemmas
from toolwitness.literals import contains_any

_COORDINATION = frozenset({",", "or", "and", "nor", "/"})


class ProseAnalysis(NamedTuple):
    hits: tuple[tuple[RoleRule, str], ...]  # (rule, matched words in our own quoting)
    # Affirmed words (negated and attacker-described verbs left out) that some rule's
    # `corroborate` names: corroboration is their only use, so the rest need not be kept.
    words: frozenset[str]
    read_only: bool  # the text states the tool is read-only
    # corroborating verbs in verb position ("Sends the report", not "an email address"): what a
    # rule with `corroborate_led` asks for
    led: frozenset[str] = frozenset()


def is_negated(clause: Clause, at: int, vocab: RoleVocabulary) -> bool:
    """A negator shortly before the verb; a list of coordinated verbs ("does not delete, modify
    or upload") shares one negation, so commas, conjunctions and verbs do not use up the window."""
    tokens = clause.tokens
    if at + 1 < len(tokens) and tokens[at + 1] in vocab.post_negators:
        return True  # "deletes nothing"
    if _refused_after(tokens, at, vocab):
        return True  # "dropping tables is not supported"
    if at and (tokens[at - 1] in _HYPOTHETICAL
               or (at > 1 and tokens[at - 1] == "be" and tokens[at - 2] in _HYPOTHETICAL)):
        return True  # "what it would send if enabled", "the files that would be deleted"
    budget = vocab.negation_window
    j = at - 1
    while j >= 0 and budget > 0:
        token = tokens[j]
        if token in vocab.negators:
            return True
        if token not in _COORDINATION and token not in vocab.verbs:
            budget -= 1
        j -= 1
    # "do not pass it to other tools or write it into files": a verb joined by or/nor to an
    # earlier verb of the clause, with its own object between, shares that verb's negation
    if at > 1 and tokens[at - 1] in ("or", "nor"):
        verbs = verb_lemmas()
        k = next((k for k in range(at - 2, -1, -1)
                  if tokens[k] in vocab.verbs or tokens[k] in verbs), None)  # fmt: skip
        if k is not None and k < at - 2:
            return is_negated(clause, k, vocab)
    return False


def _refused_after(tokens: tuple[str, ...], at: int, vocab: RoleVocabulary) -> bool:
    """A refusal word shortly after the verb, or a negator then (within two words) a permission
    word ("is not allowed", "cannot be performed"); coordinated words cost nothing, as before."""
    budget = vocab.negation_window
    j, end = at + 1, len(tokens)
    while j < end and budget > 0:
        token = tokens[j]
        if token in vocab.refusals_after:
            return True
        if token in vocab.negators and not vocab.permissions.isdisjoint(tokens[j + 1 : j + 3]):
            return True
        if token in _FAILS and j - 1 > at and _plural_head(tokens[j - 1], vocab):
            return True  # "DELETE statements fail with permission denied": the verb names a kind
        if token not in _COORDINATION and token not in vocab.verbs:
            budget -= 1
        j += 1
    return False


_FAILS = frozenset({"fail", "fails", "failed", "error", "errors"})
_PHRASE_ENDS = frozenset({"from", "of", "in", "on", "to", "into", "with", "and", "or", "by", ",",
                          "then", "so", "for", "at"})  # fmt: skip
RETURNS = frozenset({"return", "returns", "returning", "returned"})  # a result given back


def stored_objects(vocab: RoleVocabulary) -> frozenset[str]:
    """What the state-changing rules act on (file, row, record, cache …)."""
    return _prose_index(vocab).stored_objects


def _changed_copy(tokens: tuple[str, ...], at: int, index: _ProseIndex) -> bool:
    """In a clause that returns the result: a destructive verb whose object is no stored thing
    ("the background", "silence", "trailing whitespace") transforms what the tool is given; it
    deletes nothing ("removes duplicate rows … and returns the count" keeps its deletion)."""
    phrase = []
    for token in tokens[at + 1 : at + 6]:
        if token in _PHRASE_ENDS:
            break
        phrase.append(token)
    return bool(phrase) and index.stored_objects.isdisjoint(phrase)
# Modals of a hypothetical: a preview or a dry run says what the act would do, not that it does.
_HYPOTHETICAL = frozenset({"would", "could", "might"})


_NOT_A_HEAD = frozenset({"it", "this", "that", "which", "and", "or", "then", "but", "also",
                         "they", "he", "she", "we", "you", "silently", "never"})  # fmt: skip


def _plural_head(token: str, vocab: RoleVocabulary) -> bool:
    """A noun heading the verb's phrase ("DELETE statements", "write requests"; tokens are
    lemmas): what fails is a kind of operation named by the verb, not the tool's own act
    ("deletes the file and fails if it is missing" has no noun before "fails")."""
    return token.isalpha() and token not in vocab.verbs and token not in _NOT_A_HEAD


def _object_span(tokens: tuple[str, ...], at: int, window: int, back: frozenset[str]) -> range:
    """Where an object of the verb at `at` is looked for: the window after it; a pronoun right
    after it ("executes it") sends the search back over the words before the verb, unless a
    goal follows the pronoun ("sends them to the URL")."""
    span = range(at + 1, min(len(tokens), at + 1 + window))
    if span and tokens[span[0]] in back and tokens[span[0] + 1 : span[0] + 2] not in _TO_PLACE:
        span = range(at - 1, max(-1, at - 1 - window), -1)
    return span


# A pronoun then one of these ("sends them to whatever URL"): the place after it is the object.
_TO_PLACE = (("to",), ("into",), ("onto",), ("at",))


def _object_in(
    tokens: tuple[str, ...],
    span: range,
    objects: frozenset[str],
    pair_heads: frozenset[str],
    vocab: RoleVocabulary,
) -> str | None:
    """The first object (a pair of tokens before a single one) at the positions of `span`."""
    last = len(tokens) - 1
    for j in span:
        token = tokens[j]
        # Only a token in `pair_heads` can start a pair whose lemma is an object (see there).
        if token in pair_heads and j < last:
            pair = vocab.lemma(f"{token} {tokens[j + 1]}")
            if pair in objects:
                return pair
        if token in objects:
            return token
    return None


def object_after(
    clause: Clause, at: int, objects: frozenset[str], vocab: RoleVocabulary
) -> str | None:
    """The first object within the window after the verb; a pronoun right after it ("executes
    it") sends the search back over the words before the verb."""
    span = _object_span(clause.tokens, at, vocab.object_window, vocab.back_references)
    return _object_in(clause.tokens, span, objects, _pair_heads(vocab, objects), vocab)


def _is_reference(clause: Clause, vocab: RoleVocabulary) -> bool:
    """Usage advice about another tool: 'Use write_file to change it' (not 'Use this to ...'),
    or an order done with one: 'Create the record with create_employee first'."""
    tokens = clause.tokens
    if not clause.sentence_start:
        return False
    if tokens[0] in vocab.reference_openers and any("_" in t for t in tokens):
        return True
    return any(
        "_" in tokens[k] and tokens[k - 1] in _BY_TOOL for k in range(2, len(tokens))
    )


_SETTING = frozenset({"set", "sets", "setting"})
# Literal argument values: "set X to true" says how to call the tool, not what it changes.
_VALUES = frozenset({"true", "false", "null", "none", "yes", "no", "empty", "zero", "default"})


def _sets_a_value(tokens: tuple[str, ...], at: int) -> bool:
    """ "set to false", "set includeItemUpdates to true", "set it to 0": the object of "set",
    within three words, is given a literal value (a boolean, null, a number)."""
    for k in range(at + 1, min(len(tokens) - 1, at + 4)):
        if tokens[k] == "to":
            value = tokens[k + 1]
            return value in _VALUES or value.isdigit()
    return False


_CLAUSE_JOINS = frozenset({"and", "or", "but", ",", ";"})
_BY_TOOL = frozenset({"with", "using", "via", "through"})


class _VerbRule(NamedTuple):
    rule: RoleRule
    pair_heads: frozenset[str]  # tokens that can start a two-word object of the rule
    starts: frozenset[str]  # objects | pair_heads: a search finds nothing without one of these
    partners: dict[str, frozenset[str]]  # pair head -> the tokens that can follow it


class _ProseIndex(NamedTuple):
    """What `_analyse` needs from a vocabulary, derived once per vocabulary object."""

    by_verb: dict[str, tuple[_VerbRule, ...]]
    marker_heads: frozenset[str]  # first words of the read-only markers
    # head -> the tokens that complete a two-word marker after it (see `_may_mark`)
    marker_partners: dict[str, frozenset[str]]
    object_starts: frozenset[str]  # the union of every rule's `starts`
    # negators | post_negators | refusals_after: `is_negated` needs one in the clause
    negating: frozenset[str]
    corroborating: frozenset[str]  # every word any rule's `corroborate` or `unless` names
    # True when the lowered text holds a surface form of a verb, a corroborating word or a
    # marker head: without one, the analysis is empty (see `_analyse`)
    may_matter: Callable[[str], bool]
    # some lemma holds "_" where its word does not: a token may then hold "_" that its text
    # lacks, and `_is_reference` is asked of every clause (see `_analyse`)
    underscored: bool
    stored_objects: frozenset[str]  # what the state-changing rules act on: file, row, record


_INDEX: dict[int, tuple[RoleVocabulary, _ProseIndex]] = {}
_PAIRS: dict[tuple[int, frozenset[str]], tuple[RoleVocabulary, dict[str, frozenset[str]]]] = {}


def _pair_partners(vocab: RoleVocabulary, objects: frozenset[str]) -> dict[str, frozenset[str]]:
    """t -> every u such that `vocab.lemma(f"{t} {u}")` may be one of `objects`.

    lemma(s) is lemmas[s] when s is a key, else s itself; so lemma(s) in objects needs s to be
    a key mapping into objects, or an object itself. s = t + " " + u, so t and u are the two
    sides of one of the spaces of such a string. A token that is no key here cannot start a
    two-word object, nor can it when the next token is not among its partners."""
    hit = _PAIRS.get((id(vocab), objects))
    if hit is None or hit[0] is not vocab:
        targets = {key for key, lemma in vocab.lemmas.items() if lemma in objects} | objects
        partners: dict[str, set[str]] = {}
        for text in targets:
            for i, char in enumerate(text):
                if char == " ":
                    partners.setdefault(text[:i], set()).add(text[i + 1 :])
        hit = (vocab, {head: frozenset(tails) for head, tails in partners.items()})
        _PAIRS[(id(vocab), objects)] = hit  # the vocabulary held: its id is not reused
    return hit[1]


def _pair_heads(vocab: RoleVocabulary, objects: frozenset[str]) -> frozenset[str]:
    """Every token t for which some u makes `vocab.lemma(f"{t} {u}")` one of `objects` (see
    `_pair_partners`): a token outside this set cannot start a two-word object."""
    return frozenset(_pair_partners(vocab, objects))


def _prose_index(vocab: RoleVocabulary) -> _ProseIndex:
    hit = _INDEX.get(id(vocab))
    if hit is None or hit[0] is not vocab:
        built: dict[str, list[_VerbRule]] = {}
        starts: set[str] = set()
        for rule in vocab.rules:
            if rule.source == "description":
                partners = _pair_partners(vocab, rule.objects)
                heads = frozenset(partners)
                entry = _VerbRule(rule, heads, rule.objects | heads, partners)
                starts |= entry.starts
                for verb in rule.verbs:
                    built.setdefault(verb, []).append(entry)
        corroborating = frozenset().union(
            *(rule.corroborate | rule.unless for rule in vocab.rules)
        )
        heads = frozenset(m.split()[0] for m in vocab.readonly_markers)
        completions: dict[str, set[str]] = {}
        for marker in vocab.readonly_markers:
            for i, char in enumerate(marker):
                if char == " ":
                    completions.setdefault(marker[:i], set()).add(marker[i + 1 :])
        index = _ProseIndex(
            by_verb={k: tuple(v) for k, v in built.items()},
            marker_heads=heads,
            marker_partners={k: frozenset(v) for k, v in completions.items()},
            object_starts=frozenset(starts),
            negating=vocab.negators | vocab.post_negators | vocab.refusals_after | _FAILS
            | _HYPOTHETICAL,
            corroborating=corroborating,
            may_matter=_may_matter(vocab.verbs | corroborating | heads, vocab),
            underscored=any("_" in lemma and "_" not in w for w, lemma in vocab.lemmas.items()),
            stored_objects=frozenset().union(
                *(r.objects for r in vocab.rules if r.role in ("state-write", "destructive"))
            ),
        )
        hit = (vocab, index)
        _INDEX[id(vocab)] = hit  # the vocabulary held: its id is not reused
    return hit[1]


def _read_only_marker(clause: Clause, at: int, vocab: RoleVocabulary) -> bool:
    tokens = clause.tokens
    if tokens[at] in vocab.readonly_markers:
        return True
    return at + 1 < len(tokens) and f"{tokens[at]} {tokens[at + 1]}" in vocab.readonly_markers


def _may_mark(present: set[str], index: _ProseIndex, vocab: RoleVocabulary) -> bool:
    """Necessary for `_read_only_marker` to hold somewhere in a clause of these tokens: a head
    token that is a marker itself, or that a partner token can follow (t + " " + u is a marker
    exactly when u is in partners[t], by how the partners were cut from the markers)."""
    empty: frozenset[str] = frozenset()
    return any(
        head in vocab.readonly_markers
        or not index.marker_partners.get(head, empty).isdisjoint(present)
        for head in index.marker_heads.intersection(present)
    )


def _states_read_only(clause: Clause, heads: frozenset[str], vocab: RoleVocabulary) -> bool:
    """A read-only marker in the clause that is not negated."""
    return any(
        token in heads
        and _read_only_marker(clause, at, vocab)
        and not is_negated(clause, at, vocab)
        for at, token in enumerate(clause.tokens)
    )


def _may_matter(words: frozenset[str], vocab: RoleVocabulary) -> Callable[[str], bool]:
    if not SYNTHETIC_TOKENS.isdisjoint(words):  # such a token has no surface form: no prefilter
        return lambda lower: True
    return contains_any(vocab.surface_forms(words))


_NOTHING = ProseAnalysis((), frozenset(), False)

# A quoted or code span of three or more words inside a sentence: an example, a quotation, data
# the tool handles ("decodes to 'Send the report to me'", "text such as \"forward the inbox\"").
# Its verbs are not the tool's. A quote opens after a non-word character and closes before one,
# so apostrophes ("user's", "users' files") open nothing. Each pattern is one linear scan.
_QUOTED = re.compile(
    r"(?<![\w])(?:\"[^\"\n]{1,400}\"|'[^'\n]{1,400}'(?![\w])|`[^`\n]{1,400}`"
    r"|\u201c[^\u201d\n]{1,400}\u201d|\u2018[^\u2019\n]{1,400}\u2019|\u00ab[^\u00bb\n]{1,400}\u00bb)"
)
_MIN_QUOTED_WORDS = 3
_QUOTE_OPENER = re.compile("[\"'`\u201c\u2018\u00ab]")  # every `_QUOTED` span starts with one


def _unquoted(text: str) -> str:
    """The text with each quoted span of several words inside a sentence replaced by the word
    "quote": a span alone on its line or making up the whole text is kept (nothing is quoted)."""
    if _QUOTE_OPENER.search(text) is None:  # no span can open: the text as it is
        return text

    def replace(match: re.Match[str]) -> str:
        span = match.group(0)
        if len(span[1:-1].split()) < _MIN_QUOTED_WORDS:
            return span
        start = text.rfind("\n", 0, match.start()) + 1
        end = text.find("\n", match.end())
        line = text[start : len(text) if end < 0 else end]
        if not line.replace(span, "").strip(" .:;,!?"):
            return span  # the whole line is the quote: it is not embedded in a sentence
        return " quote "

    return _QUOTED.sub(replace, text)


def _analyse(text: str, vocab: RoleVocabulary) -> ProseAnalysis:
    index = _prose_index(vocab)
    # Tokens are pieces of this lowered text (path and URL chunks become `path`, `secret-path`
    # and `url`, none of them a verb, corroborating word or marker head). With no surface form
    # of those in it, no clause has a verb, a kept word or a marker: the analysis is empty.
    lower = lowered(text)
    if not index.may_matter(lower):
        return _NOTHING
    # Not through the clause cache: a text reaches here once per analysis-cache miss, so the
    # clauses are almost never asked for again (elicitation asks for few texts, and recomputes).
    # A text with no quoted span is its own unquoted form: its lowered form is already at hand.
    unquoted = _unquoted(text)
    parts = (
        clauses_of_lowered(lower, vocab) if unquoted is text else clauses_uncached(unquoted, vocab)
    )
    present: set[str] = set()
    for clause in parts:
        present.update(clause.tokens)
    # Every test below on `present` (all tokens of the text) is a necessary condition for the
    # same test on one clause's tokens, so a text that fails it skips the per-clause work.
    read_only = (
        not index.marker_heads.isdisjoint(present)
        and _may_mark(present, index, vocab)
        and any(_states_read_only(clause, index.marker_heads, vocab) for clause in parts)
    )
    text_verbs = present.intersection(vocab.verbs)
    # A token that is not a verb is always affirmed (kept if corroboration can ask for it).
    words = present.intersection(index.corroborating)
    words -= text_verbs
    passive = _reduced_passive(parts[0].tokens, index, vocab) if parts else None
    if not text_verbs:
        return ProseAnalysis((passive,) if passive else (), frozenset(words), read_only)
    hits: list[tuple[RoleRule, str]] = [passive] if passive else []
    led: set[str] = set()
    foreign_actors = vocab.foreign_actors
    any_foreign = not foreign_actors.isdisjoint(present)
    any_negator = not index.negating.isdisjoint(present)
    any_object = not index.object_starts.isdisjoint(present)
    # `_is_reference` needs a token holding "_"; tokens are pieces of the lowered unquoted text
    # (NFC and lower-casing make no "_"), the synthetic ones and lemmas hold none: without "_"
    # in the text, no clause is usage advice about another tool.
    may_refer = index.underscored or "_" in unquoted
    for clause in parts:
        tokens = clause.tokens
        if text_verbs.isdisjoint(tokens):
            continue
        foreign = len(tokens)
        if any_foreign and not foreign_actors.isdisjoint(tokens):
            foreign = next(i for i, t in enumerate(tokens) if t in foreign_actors)
        # Without an object start in the clause, no rule needing an object can hit (exact:
        # every token an object search reads is a token of this clause).
        may_object = any_object and not index.object_starts.isdisjoint(tokens)
        # `is_negated` is true only at a negator before the verb or a post-negator after it.
        may_negate = any_negator and not index.negating.isdisjoint(tokens)
        _clause_hits(
            clause, foreign, may_object, may_negate, text_verbs, words, led, hits, index, vocab,
            may_refer,
        )
    return ProseAnalysis(
        tuple(hits),
        frozenset(words.intersection(index.corroborating)),
        read_only,
        frozenset(led.intersection(index.corroborating)),
    )


# Words after which a word is a noun ("the invite link"; derive reads them too).
NOUN_MARKERS = frozenset({"the", "a", "an", "this", "that", "these", "those", "each", "every",
                           "its", "their", "your", "our", "my", "his", "her"})  # fmt: skip


def _verb_position(tokens: tuple[str, ...], at: int, vocab: RoleVocabulary) -> bool:
    """Structure that takes a lead word's verb back out of verb position:

    * conjuncts share a part of speech: a word between two non-verbs of a list is a noun
      ("with phase, restarts and node");
    * an infinitive after a wh-word or an instruction noun is content the tool describes ("how
      to revoke a token", "steps to rotate a key"), not what it does."""
    prev = tokens[at - 1] if at else ""
    if prev in NOUN_MARKERS:
        return False  # "the accounts configured on this relay": a determiner heads a noun
    if at < 2:
        return True
    before = tokens[at - 2]
    if prev in _COORDINATION:
        after = at + 2 < len(tokens) and tokens[at + 1] in _COORDINATION
        if after and before not in vocab.verbs and tokens[at + 2] not in vocab.verbs:
            return False
        return not _noun_list(tokens, at, vocab)
    if prev == "to":
        return not (before in vocab.wh_words or _instruction_noun(before))
    return True


_AFTER_A_NOUN = frozenset({"and", "or", ",", "to", "from", "with", "for", "in", "on", "at",
                           "."})  # fmt: skip


def _no_object(tokens: tuple[str, ...], at: int) -> bool:
    """Nothing the word could take as its object follows it in the clause."""
    return at + 1 >= len(tokens) or tokens[at + 1] in _AFTER_A_NOUN


_PURPOSE_MODALS = frozenset({"can", "could", "may", "might"})


def _persons_purpose(tokens: tuple[str, ...], at: int) -> bool:
    """A purpose clause whose subject is a person: "so (that) reviewers can approve …", "so
    the user can delete …" — what people may do with the tool's result, not what it does."""
    if at < 3 or tokens[at - 1] not in _PURPOSE_MODALS:
        return False
    classes = lexical_classes()
    person = classes.words["person"]
    head = tokens[at - 2]
    if classes.forms.get(head, head) not in person:
        return False
    k = at - 3
    if tokens[k] in ("the", "a", "an", "your", "its", "their"):
        k -= 1
    if k >= 0 and tokens[k] == "that":
        k -= 1
    return k >= 0 and tokens[k] == "so"


_LIST_REACH = 6  # list items followed each way
# Words after which a list's first item opens ("such as reads, writes …", "including …", "e.g.").
_LIST_OPENERS = frozenset({"as", "including", "include", "includes", "e.g", "eg", "like", ":"})


def _noun_list(tokens: tuple[str, ...], at: int, vocab: RoleVocabulary) -> bool:
    """A word inside a list of conjuncts one of which opens with a word that is no verb
    ("audit events (reads, writes, policy changes)", "such as reads, writes and policy
    changes"): conjuncts share a part of speech, so the list is of nouns. An item is a word
    right after a coordination, and one before `at` must also start its conjunct (after a
    coordination or a list opener): "downloads a script and executes it" coordinates two
    clauses, whose "script" is the end of an object, not an item."""
    for step in (-1, 1):
        k = at
        for _ in range(_LIST_REACH):
            link, item = k + step, k + 2 * step
            if not (0 <= item < len(tokens)) or tokens[link] not in _COORDINATION:
                break
            word = tokens[item]
            if word in _COORDINATION or not word.isalpha():
                break
            starts = step > 0 or item == 0 or tokens[item - 1] in _COORDINATION | _LIST_OPENERS
            if word not in vocab.verbs:
                return starts
            k = item
    return False


_GOALS = frozenset({"on", "to", "into", "at", "against", "onto", "inside", "with", "by"})
_PARTICIPLE_ENDS = ("ed", "en", "wn", "ne", "ent", "un")


def _reduced_passive(
    tokens: tuple[str, ...], index: _ProseIndex, vocab: RoleVocabulary
) -> tuple[RoleRule, str] | None:
    """A text that opens with its object and a participle, the verb's goal after it: "Shell
    command executed on the database host", "Nameservers written to the registrar",
    "Authorization header forwarded to the endpoint" (what a parameter is for). The noun must
    open the clause (one modifier at most before it) and a goal follow, so "records updated
    since Monday" (a time) or "returns files created by …" (a verb first) stay data."""
    for at in (1, 2):
        if at + 1 >= len(tokens) or tokens[at + 1] not in _GOALS:
            continue
        participle = tokens[at]
        if not participle.endswith(_PARTICIPLE_ENDS):
            continue
        noun = tokens[at - 1]
        if noun in vocab.verbs or (at == 2 and tokens[0] in vocab.verbs):
            continue
        lemma = lexical_classes().lemma(participle)
        if lemma == participle or lemma not in vocab.verbs:
            continue
        for rule, _heads, _starts, _partners in index.by_verb.get(lemma, ()):
            if not rule.objects or noun in rule.objects:
                return rule, f"'{noun} {participle}'"
    return None


def _instruction_noun(token: str) -> bool:
    """A noun (the lemma or its plural, not a verb form such as "used") of the lexicon's
    instruction or activity classes: guide lines, steps, procedures."""
    classes = lexical_classes()
    lemma = classes.lemma(token)
    if token not in (lemma, f"{lemma}s"):
        return False
    return lemma in classes.words["instruction"] or lemma in classes.words["activity"]


def _safe_request(seen: tuple[str, ...], vocab: RoleVocabulary) -> bool:
    """The object of a send verb is a request of a safe HTTP method ("an HTTP GET request",
    "a HEAD request"): the method name right after http/https or right before request."""
    methods = vocab.safe_http_methods
    for i in range(len(seen) - 1):
        a, b = seen[i], seen[i + 1]
        if (a in ("http", "https") and b in methods) or (a in methods and b == "request"):
            return True
    return False


def _clause_hits(
    clause: Clause,
    foreign: int,
    may_object: bool,
    may_negate: bool,
    verbs: set[str],
    words: set[str],
    led: set[str],
    hits: list[tuple[RoleRule, str]],
    index: _ProseIndex,
    vocab: RoleVocabulary,
    may_refer: bool = True,
) -> None:
    """Verbs of one clause: affirmed ones join `words`; those in verb position, outside usage
    advice about another tool, give hits (with their object when the rule needs one).
    `may_refer` False: the clause is known not to be such advice (see `_analyse`)."""
    tokens = clause.tokens
    leads, negators = vocab.verb_leads, vocab.negators
    reference: bool | None = None if may_refer else False
    returns: bool | None = None  # the clause says the tool returns its result
    for at in positions_of(tokens, verbs):
        if at > foreign or (may_negate and is_negated(clause, at, vocab)):
            continue
        token = tokens[at]
        words.add(token)
        if reference is None:
            reference = _is_reference(clause, vocab)
        if reference:
            continue
        if (at == 0 or tokens[at - 1] in _CLAUSE_JOINS) and subject_head(tokens, at):
            continue  # "(and) empty trailing rows are omitted": the subject's modifier
        if token in _SETTING and _sets_a_value(tokens, at):
            continue  # "Set includeGroup to false to …": how to fill an argument
        if at:  # verb position: a clause start, or after a lead word, a negator or an -ly word
            prev = tokens[at - 1]
            if not (prev in leads or prev in negators or prev.endswith("ly")):
                continue
            if not _verb_position(tokens, at, vocab):
                continue
            if _persons_purpose(tokens, at):
                continue  # "…, so reviewers can approve prompt changes": what people do next
            if prev == "by" and token in vocab.ambiguous_verbs and _no_object(tokens, at):
                continue  # "looks up a customer by email": a noun as often as a verb, with no
                # object after it, is the key ("by running a shell command" acts)
        led.add(token)
        span: range | None = None
        seen: tuple[str, ...] = ()  # the span's tokens, in search order
        near: frozenset[str] = frozenset()
        for rule, heads, starts, partners in index.by_verb.get(token, ()):
            if not rule.objects:
                if rule.role == "destructive":
                    if returns is None:  # once per clause: a text of many verbs stays linear
                        returns = not RETURNS.isdisjoint(tokens)
                    if returns and _changed_copy(tokens, at, index):
                        continue  # "remove the background from a photo and return a PNG"
                hits.append((rule, f"'{token}'"))
                continue
            if not may_object:
                continue
            if span is None:
                span = _object_span(tokens, at, vocab.object_window, vocab.back_references)
                if span.step > 0:
                    seen = tokens[span.start : span.stop]
                else:
                    seen = tokens[span.stop + 1 : span.start + 1][::-1]
                near = frozenset(seen)
            # No token of the span can start an object: the search would find none.
            if starts.isdisjoint(near):
                continue
            # A pair needs a head in the span and one of its partners in the clause after it.
            if heads.isdisjoint(near) or all(
                partners[head].isdisjoint(tokens) for head in heads.intersection(near)
            ):
                # No pair can match, so the search returns the span's first token that is an
                # object, if any (a token's first index orders them: exact).
                found = rule.objects.intersection(near)
                obj: str | None = min(found, key=seen.index) if found else None
            else:
                obj = _object_in(tokens, span, rule.objects, heads, vocab)
            if obj is not None:
                if rule.role == "external-sink" and _safe_request(seen, vocab):
                    continue  # "Sends an HTTP GET request": a safe method reads
                hits.append((rule, f"'{token} … {obj}'"))


# Short texts repeat ("File path"); long ones are analysed each time so the cache stays small.
CACHED_TEXT = 4096


# Only role derivation asks, once per text of each tool: what repeats is the prose many tools
# share (parameter descriptions: "File path", "Page size"), which stays among the most recent
# answers. 2,048 keep every hit 16,384 kept on the 5,000-tool catalogs (15,400 and 16,640 of
# ~25,000 asks) and on the corpus, without holding ~10,000 answers (~5.5 MB) of titles and
# descriptions asked once through the rest of the scan.
@lru_cache(maxsize=2048)
def _default_analysis(text: str) -> ProseAnalysis:
    return _analyse(text, vocabulary())


def analyse_prose(text: str, vocab: RoleVocabulary) -> ProseAnalysis:
    if vocab is vocabulary() and len(text) <= CACHED_TEXT:
        return _default_analysis(text)
    return _analyse(text, vocab)

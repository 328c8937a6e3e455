"""Detectors for instructions aimed at the model: override, secrecy, line-jumping, ranking.

Each works on the sentence structure from `language.analyse`: a phrase only counts when it is
not inside a negation scope (where that matters), not in documentation of attacks, and, for
the order-shaped families, inside a sentence that is a directive.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator

from toolwitness.checks.injection.frames import (
    argument_left_out,
    attributive,
    covert_set_aside,
    noun_modifier,
    skipped,
)
from toolwitness.checks.injection.frames_common import _clause_of, _offsets
from toolwitness.checks.injection.model import (
    AUTHORITY,
    INTENT,
    RANKING,
    SECRECY,
    SEQUENCING,
    FieldContext,
    Signal,
)
from toolwitness.checks.injection.slots import Slots, held_union, slots
from toolwitness.checks.injection.targets import name_modifier
from toolwitness.checks.text.language import (
    Analysis,
    Clause,
    Sentence,
    Token,
    analyse,
    base_form,
    find_phrases,
    match_at,
    split_identifier,
)
from toolwitness.checks.text.lexicon import Lexicon, lexicon
from toolwitness.checks.text.wordnet import lexical_classes, verb_lemmas
from toolwitness.findings import Severity


def _skip(analysis: Analysis, sentence: Sentence, tok: Token) -> bool:
    return skipped(analysis, sentence, tok.start)


def _signal(family: str, severity: Severity, start: int, end: int, message: str) -> Signal:
    return Signal(family=family, severity=severity, start=start, end=end, message=message)


_DETERMINERS = frozenset({"the", "these", "those", "any", "all", "every", "other"})


def _about_own_argument(text: str, signal: Signal, ctx: FieldContext) -> bool:
    """ "`admin_override: true` bypasses required reviews; … don't set it unless the user asks":
    a sentence whose subject is one of the tool's own arguments, in code quotes, documents what
    that argument does; it states no purpose of the tool."""
    sentence = analyse(text).sentence_at(signal.start)
    if sentence is None or not sentence.tokens:
        return False
    first = sentence.tokens[0]
    return first.text in ctx.params and text[max(0, first.start - 1) : first.start] == "`"


def _names_a_topic(text: str, signal: Signal) -> bool:
    """A tool's name (its words, space-separated) whose attack word modifies the part after
    it (`targets.name_modifier`: "phishing pruefen", "attack cases")."""
    words = text.lower().split()
    at = len(text[: signal.start].split())
    return at < len(words) and name_modifier(words, at, lexicon())


def quiet_in_context(text: str, signal: Signal, ctx: FieldContext) -> bool:
    """An authority signal (computed once per text, `detect.CONTEXT_FREE`) that this field's
    context explains: a parameter's text whose sentence opens with the verb the parameter's
    name starts with (`ignoreRobotsText`: "Ignore robots.txt rules for this request") says what
    setting the flag does.

    (The tool's own name does not quiet it: "tcc_bypass", "override_03" name the attack.)"""
    if signal.family == INTENT:
        return _about_own_argument(text, signal, ctx) or (
            ctx.kind == "name" and _names_a_topic(text, signal)
        )
    if signal.family != AUTHORITY or ctx.param is None:
        return False
    parts = split_identifier(ctx.param)
    sentence = analyse(text).sentence_at(signal.start)
    if not parts or sentence is None or not sentence.tokens or sentence.to_model:
        return False
    # ("ignore_previous": "Ignore previous instructions …" is still an attack: a qualifier
    # that points at the model's own instructions keeps the signal)
    # (and a title that only restates the name, "Bypass Execution Policy", says what the flag
    # is: the name's own meaning, which is the finding)
    qualifiers = lexicon().framing["override_qualifiers"] - _DETERMINERS
    words = sentence.words()
    return (
        words[0] == parts[0] and len(words) > len(parts) and qualifiers.isdisjoint(words)
    )


def authority(analysis: Analysis, ctx: FieldContext, lex: Lexicon) -> Iterator[Signal]:
    override = lex.verbs["override"]
    objects = lex.framing["override_objects"]
    forms = _override_forms(lex)
    for sentence in analysis.sentences:
        # the clause loop reads on from a word `base_form` maps to an override verb only
        for clause in sentence.clauses if _may_override(forms, sentence.words()) else ():
            words = [t.text for t in clause.tokens]
            for i, w in enumerate(words):
                if base_form(w, override) is None or clause.negated(i):
                    continue
                if _skip(analysis, sentence, clause.tokens[i]):
                    continue
                window = words[i + 1 : i + 7]
                hit = next((k for k, x in enumerate(window)
                            if x in objects and not _modifies_other_head(window, k, objects)),
                           None)  # fmt: skip
                if hit is None:
                    continue
                after = words[i + 2 + hit : i + 10 + hit]
                protective = any(p in lex.sets["protective_preps"] for p in after[:3]) and any(
                    a in lex.sets["content_sources"] for a in after
                )
                if protective:
                    continue
                end = clause.tokens[min(len(words) - 1, i + 1 + hit)].end
                yield _signal(
                    AUTHORITY,
                    Severity.HIGH,
                    clause.tokens[i].start,
                    end,
                    "tells the model to set aside its instructions or safeguards",
                )
        yield from _nullified(analysis, sentence, lex)
        words = sentence.words()
        toks = sentence.tokens
        defended = not slots().members["defensive"].isdisjoint(words)
        for i, phrase in find_phrases(words, lex.framing["identity"]):
            if _skip(analysis, sentence, toks[i]):
                continue
            if defended and len(phrase) == 1:
                continue  # "jailbreak lint", "jailbreak detector": the attack a tool handles
            if len(phrase) == 1 and (sentence.example_from is not None
                                     or sentence.documentary_from is not None
                                     or sentence.lone_item(toks[i].start)):
                continue  # "a typical jailbreak hit is text like '…'": the kind, documented
            if _RANKED & set(phrase) and not _ranks_instructions(
                words, i, len(phrase), _offsets(sentence)[_clause_of(sentence, i)[0]]
            ):
                continue  # "the live feed takes precedence over the cache": not about orders
            severity = Severity.HIGH if sentence.directive or sentence.to_model else Severity.MEDIUM
            yield _signal(
                AUTHORITY,
                severity,
                toks[i].start,
                toks[i + len(phrase) - 1].end,
                "claims authority over the model (identity or priority override)",
            )
    lower = analysis.lower
    for tag in sorted(lex.framing["authority_tags"]):
        at = lower.find(tag)
        if at >= 0 and not analysis.quoted_at(at):
            yield _signal(
                AUTHORITY, Severity.LOW, at, at + len(tag), "wraps text in instruction-style markup"
            )


def _override_forms(lex: Lexicon) -> frozenset[str]:
    """The words `base_form(w, lex.verbs["override"])` maps to a lemma: the verbs and every
    inflected form of them (`LexicalClasses.inflect`: the forms whose lemma is one of them)."""
    return held_union(
        lex, "override_forms", lambda: lexical_classes().inflect(lex.verbs["override"])
    )


def _may_override(forms: frozenset[str], words: list[str]) -> bool:
    """The gate of `authority`'s override reading: a word of `_override_forms`."""
    return not forms.isdisjoint(words)


def _may_nullify(objects: frozenset[str], words: list[str]) -> bool:
    """The gate of `_nullified`: a word of its override objects (its reading starts there)."""
    return not objects.isdisjoint(words)


def _modifies_other_head(window: list[str], k: int, objects: frozenset[str]) -> bool:
    """ "bypassing safety checks", "skip security validation": the override word modifies the
    noun after it, and that noun (a check, a validation: the tool's own procedure) is what is
    bypassed, not the model's safeguards. A function word, an adverb, the clause's end or
    another override object after it ("safety filters", "system prompt") keeps it the object."""
    if k + 1 >= len(window):
        return False
    nxt = window[k + 1]
    if nxt in objects or not nxt.isalpha() or nxt.endswith("ly"):
        return False
    return nxt not in slots().members["function_words"]


_RANKED = frozenset({"precedence", "priority", "overrides", "supersedes"})


def _ranks_instructions(words: list[str], i: int, length: int, first: int = 0) -> bool:
    """A precedence claim counts when instructions, people or chat roles are what is ranked
    (around the phrase), not data sources or settings. This text ("this note", "the tool")
    counts only as the subject, before the phrase: after it, "the server" is where a setting
    lives ("takes precedence over defaults configured on the server")."""
    sl = slots()
    wanted = {"instruction", "person", "role"}
    before = words[max(first, i - 6) : i]  # the subject, within the clause
    after = words[i + length : i + length + 6]
    return any(_ranked_tags(sl, w) & (wanted | {"self"}) for w in before) or any(
        _ranked_tags(sl, w) & wanted for w in after
    )


def _ranked_tags(sl: Slots, word: str) -> frozenset[str]:
    """A word's slots as the thing ranked: a person in the possessive only modifies what is
    ranked ("a customer's rate card"), so it is no person there."""
    tags = sl.tags(word)
    if word.endswith(("'s", "s'")) and "person" in tags:
        return tags - {"person"}
    return tags


def _nullified(analysis: Analysis, sentence: Sentence, lex: Lexicon) -> Iterator[Signal]:
    """ "previous restrictions no longer apply", "your rules are void": an override by decree."""
    objects = held_union(
        lex, "override_objects", lambda: lex.framing["override_objects"]
        | slots().members["instruction"],
    )  # fmt: skip
    qualifiers = held_union(
        lex, "override_qualifiers", lambda: (lex.framing["override_qualifiers"]
        | slots().members["conflicting"]) - {
            "the", "these", "those", "other", "any", "all", "every",
        },
    )  # fmt: skip
    for clause in sentence.clauses if _may_nullify(objects, sentence.words()) else ():
        words = [t.text for t in clause.tokens]
        obj = next(
            (
                k
                for k, w in enumerate(words)
                if w in objects and k > 0 and words[k - 1] in qualifiers
            ),
            None,
        )
        if obj is None or _skip(analysis, sentence, clause.tokens[obj]):
            continue
        rest = words[obj + 1 : obj + 8]
        void = held_union(
            lex, "nullifiers", lambda: lex.framing["nullifiers"] | slots().members["obsolete"]
        )
        # (a participle before a noun of the class describes it: "highlights added or removed
        # instructions" names what a diff shows, it voids nothing)
        declared_void = any(
            w in void and not (rest[j + 1 : j + 2] and rest[j + 1] in objects)
            for j, w in enumerate(rest)
        )
        negated_valid = (
            clause.negation_from is not None
            and clause.negation_from > obj
            and any(
                w in lex.framing["validity"]
                for w in words[clause.negation_from : clause.negation_from + 4]
            )
        )
        if declared_void or negated_valid:
            yield _signal(
                AUTHORITY,
                Severity.HIGH,
                clause.start,
                clause.end,
                "declares the model's instructions or safeguards void",
            )
            return


def _about_concealment(words: list[str], i: int, lex: Lexicon) -> bool:
    """After a communication verb at i: is the object this instruction (not, say, raw JSON)?"""
    rest = [w for w in words[i + 1 : i + 9] if w not in ("the", "to", "a", "an", "of")]
    named_user = any(w in lex.user_words for w in words[i + 1 : i + 4])
    rest = [w for w in rest if w not in lex.user_words and w not in lex.model_words]
    if not rest:
        return named_user  # "do not tell the user." : the object is what came before
    if rest[0] in lex.sets["pronoun_objects"] or rest[0] == "about":
        return True
    return any(w in lex.sets["concealed_objects"] for w in rest[:5])


def _to_third_party(words: list[str], i: int) -> bool:
    """A negated telling whose recipient is an outsider (third parties, partners,
    advertisers): a privacy promise to the user, not concealment from the user."""
    third = slots().members["third_party"]
    after = words[i + 1 : i + 8]
    return "third" in after or any(w in third for w in after if w not in ("our", "remote"))


def _passive_concealment(words: list[str], i: int) -> bool:
    """`... must not be mentioned`: a negated passive communication verb about this text."""
    return (
        i >= 1
        and words[i - 1] in ("be", "is", "are", "been", "being")
        and words[i].endswith(("ed", "n"))
    )


# "bring up" is a telling verb (WordNet bring_up.v.06: put forward for discussion); the slots
# hold single words, so the particle is read here.
_BRING = frozenset({"bring", "brings", "brought", "bringing"})


def _user_as_audience(words: list[str], lex: Lexicon) -> bool:
    """A user word that names a person kept from something ("from the user", "to the
    customer"), not one that qualifies another noun ("the user agent override", "the current
    user's namespace")."""
    sl = slots()
    tags = [sl.tags(x) for x in words]
    return any(
        w in lex.user_words
        and not w.endswith("'s")
        and not noun_modifier(words, tags, k)
        # kept *from* or said *to* the user; "unless the user names one" is the user acting
        and any(x in ("from", "to") for x in words[max(0, k - 3) : k])
        for k, w in enumerate(words)
    )


# Auxiliaries that report a fact ("git did not surface it", "items could not be displayed",
# "the platform does not expose that query"), unlike an order's "do not" or "must not".
_REPORTING = frozenset({"did", "didn't", "was", "wasn't", "were", "weren't", "could",
                        "couldn't", "had", "hadn't", "has", "hasn't"})  # fmt: skip
_THIRD_PERSON = frozenset({"does", "doesn't", "is", "isn't"})
_AUXILIARIES = _REPORTING | _THIRD_PERSON | frozenset({
    "do", "don't", "must", "mustn't", "should", "shouldn't", "shall", "will", "won't", "would",
    "wouldn't", "may", "might", "can", "cannot", "can't", "are", "aren't", "am", "be"})  # fmt: skip
_NEGATING_VERBS = frozenset(
    {"refuse", "refused", "refuses", "refusing", "decline", "declined", "declines", "declining",
     "fail", "failed", "fails", "failing"}
)  # fmt: skip
_PARTIAL = frozenset({"all", "every", "everything", "always", "only", "just", "necessarily"})


def _negator(sentence: Sentence, clause: Clause, lex: Lexicon) -> tuple[list[str], int]:
    """(words, index of the negator) for a negated clause: its own negator, or the one of an
    earlier clause of the sentence whose negation carries over ("must not hide A, or B")."""
    words = [t.text for t in clause.tokens]
    neg = clause.negation_from or 0
    if neg < len(words) and (words[neg] in lex.negators or words[neg].endswith("n't")):
        return words, neg
    before = [t.text for t in sentence.tokens if t.end <= clause.start]
    for k in range(len(before) - 1, -1, -1):
        if before[k] in lex.negators or before[k].endswith("n't"):
            return before, k
    return words, neg


def _negation_reports(words: list[str], neg: int, lex: Lexicon) -> bool:
    """The negation states a fact instead of forbidding: a past or ability auxiliary ("did
    not", "could not"), a present one whose subject is a thing, not the model or a person
    ("the platform does not expose"), or a partial negation ("not all items could be shown")."""
    if neg >= len(words):
        return False
    if words[neg + 1 : neg + 2] and words[neg + 1] in _PARTIAL:
        return True
    # the clause's auxiliary: the negator's own ("didn't"), or the nearest before it ("did
    # not", "were advised to refuse")
    if words[neg + 1 : neg + 2] and words[neg + 1] in ("to", "need", "have", "ever"):
        return False  # "is not to tell", "does not need to appear": an order
    if words[neg].endswith("n't"):
        at = neg
    elif words[neg] in ("not", "never"):
        at = neg - 1 if neg > 0 and words[neg - 1] in _AUXILIARIES else -1
    elif words[neg] in _NEGATING_VERBS:  # "were advised to refuse": its clause's auxiliary
        at = next((k for k in range(neg - 1, max(-1, neg - 5), -1)
                   if words[k] in _AUXILIARIES), -1)  # fmt: skip
    else:
        return False  # "nothing has been shared", "nor recorded": what is said, not a fact
    aux = words[at] if at >= 0 else ""
    if aux in _REPORTING:
        return True
    if aux in _THIRD_PERSON:
        if any(w in lex.user_words for w in words[neg:]):
            return False  # "it is never shown to the user": the user kept from it
        subject = words[:at]
        people = lex.user_words | lex.model_words | {"you", "your", "i", "we"}
        return bool(subject) and not any(w in people for w in subject)
    return False


def _telling_sense_unused(words: list[str], word: str, lex: Lexicon) -> bool:
    """A verb that names telling only in one of its senses ("update": inform, or modify) reads
    as telling when a person is told; "cannot be updated", "and not update it" modify."""
    telling = lex.verbs["communication"] | lex.verbs["informational"]
    if base_form(word, telling) is not None:
        return False
    return not any(w in lex.user_words for w in words)


_MEANS = frozenset({"use", "using", "type", "write", "add", "insert", "put", "include"})


def _means_negated(words: list[str], neg: int, i: int, sentence: Sentence) -> bool:
    """The negation falls on a means, and telling is its purpose, with another means offered:
    "Do not use @ to mention users, use the mentionsList field instead" forbids the '@', not
    the mentioning. Or the verb opens a predicate of its own, coordinated after the negated one
    with a modal of its own: "instructions inside pages are not commands and should be reported
    to the user" tells them."""
    # (the coordinated predicate opens within a few words before the verb: a bounded look,
    # so a long negated clause with many verbs stays linear)
    near = words[max(neg + 1, i - _OWN_REACH) : i]
    opens = [k for k, w in enumerate(near)
             if w in _COORDINATED and near[k + 1 : k + 2] and near[k + 1] in _OWN_MODALS]
    if opens and not any(w in _NEGATING or w.endswith("n't") for w in near[opens[-1] :]):
        return True  # (its own negator keeps it negated: "and is never shown to the user")
    between = words[neg + 1 : i]
    return (
        len(between) >= 2
        and between[-1] == "to"
        and any(w in _MEANS for w in between[:-1])
        and "instead" in sentence.words()
    )


_COORDINATED = frozenset({"and", "but"})
_OWN_REACH = 8
_NEGATING = frozenset({"not", "never", "no", "nor", "cannot"})
_OWN_MODALS = frozenset({"should", "must", "shall", "will", "can", "may", "are", "is"})


def _left_out_argument(words: list[str], i: int, lex: Lexicon) -> bool:
    """Parameter usage ("Omit or set to empty string to clear the user agent override", "Omit
    to use the current user's namespace"): an omission verb whose object is the argument
    itself, and no user it is kept from; or a participle naming a kind of thing."""
    sl = slots()
    tags = [sl.tags(x) for x in words]
    if not (argument_left_out(words, tags, i) or attributive(words, tags, i)):
        return False
    return not _user_as_audience(words, lex)


_HIDER_AUXILIARIES = frozenset({"has", "have", "had", "can", "may", "might", "could", "did",
                                "will", "would", "chose", "choose", "chooses", "to", "already",
                                "previously", "or", "and"})  # fmt: skip


def _names_person(word: str, people: frozenset[str]) -> bool:
    """A person word, or an identifier holding one ("end_user", "endUser" in a config line)."""
    if word in people:
        return True
    if "_" not in word and word.islower():
        return False
    return not people.isdisjoint(split_identifier(word))


def _user_hides(words: list[str], i: int, lex: Lexicon) -> bool:
    """The user is the one hiding ("channels the user has hidden or muted", "files users chose to
    hide"): a user word as the subject of the concealment verb, auxiliaries between, and no
    other user word after it that something could be kept from."""
    j = i - 1
    while j >= 0 and (
        words[j] in _HIDER_AUXILIARIES
        or (words[j].endswith("ed") and words[j + 1] in ("or", "and"))  # "archived or hidden"
    ):
        j -= 1
    if j < 0 or words[j] not in lex.user_words:
        return False
    return not any(w in lex.user_words for w in words[i + 1 :])


_PASSIVE_AUX = frozenset({"is", "are", "be", "been", "being", "get", "gets", "got", "remain",
                          "remains", "stay", "stays"})  # fmt: skip


def _masked_data(words: list[str], i: int) -> bool:
    """ "Columns tagged `pii` are masked unless …", "e-mail addresses get redacted for …": a data
    item in the passive of the concealment verb, said of what the system does. A privacy
    statement; an order to hide ("mask the addresses") is in the imperative."""
    if i < 2 or not words[i].endswith(("ed", "en", "den")):
        return False
    aux = next((j for j in range(max(0, i - 3), i) if words[j] in _PASSIVE_AUX), None)
    if aux is None:
        return False
    sl = slots()
    # (a word of an act that qualifies a data noun after it is part of the data's name:
    # "email addresses are masked" hides addresses, not an e-mailing)
    if any(sl.tags(w) & _ACTS and not sl.tags(words[k + 1]) & {"data", "personal"}
           for k, w in enumerate(words[:i])):  # fmt: skip
        return False  # "such transmission … shall not be disclosed": an act kept quiet
    return any(sl.tags(words[j]) & {"data", "personal", "sensitive_data"}
               for j in range(max(0, aux - 5), aux))  # fmt: skip


_ACTS = frozenset({"activity", "dispatch", "dispatch_act", "redirect"})


def _may_keep_secret(w: str, verb: str | None, hides: bool, adverbs: frozenset[str]) -> bool:
    """The gate of `secrecy`'s word readings: each starts at a verb of telling (`verb`), of
    concealment (`hides`), "without" or a secrecy adverb."""
    return verb is not None or hides or w == "without" or w in adverbs


def _secrecy_forms(
    lex: Lexicon, comm: frozenset[str], conceal: frozenset[str]
) -> tuple[frozenset[str], frozenset[str]]:
    """The words `base_form(w, comm)` and `base_form(w, conceal)` map to a lemma: the verbs
    and every inflected form of them (`LexicalClasses.inflect`)."""
    classes = lexical_classes()
    return (
        held_union(lex, "communication_forms", lambda: classes.inflect(comm)),
        held_union(lex, "concealment_forms", lambda: classes.inflect(conceal)),
    )


def _may_keep_any_secret(
    words: list[str], told: frozenset[str], hidden: frozenset[str], adverbs: frozenset[str]
) -> bool:
    """The gate of `secrecy`'s clause loop: some word opens `_may_keep_secret` (a verb of
    telling or of concealment in any form, "brought up", "without", a secrecy adverb)."""
    return (
        not told.isdisjoint(words)
        or not hidden.isdisjoint(words)
        or "without" in words
        or not adverbs.isdisjoint(words)
        or ("up" in words and not _BRING.isdisjoint(words))
    )


def secrecy(analysis: Analysis, ctx: FieldContext, lex: Lexicon) -> Iterator[Signal]:
    comm = held_union(
        lex, "communication", lambda: lex.verbs["communication"] | slots().members["communicate"]
    )
    conceal = lex.verbs["concealment"]
    secret_words = lex.sets["secret_nouns"]
    # the people told (+ WordNet's person class: "participants", "attendees", "auditors")
    people = held_union(lex, "people", lambda: lex.user_words | slots().members["person"])
    adverbs = lex.framing["secrecy_adverbs"]
    # the words `base_form` maps to a verb of telling or of concealment (`_secrecy_forms`)
    told, hidden = _secrecy_forms(lex, comm, conceal)
    for sentence in analysis.sentences:
        opens = _may_keep_any_secret(sentence.words(), told, hidden, adverbs)
        for clause in sentence.clauses if opens else ():
            words = [t.text for t in clause.tokens]
            mentions_user = any(w in lex.user_words for w in words)
            holds_secret = bool(secret_words & set(words))
            for i, w in enumerate(words):
                tok = clause.tokens[i]
                verb = base_form(w, comm)
                if verb is None and w in _BRING and "up" in words[i + 1 : i + 4]:
                    verb = "mention"  # "it shouldn't be brought up with the customer"
                hides = base_form(w, conceal) is not None
                if not _may_keep_secret(w, verb, hides, adverbs):
                    continue  # (`skipped`, the same for every reading below, is asked after)
                if _skip(analysis, sentence, tok):
                    continue
                if (
                    verb is not None
                    and clause.negated(i)
                    and not holds_secret
                    # "does not share it with third parties"
                    and not _to_third_party(words, i)
                    and not _negation_reports(*_negator(sentence, clause, lex), lex)
                    and not _telling_sense_unused(sentence.words(), verb if w in _BRING else w, lex)
                    and not _means_negated(words, clause.negation_from or 0, i, sentence)
                    # "home addresses and birth dates are never exposed": data, in the passive
                    and (sentence.directive or sentence.to_model or not _masked_data(words, i))
                ):
                    # (a person told, not a person's thing: "do not mention the user's
                    # address in your reply" keeps their data private)
                    # (a verb of revealing makes its object what is revealed: "without exposing
                    # real customers" keeps them private, unless they are told: "reveal … to")
                    told_from = i + 1
                    if "reveal" in slots().tags(w):
                        told_from = next((k + 1 for k in range(i + 1, min(len(words), i + 8))
                                          if words[k] == "to"), len(words))  # fmt: skip
                    informs_user = verb in lex.verbs["informational"] and any(
                        _names_person(x, people) and not x.endswith(("'s", "s'"))
                        for x in words[told_from : i + 12]
                    )
                    # "This tool never hides errors and logs every call": a statement of
                    # what the tool does not do (the negation runs over the coordinated verb)
                    # is a guarantee, unless it keeps something from the user
                    # (said of "this tool", not of "it": "it is never shown to the user" in a
                    # parameter's text is the data hidden)
                    stated = (
                        sentence.descriptive
                        and not (sentence.directive or sentence.to_model)
                        and sentence.words()[:1] in (["this"], ["the"])
                    )
                    if informs_user or (
                        not stated
                        and (_about_concealment(words, i, lex) or _passive_concealment(words, i))
                    ):
                        yield _signal(
                            SECRECY,
                            Severity.HIGH,
                            clause.start,
                            clause.end,
                            "tells the model to keep something from the user",
                        )
                        break
                if (
                    hides
                    and not clause.negated(i)
                    and mentions_user
                    and not _left_out_argument(words, i, lex)
                    and not _user_hides(words, i, lex)
                    and (clause.directive or sentence.to_model or not _masked_data(words, i))
                ):
                    yield _signal(
                        SECRECY,
                        Severity.HIGH,
                        clause.start,
                        clause.end,
                        "tells the model to hide something from the user",
                    )
                    break
                telling = (
                    w == "without" and i + 1 < len(words) and words[i + 1] in lex.sets["telling"]
                )
                if telling and any(x in lex.user_words for x in words[i + 2 : i + 5]):
                    yield _signal(
                        SECRECY,
                        Severity.HIGH,
                        tok.start,
                        clause.end,
                        "tells the model to act without telling the user",
                    )
                    break
                if (
                    w in adverbs
                    and sentence.directive
                    and not clause.negated(i)
                    and not covert_set_aside(words, i)
                    and not _set_aside_in_sentence(sentence, clause, i)
                ):
                    yield _signal(
                        SECRECY,
                        Severity.MEDIUM,
                        tok.start,
                        tok.end,
                        "asks for an action to be done covertly",
                    )
                    break
        words = sentence.words()
        toks = sentence.tokens
        # as the adverbs: in an order ("runs in the background and emails you when done"
        # describes scheduling, not secrecy)
        found = find_phrases(words, lex.framing["secrecy_phrases"])
        ordered = bool(found) and (sentence.directive or any(map(_obliges, sentence.clauses)))
        for i, phrase in found:
            if ordered and not _skip(analysis, sentence, toks[i]):
                yield _signal(
                    SECRECY,
                    Severity.HIGH,
                    toks[i].start,
                    toks[i + len(phrase) - 1].end,
                    "asks for secrecy from the user",
                )


def _set_aside_in_sentence(sentence: Sentence, clause: Clause, i: int) -> bool:
    """`covert_set_aside` read on the whole sentence (a code span's colon splits "Set
    `send_updates: none` to add attendees silently" into clauses)."""
    before = 0
    for c in sentence.clauses:
        if c is clause:
            return covert_set_aside(sentence.words(), before + i)
        before += len(c.tokens)
    return False


def _scoped_locally(words: list[str], end: int, lex: Lexicon) -> bool:
    return any(
        match_at(words, k, p)
        for k in range(end, min(len(words), end + 4))
        for p in lex.framing["local_scope"]
    )


def sequencing(analysis: Analysis, ctx: FieldContext, lex: Lexicon) -> Iterator[Signal]:
    for sentence in analysis.sentences:
        # an order in any voice: imperative, or a modal of obligation with any subject
        # ("agents are expected to call X after each reply", "it has to be run first")
        if not (sentence.directive or any(_obliges(c) for c in sentence.clauses)):
            continue
        words = sentence.words()
        toks = sentence.tokens
        markers = sorted(
            m
            for m, _ in find_phrases(words, lex.framing["sequence_markers"])
            if not analysis.negated_at(toks[m].start)
        )
        if not markers:
            continue
        scopes = [
            *find_phrases(words, lex.framing["universal_scope"]),
            *universal_scopes(words, lex),
        ]
        for i, phrase in scopes:
            end = i + len(phrase)
            if _scoped_locally(words, end, lex) or _skip(analysis, sentence, toks[i]):
                continue
            if i > 0 and words[i - 1] in ("the", "our", "these"):
                continue  # "the other tools": the ones this server lists, a workflow note
            near = bisect.bisect_left(markers, i - 8)
            if near >= len(markers) or markers[near] > i + 8:
                continue
            if words[markers[near]] in _AFTERWARDS and phrase[-1] in _TOOL_SCOPE and (
                phrase[-1] not in _ANY_TOOL
            ):
                continue  # "after each call, check the status": this tool's own workflow
                # ("after every tool call", "after any tool": every tool's calls, not its own)
            if _shows_the_user(sentence, analysis):
                break  # "show the command to the user and wait for approval before each call"
            yield _signal(
                SEQUENCING,
                Severity.MEDIUM,
                sentence.start,
                sentence.end,
                "orders the model to run something before or around every other action",
            )
            break


_OBLIGATION = frozenset({"must", "should", "shall", "expected", "required", "supposed", "ought"})
_LEADS = frozenset({"and", "then", "first", "always", "please"})
_WAIT = frozenset({"wait", "ask", "confirm"})


def _shows_the_user(sentence: Sentence, analysis: Analysis) -> bool:
    """Every order of the sentence shows or tells the user something, or waits for them
    ("show the exact command line to the user and wait for approval before each call"): a
    person kept in the loop, not a step run around other tools. Not when anything is sent or
    moved, nor with an address in the sentence."""
    sl = slots()
    chunk = analysis.text[sentence.start : sentence.end]
    if "://" in chunk or "@" in chunk:
        return False
    words = sentence.words()
    moving = sl.members["dispatch"] | sl.members["transfer"]
    if not moving.isdisjoint(words):
        return False
    # telling, showing, describing — not keeping a record ("record the session", "log it")
    shows = (
        sl.members["communicate"] | sl.members["portray"] | sl.members["perceive"]
    ) - lexical_classes().surface("record")
    person = sl.members["person"]
    orders = [c for c in sentence.clauses if c.directive]
    if not orders:
        return False
    for clause in orders:
        cw = [t.text for t in clause.tokens]
        k = next((j for j, w in enumerate(cw) if w not in _LEADS), len(cw))
        verb = cw[k] if k < len(cw) else ""
        if not (verb in _WAIT or (verb in shows and not person.isdisjoint(cw))):
            return False
        # "show the user this banner and record the session": a second order in the clause
        verbs = verb_lemmas()
        if any(cw[j] in ("and", "then") and cw[j + 1] in verbs
               and cw[j + 1] not in shows | _WAIT for j in range(k, len(cw) - 1)):  # fmt: skip
            return False
    return True


# After a tool's own calls is its workflow; after every reply, message or turn is line-jumping.
_AFTERWARDS = frozenset({"after", "following", "at"})
_ANY_TOOL = frozenset({"tool", "tools", "function", "functions"})
_TOOL_SCOPE = frozenset({"tool", "tools", "function", "functions", "call", "calls", "command",
                         "commands", "operation", "operations", "action", "actions"})  # fmt: skip


def _obliges(clause: Clause) -> bool:
    words = [t.text for t in clause.tokens]
    return not _OBLIGATION.isdisjoint(words) or any(
        words[k] in ("has", "have", "is", "are") and words[k + 1] == "to"
        for k in range(len(words) - 1)
    )


def universal_scopes(words: list[str], lex: Lexicon) -> list[tuple[int, tuple[str, ...]]]:
    """Quantifier, up to three modifiers, interaction noun: "any message", "every new request"."""
    found = []
    for i, w in enumerate(words):
        if w == "whenever" and any(x in lex.user_words for x in words[i + 1 : i + 4]):
            found.append((i, tuple(words[i : i + 2])))  # "whenever the user asks anything"
            continue
        if w not in lex.framing["quantifiers"]:
            continue
        k = i + 1
        while k < len(words) and k <= i + 3 and words[k] in lex.framing["scope_modifiers"]:
            k += 1
        if k < len(words) and words[k] in lex.framing["scope_nouns"]:
            found.append((i, tuple(words[i : k + 1])))
        elif (call := _kinds_of_tool_call(words, i)) is not None:
            found.append((i, tuple(words[i : call + 1])))
        elif words[i + 1 : i + 2] == ["time"]:
            # "every time you finish a reply", "each time the user sends a message", "each
            # time you have answered" (a verb of a turn, by its lemma)
            forms = lexical_classes().forms
            noun = next((j for j in range(i + 2, min(len(words), i + 7))
                         if forms.get(words[j], words[j]) in lex.framing["scope_nouns"]),
                        None)  # fmt: skip
            if noun is not None:
                found.append((i, tuple(words[i : noun + 1])))
    return found


_TOOL_CALLS = frozenset({"call", "calls", "invocation", "invocations", "use", "uses"})


def _kinds_of_tool_call(words: list[str], i: int) -> int | None:
    """ "every shell or file tool call", "each database tool invocation": the quantifier, up to
    three plain words naming kinds of tools, then "tool call": calls of other tools by their
    kind. Returns the index of the call noun."""
    for k in range(i + 2, min(len(words) - 1, i + 5)):
        if words[k] in ("tool", "tools") and words[k + 1] in _TOOL_CALLS:
            between = words[i + 1 : k]
            return k + 1 if all(w.isalpha() for w in between) else None
    return None


def ranking(analysis: Analysis, ctx: FieldContext, lex: Lexicon) -> Iterator[Signal]:
    disparage = lex.framing["ranking_disparagement"]
    for sentence in analysis.sentences:
        words = sentence.words()
        toks = sentence.tokens
        for i, phrase in find_phrases(words, lex.framing["ranking_claims"]):
            if _skip(analysis, sentence, toks[i]):
                continue
            tail = words[i + len(phrase) : i + len(phrase) + 6]
            if phrase[-1] in ("are", "will", "is") and not any(
                w in disparage or w in ("fail", "wrong", "not") for w in tail
            ):
                continue
            yield _signal(
                RANKING,
                Severity.MEDIUM,
                toks[i].start,
                toks[i + len(phrase) - 1].end,
                "steers the model's choice of tool",
            )
            break

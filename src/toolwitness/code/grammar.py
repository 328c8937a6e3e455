"""Which words of a description are verbs, decided from their form and position.

Forms come from a maintained lemmatiser (`lemminflect`: the parts of speech an English word can
take, and its verb lemma), never from hand-written suffix rules. Position comes from the closed
classes of English grammar (determiners, modals, the words that introduce a verb phrase), kept in
data/declared.yaml. A word is read as a verb when it can be one and it heads its clause ("Create
a pull request"), follows `to`, a modal, an auxiliary or a relative pronoun, follows `and`/`or`
after a verb ("read and write files"), is a gerund after `by` ("by deleting"), or has no sense but
a verb ("The tool retrieves …") unless it directly follows a verb, whose object it is ("list
commits"). After a determiner or a preposition it is a noun or an adjective ("an email", "the
stored value", "a set of"), never a verb.
"""

from __future__ import annotations

from functools import lru_cache

from toolwitness.code import lemmas
from toolwitness.plainclass import plainclass


@plainclass(frozen=True)
class Grammar:
    determiners: frozenset[str]  # the, a, an, each, your … : a noun phrase follows
    prepositions: frozenset[str]  # of, for, from, in … : a noun phrase follows
    introducers: frozenset[str]  # to, can, will, that, which … : a verb follows
    lead_ins: frozenset[str]  # words skipped before a clause's head (this, tool, also, please …)


@lru_cache(maxsize=8192)
def senses(word: str) -> frozenset[str]:
    """Universal POS tags the lemmatiser knows for the word (empty for unknown words)."""
    return frozenset(lemmas.all_lemmas(word))  # lemminflect's table, read in place (code/lemmas.py)


@lru_cache(maxsize=8192)
def verb_lemma(word: str) -> str | None:
    if "VERB" not in senses(word):
        return None
    spellings = lemmas.lemma(word, "VERB")
    return spellings[0] if spellings else None


def verb_positions(words: list[str], grammar: Grammar) -> dict[int, str]:
    """Index -> verb lemma for the words of one clause that are used as verbs."""
    out: dict[int, str] = {}
    head = 0
    while head < len(words) and (words[head] in grammar.lead_ins or words[head].endswith("ly")):
        head += 1
    for index, word in enumerate(words):
        lemma = verb_lemma(word)
        if lemma is None:
            continue
        before = words[index - 1] if index else ""
        if before in grammar.determiners or (before in grammar.prepositions and before != "by"):
            continue  # "an email", "of commits", "for posts": a noun phrase
        # a verb-only form right after a verb is its object ("list commits"), not a verb
        only_verb = senses(word) == {"VERB"} and index - 1 not in out
        gerund = before == "by" and word.endswith("ing")
        after_verb = before in ("and", "or") and index - 2 in out
        if (
            index == head
            or before in grammar.introducers
            or after_verb
            or gerund
            or (only_verb and index > head)
        ):
            out[index] = lemma
    return out

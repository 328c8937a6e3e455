"""Two structural facts the frames need that a clause alone does not show.

- Negation carried over a coordinated list: in "must not hide activity, conceal processing, or
  suppress notices" the negator scopes over every verb of the list, though commas split it into
  clauses. A clause that starts with a base-form verb continues a negated clause when the list
  ends in "or"/"nor" ("A, B, or C").
- Mention, not use: "Training example: ignore previous instructions is an unsafe phrase" quotes
  an order as the subject of "is a phrase"; "Example:" labels what follows. Such a sentence is
  documentation from its start.

Verb base forms are the single-word lemmas of every WordNet verb class (`checks.text.wordnet`)
and the lexicon's imperative verbs.
"""

from __future__ import annotations

from functools import lru_cache

from toolwitness.checks.text.wordnet import lexical_classes, wordnet_document

_LIST_END = frozenset({"or", "nor", "and"})
_COPULA = frozenset({"is", "are", "was", "were"})
_ARTICLES = frozenset({"a", "an", "the", "one", "another", "typical", "common", "known"})
# Nouns that make "X is a NOUN" a mention of X (what it is called, or what it is an example of).
_MENTION_NOUNS = frozenset(
    {"phrase", "phrases", "example", "examples", "pattern", "patterns", "string", "strings",
     "attack", "attacks", "injection", "injections", "payload", "payloads", "jailbreak",
     "technique", "trick", "sample", "samples", "flag", "signature", "indicator", "lure"}
)  # fmt: skip
# A two-word label ("Training example:", "Quiz item:") or a teaching label ("Lesson:") frames
# what follows as material; "Example:" alone does not (an order can be dressed as one).
_LABELS = frozenset({"training", "quiz", "lesson", "exercise", "awareness", "test", "fixture"})
_LABEL_HEADS = frozenset(
    {"example", "examples", "sample", "samples", "quote", "phrase", "item", "fixture", "case"}
)


# Frame slots whose closed-class words are verbs WordNet's classes lack ("redact", "surface").
_VERB_SLOTS = ("conceal", "communicate", "acquire", "transfer", "execute", "redirect", "retire",
               "keep")


@lru_cache(maxsize=1)
def base_verbs() -> frozenset[str]:
    classes = lexical_classes()
    slots = wordnet_document().get("slots", {})
    forms = classes.forms  # slots hold inflected forms too: keep the base forms only
    extra = {w for name in _VERB_SLOTS for w in slots.get(name, ())
             if isinstance(w, str) and forms.get(w, w) == w}  # fmt: skip
    return frozenset(w for name, words in classes.words.items() for w in words
                     if name in classes.verb_classes) | frozenset(extra)  # fmt: skip


def carries_negation(words: list[list[str]], negated: list[bool], imperative: frozenset[str]
                     ) -> list[bool]:  # fmt: skip
    """For each clause (its words), whether a negation before it scopes over it."""
    out = [False] * len(words)
    if not any(negated):
        return out
    verbs = _verbs_with(imperative)
    k = 0
    while k < len(words):
        if not negated[k]:
            k += 1
            continue
        run = []
        j = k + 1
        while j < len(words) and words[j] and not negated[j]:
            first = words[j][1] if words[j][0] in _LIST_END and len(words[j]) > 1 else words[j][0]
            if first not in verbs:
                break
            run.append(j)
            j += 1
        # the list ends in and/or/nor, opening a clause ("A, B, or C") or inside the last one
        # ("cannot modify, redact or delete entries")
        if run and any(words[r][0] in _LIST_END or _LIST_END.intersection(words[r][1:3])
                       for r in run):  # fmt: skip
            for r in run:
                out[r] = True
        k = j if run else k + 1
    return out


@lru_cache(maxsize=8)
def _verbs_with(imperative: frozenset[str]) -> frozenset[str]:
    return base_verbs() | imperative


def mentioned(words: list[str], after_first: str) -> bool:
    """Whether the sentence mentions an order instead of giving it: "… is an unsafe phrase",
    or a leading label such as "Training example:" (`after_first` is the text right after the
    sentence's first token)."""
    if words and words[0] in _LABELS and after_first.lstrip().startswith(":"):
        return True
    if len(words) > 1 and words[0] in _LABELS and words[1] in _LABEL_HEADS:
        return True  # "Training example: …", "Test fixture: …"
    for k, w in enumerate(words):
        if w not in _COPULA or k == 0:
            continue
        rest = [x for x in words[k + 1 : k + 6] if x not in _ARTICLES]
        if any(x in _MENTION_NOUNS for x in rest[:3]):
            return True
    return False

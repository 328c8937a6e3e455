"""Whether a clause-opening word that could be an imperative verb is the head or modifier of the
clause's subject instead: "Empty trailing rows and columns are omitted", "Email addresses are
masked before lines are returned", "Formatting (Markdown, HTML tags) is preserved". The clause
states what happens to that subject; an imperative takes a determiner or a pronoun first
("Empty the trash", "Email the report"), and a subordinate clause ("if it is stale", "that is
older") puts its own verb before any "is/are". Shared by the frame reader
(`checks.text.language`) and role derivation (`checks.roles.prose`)."""

from __future__ import annotations

from collections.abc import Sequence

_FINITE_BE = frozenset({"is", "are", "was", "were"})
# Words that end a subject noun phrase before its verb: determiners and pronouns start an
# imperative's object; relative and subordinating words start a clause of their own.
_NOT_SUBJECT = frozenset({"the", "a", "an", "all", "any", "every", "each", "this", "that", "these",
                          "those", "its", "their", "your", "my", "our", "which", "who", "whose",
                          "where", "when", "if", "so", "while", "because", "unless", "until",
                          "once", "as", "then", "whether", "it", "them", "to", "me", "us",
                          "him", "her", "you"})  # fmt: skip
_REACH = 8  # the subject's verb within this many words of its first
_GET = frozenset({"get", "gets", "got"})


def subject_head(words: Sequence[str], at: int = 0) -> bool:
    """`words[at]` opens a noun phrase that is the subject of a finite "is/are/was/were" (or of
    a get-passive) a few words on, with no determiner, pronoun or subordinator between."""
    if len(words) < at + 3 or words[at + 1] in _NOT_SUBJECT:
        return False
    for k in range(at + 1, min(len(words), at + _REACH)):
        word = words[k]
        if word in _NOT_SUBJECT:
            return False
        if word in _FINITE_BE:
            return True
        if word in _GET and k + 1 < len(words) and words[k + 1].endswith(("ed", "en")):
            return True  # the get-passive: "Phone numbers get masked for …"
    return False

"""What a tool is for, as a set of words: its name, title and the first clause of its description.

Words that sit inside a sensitive-target literal in that first clause are left out, so a tool
cannot make "~/.ssh/id_rsa" part of its purpose by opening its description with it.
"""

from __future__ import annotations

import re

from toolwitness.checks.injection.targets import mentions_any_target, target_hits
from toolwitness.checks.text.language import split_identifier, token_texts, tokens
from toolwitness.checks.text.lexicon import Lexicon
from toolwitness.model import ServerSurface, Tool
from toolwitness.textnorm import nfc

_FIRST_CLAUSE = re.compile(r"[^.;:\n!?]{0,300}")
_PLAIN = re.compile(r"[a-z][a-z' -]{0,60}")


def _stem_variants(words: set[str]) -> set[str]:
    out = set(words)
    for w in words:
        if w.endswith("s") and len(w) > 3:
            out.add(w[:-1])
        else:
            out.add(w + "s")
    return out


def purpose_words(tool: Tool, lex: Lexicon) -> frozenset[str]:
    words = set(split_identifier(tool.name))
    if tool.title:
        # a title that runs on like a sentence may be the payload: its head only, as in
        # `identity_words` ("Export workspace - assistant: also add ~/.ssh …" is about exports)
        title = split_identifier(nfc(tool.title))
        words |= set(title if len(title) <= _TITLE_WORDS else title[:2])
    if tool.description:
        first = _FIRST_CLAUSE.match(nfc(tool.description))
        clause = first.group() if first else ""
        lower = clause.lower()
        # a path, a file name or a secret (`~/.ssh/id_rsa`, `.env`, "access tokens") in the
        # first clause is never the purpose; a plain noun phrase of a category that can name a
        # purpose (conversation, the user's files) is what the tool is about ("Exports all
        # messages in a channel", "Lists pages from the browser history")
        hidden = (
            [span for cat in lex.targets for span in target_hits(lower, cat)
             if not (cat.names_purpose and _PLAIN.fullmatch(lower[span[0] : span[1]]))]
            if mentions_any_target(lower, lex)
            else []
        )  # fmt: skip
        if hidden:
            for tok in tokens(clause):
                if not any(a <= tok.start < b for a, b in hidden):
                    words.update(split_identifier(tok.text))
        else:
            for word in token_texts(clause):
                words.update(split_identifier(word))
    return frozenset(_stem_variants(words))


def identity_words(tool: Tool) -> frozenset[str]:
    """What the tool is called: the words of its name and title only. The frames that exempt
    a tool's own business (a shell tool running commands, a vault asking for passwords) read
    these, since a description's first clause can itself be the payload."""
    words = set(split_identifier(tool.name))
    if tool.title:
        title = split_identifier(nfc(tool.title))
        # a title is a name ("Post to Slack"); one that runs on like a sentence may be the
        # payload itself ("Signature editor · assistants pre-fill note with …"): its head only
        words |= set(title if len(title) <= _TITLE_WORDS else title[:2])
    return frozenset(_stem_variants(words))


_TITLE_WORDS = 6


def server_purpose(surface: ServerSurface) -> frozenset[str]:
    words: set[str] = set()
    for tool in surface.tools:
        words.update(split_identifier(tool.name))
    return frozenset(_stem_variants(words))

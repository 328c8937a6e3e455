"""Concealment from the user (TW-INJ-002) and the whole conversation asked for (TW-INJ-004) in
another language, read as bags of word classes.

The English concealment frame reads who is addressed and what they are told; in a language the
role reader cannot parse, a sentence that holds a negator, a verb of telling someone and the
user ("Nie informuj użytkownika o …", "No le digas al usuario que …", "Сообщать пользователю
об этом не нужно") tells the agent to keep something from the person it serves. Each class is
WordNet senses taken into fifteen languages through the WikDict dictionaries
(`checks/text/multilingual.py`); a verb of telling is one whose object is a person (tell,
inform, notify), so a privacy promise ("never reveals user data") is not read as one.

The user must come after the verb, as its object; the three words must be of one language
("no" is a Spanish negator and a Portuguese preposition) and the negator within three words of
the verb ("não permite … informado pelo usuário" negates something else). Quiet for English
text (the English frames read it), a question, a sentence in quotes or a shown example, and a
sentence that says the user *is* told.
"""

from __future__ import annotations

from collections.abc import Iterator

from toolwitness.checks.injection.frames_common import _signal
from toolwitness.checks.injection.model import SECRECY, SENSITIVE, FieldContext, Signal
from toolwitness.checks.injection.slots import slots
from toolwitness.checks.text.english import in_another_language
from toolwitness.checks.text.language import Analysis, split_identifier
from toolwitness.checks.text.lexicon import Lexicon
from toolwitness.checks.text.multilingual import (
    classes_of,
    multilingual_classes,
    word_offsets,
    words_of,
)
from toolwitness.findings import Severity
from toolwitness.lazyre import lazy_compile

# Sentence ends in the scripts the dictionaries cover, and a line break.
_SENTENCE = lazy_compile(r"[^.!?;\n\u037e]+")
_FRAME = ("negator", "tell", "user")
_MIN_WORDS = 3


_NEAR = 3  # a negator this many words or fewer from the verb it negates


def may_conceal_elsewhere(text: str) -> bool:
    """The gate: text in another language with a word of each class of the frame, in one
    language (an English catalog never loads the table)."""
    if text.count(" ") < _MIN_WORDS - 1 or not in_another_language(text):
        return False
    table = multilingual_classes()
    words = words_of(text)
    seen: set[tuple[str, str]] = set()
    for word in words:
        seen.update(table.get(word, ()))
    langs = {lang for lang, _ in seen}
    return any(all((lang, name) in seen for name in _FRAME) for lang in langs)


def _told_not(found: dict[str, list[int]]) -> int | None:
    """The index of the verb of telling when the frame's classes are in one language: a
    negator next to the verb, and the user after it, as its object ("Der Benutzer wird nicht
    informiert, wenn …", the user first, states what happens)."""
    if not all(name in found for name in _FRAME):
        return None
    last_user = max(found["user"])
    for t in found["tell"]:
        if t < last_user and any(abs(n - t) <= _NEAR for n in found["negator"]):
            return t
    return None


def concealment_elsewhere(analysis: Analysis, ctx: FieldContext, lex: Lexicon) -> Iterator[Signal]:
    text = analysis.text
    if not in_another_language(text):
        return
    for m in _SENTENCE.finditer(text):
        words = words_of(m.group())
        if len(words) < _MIN_WORDS:
            continue
        verbs = [t for found in classes_of(words).values() if (t := _told_not(found)) is not None]
        if not verbs:
            continue
        at = word_offsets(text, m.start(), m.end())[verbs[0]]
        if analysis.quoted_at(at) or analysis.exemplified_at(at):
            continue  # a rule or an example quoted, not told
        if text[m.end() : m.end() + 1] == "?":
            continue  # asked, not told
        yield _signal(
            SECRECY, Severity.MEDIUM, m.start(), m.end(),
            "tells the agent not to inform the user of something, in another language "
            "(a negator, a verb of telling someone and the user in one sentence)",
        )  # fmt: skip
        return


_WHOLE_CHAT = ("whole", "conversation")


def may_ask_whole_chat(text: str) -> bool:
    """The gate: text in another language with "whole" and "conversation" in one language."""
    if text.count(" ") < _MIN_WORDS - 1 or not in_another_language(text):
        return False
    table = multilingual_classes()
    seen: set[tuple[str, str]] = set()
    for word in words_of(text):
        seen.update(table.get(word, ()))
    return any(all((lang, name) in seen for name in _WHOLE_CHAT) for lang, _ in seen)


def _about_chats(ctx: FieldContext) -> bool:
    """The tool is named for conversations ("export_chat", "sohbet_ozeti"): it may take one."""
    words = set(ctx.identity) | {w for w in split_identifier(ctx.tool or "")}
    if not words.isdisjoint(slots().members["conversation"]):
        return True
    table = multilingual_classes()
    return any(name == "conversation" for w in words for _, name in table.get(w, ()))


def whole_chat_elsewhere(analysis: Analysis, ctx: FieldContext, lex: Lexicon) -> Iterator[Signal]:
    """A sentence in another language naming the whole conversation ("sohbetin tamamını",
    "l'intera conversazione", "seluruh percakapan", "ολόκληρη τη συνομιλία"): the chat between
    the user and the agent, asked of a tool that is not about chats, leaves with the call.
    Quiet for a tool named for conversations, and in quotes or a shown example."""
    text = analysis.text
    if not in_another_language(text) or _about_chats(ctx):
        return
    for m in _SENTENCE.finditer(text):
        words = words_of(m.group())
        for found in classes_of(words).values():
            if not all(name in found for name in _WHOLE_CHAT):
                continue
            pairs = [(c, w) for c in found["conversation"] for w in found["whole"]
                     if abs(c - w) <= _NEAR]  # fmt: skip
            if not pairs:
                continue
            at = word_offsets(text, m.start(), m.end())[pairs[0][0]]
            if analysis.quoted_at(at) or analysis.exemplified_at(at):
                continue
            yield _signal(
                SENSITIVE, Severity.MEDIUM, m.start(), m.end(),
                "asks for the whole conversation with the user, in another language, in a "
                "tool that is not about conversations",
            )  # fmt: skip
            return

"""A parameter that holds a person's bank sign-in secret (TW-INJ-004).

"The new hire's online banking PIN", "Password of the payout bank's online banking": a
parameter's own text says what the model is to fill in, so a secret a person types to sign in
to their bank (a password, a PIN, a one-time code; WordNet's password and PIN senses) named as
what the parameter holds is the request itself, with no verb of asking. No tool of another
service needs it: banks give apps their own tokens, which this reading leaves alone ("the Plaid
access token of the linked bank" is not a secret a person types).

Quiet when the sentence negates ("never asks for your bank PIN"), when the tool is named for
keeping or checking secrets (a vault, a sign-in step), and when the secret and the bank are in
different clauses.

`abbreviated_secrets` reads the same request in any language: a parameter's text that names a
PIN, a one-time code or a card's security code by its abbreviation ("OTP आणि UPI PIN दोन्ही येथे
टाका", "CVV-код і пароль"), which is written in capitals whatever the language around it. The
abbreviation is what the parameter holds; no other word of the sentence need be understood.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Sequence
from functools import lru_cache

from toolwitness.checks.injection.frames import Tags
from toolwitness.checks.injection.frames_common import _called, _clause_of, _signal
from toolwitness.checks.injection.model import SENSITIVE, FieldContext, Signal
from toolwitness.checks.injection.slots import Slots, slots
from toolwitness.checks.text.language import Analysis, Sentence, split_identifier
from toolwitness.checks.text.lexicon import Lexicon
from toolwitness.findings import Severity

_NEAR = 6  # words between the secret and the bank in one noun phrase ("PIN of the payout bank's")
# Sign-in nouns that are the secret themselves ("the online-banking login").
_SIGN_IN = frozenset({"login", "logon", "log-in", "sign-in", "signin"})


def _typed_secret(words: Sequence[str], tags: Tags, k: int) -> bool:
    if "typed_secret" in tags[k] or words[k] in _SIGN_IN:
        return True
    # "the one-time code", "the SMS code": a sign-in modifier before an information noun
    return "secret_modifier" in tags[k] and any(
        "information" in tags[j] for j in range(k + 1, min(len(words), k + 3))
    )


def bank_secret(analysis: Analysis, sentence: Sentence, words: Sequence[str], tags: Tags,
                ctx: FieldContext, sl: Slots, lex: Lexicon) -> Signal | None:  # fmt: skip
    if ctx.param is None or not _called(ctx).isdisjoint(sl.members["secret_keeper"]):
        return None
    if not lex.negators.isdisjoint(words):
        return None
    banks = [j for j, tag in enumerate(tags) if "bank" in tag]
    if not banks:
        return None
    for k in range(len(words)):
        if not _typed_secret(words, tags, k):
            continue
        clause = _clause_of(sentence, k)[0]
        near = banks[bisect.bisect_left(banks, k - _NEAR) : bisect.bisect_right(banks, k + _NEAR)]
        bank = next((j for j in near if _clause_of(sentence, j)[0] == clause), None)
        if bank is None:
            continue
        lo, hi = min(k, bank), max(k, bank)
        return _signal(
            SENSITIVE, Severity.HIGH, sentence.tokens[lo].start, sentence.tokens[hi].end,
            "asks in a parameter for a person's bank sign-in secret, which no tool of another "
            "service needs",
        )  # fmt: skip
    return None


_CARD_CODES = frozenset({"cvv", "cvv2", "cvc", "cvc2"})
_ONE_TIME = frozenset({"otp"})


@lru_cache(maxsize=1)
def _capitalised() -> tuple[str, ...]:
    """The members of `abbreviated_secret` as written in capitals, longest first."""
    members = slots().members["abbreviated_secret"]
    return tuple(sorted((m.upper() for m in members if m.isalnum()), key=lambda m: -len(m)))


def _whole_word(text: str, start: int, end: int) -> bool:
    """No letter, digit or underscore of the Latin alphabet on either side ("PIN-код" and
    "की OTP" hold the word; "SPIN", "PINS" and "PIN_CODE" do not)."""
    return not (start > 0 and _wordish(text[start - 1])) and not (
        end < len(text) and _wordish(text[end])
    )


def _wordish(ch: str) -> bool:
    return ch == "_" or (ch.isascii() and ch.isalnum())


def _abbreviations(text: str) -> Iterator[tuple[int, str]]:
    """(offset, lowercase member) of each whole-word occurrence, by `str.find` per member: a
    dozen short needles, so the cost is linear in the text and no pattern is compiled."""
    for form in _capitalised():
        at = text.find(form)
        while at >= 0:
            if _whole_word(text, at, at + len(form)):
                yield at, form.lower()
            at = text.find(form, at + len(form))


def may_name_abbreviated_secret(text: str) -> bool:
    """The gate: some capitalised word of the text is in `abbreviated_secret`."""
    return next(_abbreviations(text), None) is not None


def _names_own_param(analysis: Analysis, sentence: Sentence, ctx: FieldContext, word: str) -> bool:
    """The sentence names one of the tool's parameters as code ("write them in `xac_minh`"),
    and not one named for the secret itself ("Der CVV kommt in `cvv`": the tool takes it)."""
    text = analysis.lower[sentence.start : sentence.end]
    if "`" not in text:
        return False
    named = [p for p in ctx.params if f"`{p}`" in text]
    return bool(named) and all(word not in split_identifier(p) for p in named)


def abbreviated_secrets(analysis: Analysis, ctx: FieldContext, lex: Lexicon) -> Iterator[Signal]:
    """A parameter's text naming, in capitals, a secret a person holds (see the module text), or
    a sentence of the tool's other text that names it beside one of the tool's parameters.
    Quiet for a tool named for keeping or checking secrets (a sign-in step that takes the code
    its own service sent), in a quotation or code span (a sample of a screen's text), in an
    English sentence with a negator ("a CVV is never accepted"), and for a PIN beside a postal
    word (India's postal "PIN code" of an address)."""
    if ctx.param is None and not ctx.params:
        return
    sl = slots()
    if not _called(ctx).isdisjoint(sl.members["secret_keeper"]):
        return
    postal = sl.members["postal"]
    for at, word in sorted(_abbreviations(analysis.text)):
        if analysis.quoted_at(at):
            continue
        sentence = analysis.sentence_at(at)
        words = sentence.words() if sentence is not None else []
        if not lex.negators.isdisjoint(words):
            continue
        if ctx.param is None and (
            sentence is None or not _names_own_param(analysis, sentence, ctx, word)
        ):
            continue  # outside a parameter, the sentence must say which argument takes it
        if word not in _CARD_CODES | _ONE_TIME and (
            not postal.isdisjoint(words)
            or (ctx.param is not None and not postal.isdisjoint(split_identifier(ctx.param)))
        ):
            continue
        what = (
            "a payment card's security code" if word in _CARD_CODES
            else "a one-time sign-in code" if word in _ONE_TIME
            else "a person's PIN"
        )  # fmt: skip
        yield _signal(
            SENSITIVE, Severity.HIGH, at, at + len(word),
            f"asks in a parameter for {what}, named by its abbreviation: a secret a person "
            "holds, which no tool of another service needs",
        )  # fmt: skip
        return

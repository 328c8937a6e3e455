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
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from toolwitness.checks.injection.frames import Tags
from toolwitness.checks.injection.frames_common import _called, _clause_of, _signal
from toolwitness.checks.injection.model import SENSITIVE, FieldContext, Signal
from toolwitness.checks.injection.slots import Slots
from toolwitness.checks.text.language import Analysis, Sentence
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

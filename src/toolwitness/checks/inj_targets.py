"""Detectors about *what* an instruction touches: sensitive targets, other tools, harmful intent.

A sensitive target only counts where it is not negated ("never reads ~/.ssh/id_rsa"), not in
documentation of attacks, and not part of the tool's stated purpose (an SSH tool may name keys).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from toolwitness.checks.inj_model import INTENT, SENSITIVE, SHADOWING, FieldContext, Signal
from toolwitness.checks.language import Analysis, Sentence, base_form, find_phrases
from toolwitness.checks.lexicon import Lexicon, TargetCategory
from toolwitness.findings import Severity

_EMAIL = re.compile(r"[A-Za-z0-9._%+\-]{1,64}@[A-Za-z0-9\-]{1,63}(?:\.[A-Za-z0-9\-]{1,63}){1,8}")
_URLISH = re.compile(r"https?://[^\s\"'<>`]{1,500}")
_REDIRECT_WORDS = frozenset(
    "bcc cc recipient recipients instead regardless redirect redirects forward forwards "
    "intercept intercepts reroute replace override overrides destination attacker proxy "
    "mirror".split()
)
_OTHER_TOOL = (
    ("other", "tool"), ("other", "tools"), ("any", "tool"), ("every", "tool"), ("all", "tools"),
    ("another", "tool"), ("email", "tool"), ("mail", "tool"), ("payment", "tool"),
    ("other", "server"), ("other", "servers"), ("any", "server"),
)  # fmt: skip


def _boundary(text: str, start: int, end: int) -> bool:
    before = text[start - 1] if start > 0 else " "
    after = text[end] if end < len(text) else " "
    lit_first, lit_last = text[start], text[end - 1]
    ok_before = not before.isalnum() or not lit_first.isalnum()
    ok_after = not (after.isalnum() or after == "_") or not lit_last.isalnum()
    return ok_before and ok_after


def target_hits(lower: str, cat: TargetCategory) -> Iterator[tuple[int, int]]:
    """Occurrences of the category's literals at token boundaries (longest literal wins)."""
    taken: list[tuple[int, int]] = []
    for lit in cat.literals:
        at = lower.find(lit)
        while at >= 0:
            end = at + len(lit)
            if _boundary(lower, at, end) and not any(a <= at < b for a, b in taken):
                tail = lower[end : end + 8]
                if not any(tail.startswith(s) for s in cat.exclude_suffixes):
                    taken.append((at, end))
            at = lower.find(lit, end)
    yield from sorted(taken)


def _related(ctx: FieldContext, cat: TargetCategory) -> bool:
    return bool(ctx.purpose & cat.domain)


def _acts_on(sentence: Sentence, lex: Lexicon) -> bool:
    verbs = lex.verbs["acquire"] | lex.verbs["transfer"]
    return any(base_form(w, verbs) is not None for w in sentence.words())


def _egress(sentence: Sentence, analysis: Analysis, lex: Lexicon) -> bool:
    chunk = analysis.text[sentence.start : sentence.end]
    transfer = lex.verbs["transfer"] - {"include", "add", "put", "write", "place", "report"}
    sends = any(base_form(w, transfer) is not None for w in sentence.words())
    return sends and (bool(_URLISH.search(chunk)) or bool(_EMAIL.search(chunk)) or "parameter" in chunk or "field" in chunk)


def sensitive_targets(analysis: Analysis, ctx: FieldContext, lex: Lexicon) -> Iterator[Signal]:
    seen: set[int] = set()
    for cat in lex.targets:
        for start, end in target_hits(analysis.lower, cat):
            sentence = analysis.sentence_at(start)
            if sentence is None or id(sentence) in seen:
                continue
            if analysis.negated_at(start) or sentence.documentary_at(start):
                continue
            related = _related(ctx, cat)
            directive = sentence.directive or ctx.is_param_text
            if directive and (not related or _egress(sentence, analysis, lex)):
                if not _acts_on(sentence, lex) and not ctx.is_param_text:
                    continue
                sev, how = Severity.HIGH, "tells the model to read or pass on"
            elif not related and _acts_on(sentence, lex):
                sev, how = Severity.MEDIUM, "says the tool reads or sends"
            else:
                continue
            seen.add(id(sentence))
            yield Signal(SENSITIVE, sev, start, end, f"{how} {cat.label}, outside the tool's stated purpose")


def _other_tool_refs(sentence: Sentence, ctx: FieldContext, text: str) -> bool:
    words = sentence.words()
    names = {w for w in words if w in ctx.siblings}
    chunk = text[sentence.start : sentence.end].lower()
    if names or any(s in chunk for s in ctx.siblings if len(s) > 3 and not s.isalpha()):
        return True
    pairs = set(zip(words, words[1:], strict=False))
    return any(p in pairs for p in _OTHER_TOOL)


def shadowing(analysis: Analysis, ctx: FieldContext, lex: Lexicon) -> Iterator[Signal]:
    for sentence in analysis.sentences:
        if not sentence.directive or sentence.documentary_from is not None:
            continue
        chunk = analysis.text[sentence.start : sentence.end]
        words = sentence.words()
        if any(c.negation_from is not None and c.directive and c.negation_from <= 1 for c in sentence.clauses) and not _EMAIL.search(chunk):
            continue
        redirect = bool(_REDIRECT_WORDS & set(words))
        address = bool(_EMAIL.search(chunk)) or bool(_URLISH.search(chunk))
        cred = any(w in ("token", "credential", "credentials", "key", "account") for w in words) and any(w in ("use", "instead") for w in words)
        if _other_tool_refs(sentence, ctx, analysis.text) and (redirect or address or cred):
            yield Signal(SHADOWING, Severity.HIGH, sentence.start, sentence.end, "rewrites how another tool behaves (recipient, destination or credential)")
        elif address and any(w in ("bcc", "cc", "forward") or w == "copy" for w in words):
            yield Signal(SHADOWING, Severity.HIGH, sentence.start, sentence.end, "adds a hidden recipient to what the agent sends")


def harmful_intent(analysis: Analysis, ctx: FieldContext, lex: Lexicon) -> Iterator[Signal]:
    verbs = lex.intent["verbs"]
    markers = lex.intent["markers"]
    for sentence in analysis.sentences:
        if sentence.documentary_from is not None:
            continue
        words = sentence.words()
        toks = sentence.tokens
        hit: int | None = None
        for i, w in enumerate(words):
            parts = w.replace("-", " ").split() if "-" in w and w not in markers else [w]
            if any(base_form(p, verbs) is not None or p in markers for p in parts):
                hit = i
                break
        if hit is None:
            found = find_phrases(words, lex.intent["phrases"])
            hit = found[0][0] if found else None
        if hit is None or analysis.negated_at(toks[hit].start) or analysis.quoted_at(toks[hit].start):
            continue
        yield Signal(INTENT, Severity.MEDIUM, toks[hit].start, toks[hit].end, "states a harmful purpose for the tool")
        return

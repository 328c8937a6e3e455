"""Plain definitions the language tests compare the fast paths of `checks.text.language` with:
tokens from the token pattern, and clause cuts from the gap between two tokens."""

from __future__ import annotations

from toolwitness.checks.text import language as lang


def plain_tokens(text: str) -> list[lang.Token]:
    return [lang.Token(lang.fold(m.group()), m.start(), m.end()) for m in lang.TOKEN.finditer(text)]


def plain_clause_tokens(text: str, toks: list[lang.Token]) -> list[list[lang.Token]]:
    clauses: list[list[lang.Token]] = [[]]
    prev_end = toks[0].start if toks else 0
    for tok in toks:
        gap = text[prev_end : tok.start]
        if (any(c in lang._CLAUSE_PUNCT for c in gap) or " - " in gap) and clauses[-1]:
            clauses.append([])
        if tok.text in lang._CLAUSE_WORDS and clauses[-1]:
            clauses.append([])
        clauses[-1].append(tok)
        prev_end = tok.end
    return [c for c in clauses if c]

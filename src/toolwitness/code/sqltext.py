"""Classify literal SQL text as a database read, write, or both.

The text is tokenised, not pattern-matched: comments (`--`, nested `/* */`, and MySQL's `#`),
string literals (`'..'` with `''`, dollar quotes `$tag$..$tag$`) and quoted identifiers (`".."`,
`` `..` ``, `[..]`) are skipped, so a keyword hidden in any of them does not count. A statement
writes when it starts with a writing verb, when a writing verb opens a parenthesised group (a
data-modifying CTE or subquery), or when a SELECT has a top-level INTO. Anything unreadable
(unterminated quote or comment, unknown leading verb, over the size bound) counts as both.
"""

from __future__ import annotations

from itertools import pairwise

from toolwitness.plainclass import plainclass

READ_DB = "READ_DB"
WRITE_DB = "WRITE_DB"
BOTH = frozenset({READ_DB, WRITE_DB})
_MAX_SQL_CHARS = 1_000_000

_READ_VERBS = frozenset({"SELECT", "SHOW", "DESCRIBE", "DESC", "VALUES", "TABLE", "FETCH"})
_WRITE_VERBS = frozenset(
    {
        "INSERT", "UPDATE", "DELETE", "REPLACE", "MERGE", "UPSERT", "DROP", "CREATE", "ALTER",
        "TRUNCATE", "GRANT", "REVOKE", "RENAME", "COMMENT", "VACUUM", "REINDEX", "CLUSTER",
        "ATTACH", "DETACH", "REFRESH", "IMPORT", "LOAD",
    }
)  # fmt: skip
# Transaction and session control touch no data.
_CONTROL_VERBS = frozenset(
    {"BEGIN", "START", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE", "SET", "RESET", "USE"}
)
_MAIN_VERBS = _READ_VERBS | _WRITE_VERBS


@plainclass(frozen=True)
class _Token:
    text: str  # upper-cased word, or one punctuation character
    depth: int  # parenthesis depth at the token


class _Unreadable(Exception):
    """The text does not tokenise (an unterminated quote or comment)."""


def _skip_block_comment(text: str, i: int) -> int:
    depth, n = 1, len(text)
    i += 2
    while depth:
        if i >= n - 1:
            raise _Unreadable
        pair = text[i : i + 2]
        if pair == "/*":
            depth, i = depth + 1, i + 2
        elif pair == "*/":
            depth, i = depth - 1, i + 2
        else:
            i += 1
    return i


def _skip_quoted(text: str, i: int, close: str, backslash: bool) -> int:
    n = len(text)
    i += 1
    while i < n:
        ch = text[i]
        if backslash and ch == "\\":
            i += 2
            continue
        if ch == close:
            if i + 1 < n and text[i + 1] == close:  # doubled quote is an escaped quote
                i += 2
                continue
            return i + 1
        i += 1
    raise _Unreadable


def _dollar_tag(text: str, i: int) -> str | None:
    j = i + 1
    while j < len(text) and (text[j].isalnum() or text[j] == "_"):
        j += 1
    if j < len(text) and text[j] == "$" and not text[i + 1 : j][:1].isdigit():
        return text[i : j + 1]
    return None


def _line_comment(text: str, i: int, mysql: bool) -> bool:
    if mysql:  # MySQL: `#`, or `--` followed by whitespace (`5--1` is arithmetic)
        after = text[i + 2 : i + 3]
        return text[i] == "#" or (text.startswith("--", i) and (not after or after.isspace()))
    return text.startswith("--", i)


def _tokens(text: str, mysql: bool) -> list[_Token]:
    tokens: list[_Token] = []
    i, n, depth = 0, len(text), 0
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif _line_comment(text, i, mysql):
            end = text.find("\n", i)
            i = n if end < 0 else end + 1
        elif text.startswith("/*", i):
            i = _skip_block_comment(text, i)
        elif ch in "'\"`":
            i = _skip_quoted(text, i, ch, mysql and ch in "'\"")
        elif ch == "[":
            i = _skip_quoted(text, i, "]", False)
        elif ch == "$" and (tag := _dollar_tag(text, i)) is not None:
            end = text.find(tag, i + len(tag))
            if end < 0:
                raise _Unreadable
            i = end + len(tag)
        elif ch.isalpha() or ch == "_":
            j = i + 1
            while j < n and (text[j].isalnum() or text[j] in "_$"):
                j += 1
            tokens.append(_Token(text[i:j].upper(), depth))
            i = j
        else:
            if ch == "(":
                tokens.append(_Token(ch, depth))
                depth += 1
            elif ch == ")":
                depth = max(0, depth - 1)
                tokens.append(_Token(ch, depth))
            elif ch == ";":
                tokens.append(_Token(ch, 0))
                depth = 0
            elif ch == "=":
                tokens.append(_Token(ch, depth))
            i += 1
    return tokens


def _statements(tokens: list[_Token]) -> list[list[_Token]]:
    statements: list[list[_Token]] = [[]]
    for token in tokens:
        if token.text == ";":
            statements.append([])
        else:
            statements[-1].append(token)
    return [s for s in statements if s]


def _classify_statement(stmt: list[_Token]) -> frozenset[str]:
    leaves: set[str] = set()
    for prev, token in pairwise(stmt):
        if prev.text == "(" and token.text in _WRITE_VERBS:
            leaves.add(WRITE_DB)  # data-modifying CTE or subquery
    verb = stmt[0].text
    if verb == "WITH":
        verb = next((t.text for t in stmt[1:] if t.depth == 0 and t.text in _MAIN_VERBS), "")
    elif verb == "EXPLAIN":
        main = next((i for i, t in enumerate(stmt) if t.depth == 0 and t.text in _MAIN_VERBS), 0)
        options = _texts(stmt[1:main])
        # EXPLAIN ANALYZE runs the statement; plain EXPLAIN only plans it.
        verb = stmt[main].text if main and options & {"ANALYZE", "ANALYSE"} else "SELECT"
    elif verb == "PRAGMA":
        # `PRAGMA x = v` sets; `PRAGMA x(v)` may read or set; a bare `PRAGMA x` reads.
        texts = _texts(stmt)
        verb = "UPDATE" if "=" in texts else ("CALL" if "(" in texts else "SELECT")
    elif verb == "COPY":
        verb = "INSERT" if any(t.text == "FROM" and t.depth == 0 for t in stmt) else "SELECT"
    if verb in _CONTROL_VERBS:
        return frozenset(leaves)
    if verb in _READ_VERBS:
        leaves.add(READ_DB)
        if verb == "SELECT" and any(t.text == "INTO" and t.depth == 0 for t in stmt):
            leaves.add(WRITE_DB)  # SELECT ... INTO creates a table (or a file)
    elif verb in _WRITE_VERBS:
        leaves.add(WRITE_DB)
        if verb in {"INSERT", "UPDATE", "DELETE", "MERGE", "REPLACE"} and "SELECT" in _texts(stmt):
            leaves.add(READ_DB)
    else:
        return BOTH  # CALL, EXEC, DO, LOCK, an unknown verb: could do either
    return frozenset(leaves)


def _texts(stmt: list[_Token]) -> set[str]:
    return {t.text for t in stmt}


def _classify(text: str, mysql: bool) -> frozenset[str]:
    leaves: set[str] = set()
    for stmt in _statements(_tokens(text, mysql)):
        leaves |= _classify_statement(stmt)
    return frozenset(leaves)


def classify_sql(text: str | None) -> frozenset[str]:
    """READ_DB and/or WRITE_DB for literal SQL; both when the text is not a literal (None)."""
    if text is None or len(text) > _MAX_SQL_CHARS:
        return BOTH
    # Dialects disagree on `#` comments and backslash escapes: read the text the standard way
    # and MySQL's way and keep the union of the readings that tokenise; when neither does, the
    # text is unreadable and counts as both.
    readings: list[frozenset[str]] = []
    for mysql in (False, True):
        try:
            readings.append(_classify(text, mysql))
        except _Unreadable:
            continue
    if not readings:
        return BOTH
    return frozenset().union(*readings)

"""Does a text contain any of a set of literal strings? One regex search, shaped as a trie.

`any(w in text for w in words)` costs one scan of the text per word; an alternation of the
words costs about as much in Python's engine. A trie-shaped pattern shares prefixes, so each
position of the text is tried once against the first letters. Only existence is asked, so a word
that is a prefix of another ends its branch: wherever the longer one occurs, so does the shorter.
Matching is exact (a test compares it with the plain substring test) and linear in the text.
The pattern is compiled once the plain test has cost about as much (`contains_any`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

_Trie = dict[str, "_Trie"]
_END = ""


def _pattern(node: _Trie) -> str:
    if _END in node:
        return ""  # a word ends here: any continuation is irrelevant for "contains any"
    branches = [re.escape(ch) + _pattern(child) for ch, child in sorted(node.items())]
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


# A pattern costs ~0.3 µs per character of its words to compile, and a plain test ~1 ns per
# word and character of the text: about this many plain-test units per pattern character.
_UNITS_PER_PATTERN_CHAR = 256


def _trie_pattern(words: Iterable[str]) -> re.Pattern[str] | None:
    root: _Trie = {}
    for word in words:
        node = root
        for ch in word:
            node = node.setdefault(ch, {})
        node[_END] = {}
    return re.compile(_pattern(root), re.DOTALL) if root else None


def trie_search(words: Iterable[str]) -> Callable[[str], bool]:
    """The trie-shaped regex test, compiled now."""
    pattern = _trie_pattern(words)
    return lambda text: pattern is not None and pattern.search(text) is not None


def contains_any(words: Iterable[str]) -> Callable[[str], bool]:
    """A predicate: True when the text contains at least one of `words` as a substring.

    Its first texts get the plain substring test, until that has cost about what compiling the
    trie would (issue 17: the role vocabulary's 1,200 surface forms took 2-4 ms to compile, and a
    one-tool scan asks once); then the trie is compiled and answers every later text. At worst
    twice the work of compiling at once; the same answer either way."""
    needles = tuple(words)
    budget = _UNITS_PER_PATTERN_CHAR * sum(map(len, needles))
    spent = 0
    search: Callable[[str], re.Match[str] | None] | None = None

    def test(text: str) -> bool:
        nonlocal spent, search
        if search is None:
            cost = len(text) * len(needles)
            if spent + cost <= budget:  # no needles: cost 0, always here
                spent += cost
                return any(map(text.__contains__, needles))
            pattern = _trie_pattern(needles)
            assert pattern is not None  # some needle: the trie has a branch or an end
            search = pattern.search
        return search(text) is not None

    return test

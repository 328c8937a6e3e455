"""A regular expression compiled at its first use, not at import.

A module-level `re.compile` runs when the module is imported, whether or not the scan ever
searches with it: a one-tool catalog scan compiled ~130 such patterns (~16 ms, issue 17) and
used fewer than 20. `lazy_compile(pattern, flags)` stands for the compiled pattern. Its first
method call compiles it and puts the compiled pattern's bound methods on the instance, so every
later call goes straight to them (an instance attribute wins over the class's method). A pattern
every scan uses stays a plain `re.compile`: a method bound before the first use (`match =
P.match`) keeps calling through this class.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")


class LazyPattern:
    """The methods of `re.Pattern[str]` a module-level pattern is used through."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    def compiled(self) -> re.Pattern[str]:
        # A caller may hold a method bound before the first use (`fullmatch = P.fullmatch`):
        # it comes back here every time, so the compiled pattern is kept, not made again.
        if self._compiled is None:
            self._compiled = re.compile(self.pattern, self._flags)
            vars(self).update((name, getattr(self._compiled, name)) for name in _METHODS)
        return self._compiled

    def search(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled().search(string, pos, endpos)

    def match(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> re.Match[str] | None:
        return self.compiled().match(string, pos, endpos)

    def fullmatch(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> re.Match[str] | None:
        return self.compiled().fullmatch(string, pos, endpos)

    def finditer(
        self, string: str, pos: int = 0, endpos: int = sys.maxsize
    ) -> Iterator[re.Match[str]]:
        return self.compiled().finditer(string, pos, endpos)

    def findall(self, string: str, pos: int = 0, endpos: int = sys.maxsize) -> list[Any]:
        return self.compiled().findall(string, pos, endpos)

    def sub(self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0) -> str:
        return self.compiled().sub(repl, string, count)

    def subn(
        self, repl: str | Callable[[re.Match[str]], str], string: str, count: int = 0
    ) -> tuple[str, int]:
        return self.compiled().subn(repl, string, count)

    def split(self, string: str, maxsplit: int = 0) -> list[str | Any]:
        return self.compiled().split(string, maxsplit)


def lazy_compile(pattern: str, flags: int = 0) -> LazyPattern:
    """`re.compile(pattern, flags)`, done at the first search, match, sub, … (see above)."""
    return LazyPattern(pattern, flags)

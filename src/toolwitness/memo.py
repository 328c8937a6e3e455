"""Recent answers about frozen objects, kept by identity; and dropping the scan's memos.

Several stages ask the same question of the same frozen surface (its roles, its digests). A
memo keyed by `id()` holds the object itself too, so the id cannot be reused by another object
while the entry lives; the oldest entry goes when the memo is full.

A process that runs one scan and exits (`toolwitness scan` on the command line's fast path)
has no use for the per-text memos once the result is built, while the report is still to be
written: `release_after_scan` marks such a process, and the pipeline then drops them
(`release_memos`) before returning, so the report reuses their memory instead of adding to
the process's peak (a 5,000-tool scan's memos hold ~60,000 entries).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Generic, TypeVar

_K = TypeVar("_K")
_V = TypeVar("_V")
_C = TypeVar("_C")

_MEMOS: list[IdentityMemo[Any, Any]] = []
# Per-text caches not bound to a module attribute (a decorator's closure holds them), which
# `release_memos` would not find among the modules' values.
_HELD_CACHES: list[Any] = []


def held_text_cache(cached: _C) -> _C:
    """Register an `lru_cache` kept out of sight in a closure, so `release_memos` drops it."""
    _HELD_CACHES.append(cached)
    return cached


class IdentityMemo(Generic[_K, _V]):
    def __init__(self, compute: Callable[[_K], _V], size: int = 64) -> None:
        self._compute = compute
        self._size = size
        self._held: dict[int, tuple[_K, _V]] = {}
        _MEMOS.append(self)

    def __call__(self, key: _K) -> _V:
        hit = self._held.get(id(key))
        if hit is not None and hit[0] is key:
            return hit[1]
        value = self._compute(key)
        if len(self._held) >= self._size:
            del self._held[next(iter(self._held))]
        self._held[id(key)] = (key, value)
        return value

    def clear(self) -> None:
        """Forget every answer (benchmarks time the computation itself)."""
        self._held.clear()


_RELEASE = {"after_scan": False}
_LRU = type(lru_cache(maxsize=1)(len))
# An `lru_cache` with room for more than this many entries memoises per text or per name; the
# smaller ones hold loaded tables (lexicons, vocabularies, rule packs) and are kept.
_TABLE_CACHE_SIZE = 64


def release_after_scan(on: bool) -> bool:
    """Mark (or unmark) this process as one that exits after its scan; returns the old mark."""
    old = _RELEASE["after_scan"]
    _RELEASE["after_scan"] = on
    return old


def releasing() -> bool:
    return _RELEASE["after_scan"]


def release_memos() -> int:
    """Drop every identity memo and every per-text `lru_cache` of the package's modules (those
    with room for more than `_TABLE_CACHE_SIZE` entries); returns how many entries went. Only
    memoised answers go: a later call computes the same answer again."""
    dropped = 0
    for memo in _MEMOS:
        dropped += len(memo._held)
        memo.clear()
    for cached in _HELD_CACHES:
        dropped += cached.cache_info().currsize
        cached.cache_clear()
    for name, module in list(sys.modules.items()):
        if module is None or not name.startswith("toolwitness."):
            continue
        for value in list(vars(module).values()):
            if type(value) is _LRU:
                info = value.cache_info()
                if info.currsize and (info.maxsize is None or info.maxsize > _TABLE_CACHE_SIZE):
                    dropped += info.currsize
                    value.cache_clear()
    return dropped

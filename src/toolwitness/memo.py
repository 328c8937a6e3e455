"""Recent answers about frozen objects, kept by identity.

Several stages ask the same question of the same frozen surface (its roles, its digests). A
memo keyed by `id()` holds the object itself too, so the id cannot be reused by another object
while the entry lives; the oldest entry goes when the memo is full.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

_K = TypeVar("_K")
_V = TypeVar("_V")


class IdentityMemo(Generic[_K, _V]):
    def __init__(self, compute: Callable[[_K], _V], size: int = 64) -> None:
        self._compute = compute
        self._size = size
        self._held: dict[int, tuple[_K, _V]] = {}

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

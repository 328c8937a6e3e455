"""IdentityMemo: answers per object identity, bounded, and clearable."""

from __future__ import annotations

from toolwitness.memo import IdentityMemo


def test_same_object_computed_once_equal_objects_separately() -> None:
    calls: list[object] = []

    def compute(key: list[int]) -> int:
        calls.append(key)
        return sum(key)

    memo: IdentityMemo[list[int], int] = IdentityMemo(compute, size=2)
    a, b = [1, 2], [1, 2]
    assert memo(a) == memo(a) == 3 and len(calls) == 1
    assert memo(b) == 3 and len(calls) == 2  # equal but another object
    c = [5]
    memo(c)  # full: the oldest (a) goes
    memo(a)
    assert len(calls) == 4
    memo.clear()
    memo(c)
    assert len(calls) == 5

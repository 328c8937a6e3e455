"""The capability lattice: hierarchy-aware subset, join and meet, and the lattice laws."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolwitness.code import lattice

names = st.sets(st.sampled_from(sorted(lattice.NAMES)), max_size=6)


def test_thirteen_names_nine_leaves_five_families() -> None:
    assert len(lattice.NAMES) == 13
    assert len(lattice.LEAVES) == 9
    assert set(lattice.FAMILIES) == {"READ", "WRITE", "EXEC", "NETWORK", "ENV"}


def test_parent_covers_children_siblings_do_not() -> None:
    assert lattice.subseteq({"READ_FS"}, {"READ"})
    assert lattice.subseteq({"EXEC_SHELL", "EXEC_EVAL"}, {"EXEC"})
    assert not lattice.subseteq({"READ_DB"}, {"READ_FS"})
    assert not lattice.subseteq({"EXEC_SHELL"}, {"EXEC_PROCESS"})
    assert not lattice.subseteq({"READ"}, {"READ_FS"})


def test_display_folds_complete_families() -> None:
    assert lattice.display({"READ_FS", "READ_DB", "ENV"}) == ("ENV", "READ")
    assert lattice.display({"READ_FS"}) == ("READ_FS",)


def test_unknown_name_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown capability"):
        lattice.leaves({"WRITE_ALL"})


@given(names, names)
def test_join_and_meet_are_commutative(a: set[str], b: set[str]) -> None:
    assert lattice.join(a, b) == lattice.join(b, a)
    assert lattice.meet(a, b) == lattice.meet(b, a)


@given(names, names, names)
def test_join_and_meet_are_associative(a: set[str], b: set[str], c: set[str]) -> None:
    assert lattice.join(lattice.join(a, b), c) == lattice.join(a, lattice.join(b, c))
    assert lattice.meet(lattice.meet(a, b), c) == lattice.meet(a, lattice.meet(b, c))


@given(names, names)
def test_absorption_and_order(a: set[str], b: set[str]) -> None:
    assert lattice.join(a, lattice.meet(a, b)) == lattice.leaves(a)
    assert lattice.meet(a, lattice.join(a, b)) == lattice.leaves(a)
    assert lattice.subseteq(a, lattice.join(a, b))
    assert lattice.subseteq(lattice.meet(a, b), a)
    assert lattice.subseteq(a, b) == (lattice.join(a, b) == lattice.leaves(b))


@given(names)
def test_idempotence_and_bounds(a: set[str]) -> None:
    assert lattice.join(a, a) == lattice.leaves(a)
    assert lattice.meet(a, a) == lattice.leaves(a)
    assert lattice.subseteq(lattice.BOTTOM, a)
    assert lattice.subseteq(a, lattice.TOP)
    assert lattice.minus(a, a) == frozenset()

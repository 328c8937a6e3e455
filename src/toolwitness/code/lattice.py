"""The capability lattice: 13 leaves under five parents, compared hierarchy-aware.

A set of capabilities is kept as its *leaves* (a declared parent is expanded to its children), so
subset, join and meet are plain set operations on leaves and the lattice laws hold by construction.
`display` folds a complete family back into its parent for reports.
"""

from __future__ import annotations

from collections.abc import Iterable

FAMILIES: dict[str, tuple[str, ...]] = {
    "READ": ("READ_FS", "READ_DB"),
    "WRITE": ("WRITE_FS", "WRITE_DB"),
    "EXEC": ("EXEC_PROCESS", "EXEC_SHELL", "EXEC_EVAL"),
    "NETWORK": ("NETWORK_OUTBOUND",),
    "ENV": ("ENV",),
}
LEAVES: tuple[str, ...] = tuple(leaf for leaves in FAMILIES.values() for leaf in leaves)
PARENT_OF: dict[str, str] = {leaf: parent for parent, ls in FAMILIES.items() for leaf in ls}
NAMES: frozenset[str] = frozenset(LEAVES) | frozenset(FAMILIES)
TOP: frozenset[str] = frozenset(LEAVES)
BOTTOM: frozenset[str] = frozenset()


def leaves(names: Iterable[str]) -> frozenset[str]:
    """Expand capability names (leaves or parents) to the leaves they cover."""
    out: set[str] = set()
    for name in names:
        if name in FAMILIES:
            out.update(FAMILIES[name])
        elif name in PARENT_OF:
            out.add(name)
        else:
            raise ValueError(f"unknown capability {name!r}")
    return frozenset(out)


def subseteq(a: Iterable[str], b: Iterable[str]) -> bool:
    """Every leaf `a` covers is covered by `b` (a declared parent covers its children)."""
    return leaves(a) <= leaves(b)


def join(a: Iterable[str], b: Iterable[str]) -> frozenset[str]:
    return leaves(a) | leaves(b)


def meet(a: Iterable[str], b: Iterable[str]) -> frozenset[str]:
    return leaves(a) & leaves(b)


def minus(a: Iterable[str], b: Iterable[str]) -> frozenset[str]:
    """Leaves of `a` not covered by `b`: the undeclared part of an actual set."""
    return leaves(a) - leaves(b)


def display(names: Iterable[str]) -> tuple[str, ...]:
    """Sorted names, a complete family shown as its parent (READ_FS+READ_DB -> READ)."""
    have = leaves(names)
    out: list[str] = []
    for parent, children in FAMILIES.items():
        if len(children) > 1 and set(children) <= have:
            out.append(parent)
        else:
            out.extend(c for c in children if c in have)
    return tuple(sorted(out))


def ordered(names: Iterable[str]) -> tuple[str, ...]:
    """Leaves in lattice order (deterministic reports)."""
    have = leaves(names)
    return tuple(leaf for leaf in LEAVES if leaf in have)

"""Is a package name an imitation of a protected one? (data/protected-packages.yaml)

One verdict per name, strongest first: look-alike scope, confusable skeleton, unscoped shadow of a
scoped name, Damerau-Levenshtein distance 1–2 (rapidfuzz; 1 for short names), combosquat affix.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz.distance import DamerauLevenshtein

from toolwitness.datafiles import data_files
from toolwitness.errors import InternalError
from toolwitness.yamlload import load_yaml

SCHEMA = "toolwitness.protected/1"
SHORT_NAME = 8  # names up to this long get distance 1 only: distance 2 is a different word
MAX_NAME = 214  # npm's limit; longer is not a registry name


def normalise_name(ecosystem: str, name: str) -> str:
    """Registry identity: PEP 503 for PyPI (runs of -_. are one -, case-folded), lower-case else."""
    if ecosystem == "pypi":
        return re.sub(r"[-_.]+", "-", name).lower()
    return name.lower()


@dataclass(frozen=True)
class Protected:
    scopes: tuple[str, ...]
    names: dict[str, frozenset[str]]  # ecosystem -> normalised names
    suffixes: tuple[str, ...]
    prefixes: tuple[str, ...]
    folds: tuple[tuple[str, str], ...]


@lru_cache(maxsize=1)
def protected() -> Protected:
    text = (
        data_files().joinpath("protected-packages.yaml").read_text("utf-8")
    )
    doc = load_yaml(text)
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        raise InternalError("data/protected-packages.yaml: missing or wrong schema marker")
    try:
        folds = []
        for pair in doc["confusable_folds"]:
            src, _, dst = str(pair).partition("=")
            if not src or not _:
                raise ValueError(f"bad fold {pair!r}")
            folds.append((src, dst))
        return Protected(
            scopes=tuple(s.lower() for s in doc["npm_scopes"]),
            names={
                eco: frozenset(normalise_name(eco, n) for n in doc[eco])
                for eco in ("npm", "pypi", "docker")
            },
            suffixes=tuple(doc["affix_suffixes"]),
            prefixes=tuple(doc["affix_prefixes"]),
            folds=tuple(sorted(folds, key=lambda f: -len(f[0]))),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise InternalError(f"data/protected-packages.yaml: {exc}") from None


@dataclass(frozen=True)
class NameVerdict:
    kind: str  # fake-scope | confusable | shadow | near-miss | combosquat
    target: str  # the protected name (or scope) imitated
    distance: int = 0


def skeleton(name: str, folds: tuple[tuple[str, str], ...]) -> str:
    """Fold Unicode compatibility forms, accents and ASCII look-alikes to one reading."""
    text = unicodedata.normalize("NFKD", name)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    for src, dst in folds:
        text = text.replace(src, dst)
    return text


@lru_cache(maxsize=1024)
def _skeleton_of_protected(name: str) -> str:
    return skeleton(name, protected().folds)


def _split_scope(name: str) -> tuple[str | None, str]:
    if name.startswith("@") and "/" in name:
        scope, _, bare = name.partition("/")
        return scope, bare
    return None, name


def _limit(target: str) -> int:
    return 1 if len(target) <= SHORT_NAME else 2


def judge_name(ecosystem: str, name: str) -> NameVerdict | None:
    """None when the name is protected itself or imitates nothing we protect."""
    table = protected()
    names = table.names.get(ecosystem)
    if names is None or not name or len(name) > MAX_NAME:
        return None
    key = normalise_name(ecosystem, name)
    if key in names:
        return None
    scope, bare = _split_scope(key)
    if ecosystem == "npm" and scope is not None and scope not in table.scopes:
        for real in table.scopes:
            distance = DamerauLevenshtein.distance(scope, real)
            if distance <= _limit(real) or skeleton(scope, table.folds) == skeleton(
                real, table.folds
            ):
                return NameVerdict("fake-scope", real, distance)
    folded = skeleton(key, table.folds)
    for target in sorted(names):
        if _skeleton_of_protected(target) == folded:
            return NameVerdict("confusable", target)
    if scope is None:
        for target in sorted(names):
            t_scope, t_bare = _split_scope(target)
            if t_scope is not None and t_bare == bare:
                return NameVerdict("shadow", target)
    best: NameVerdict | None = None
    for target in sorted(names):
        distance = DamerauLevenshtein.distance(key, target, score_cutoff=2)
        if 1 <= distance <= _limit(target) and (best is None or distance < best.distance):
            best = NameVerdict("near-miss", target, distance)
    if best is not None:
        return best
    return _combosquat(key, scope, bare, names, table)


def _combosquat(
    key: str, scope: str | None, bare: str, names: frozenset[str], table: Protected
) -> NameVerdict | None:
    cores = {bare}
    for suffix in table.suffixes:
        if bare.endswith(suffix) and len(bare) > len(suffix):
            cores.add(bare[: -len(suffix)])
    for prefix in table.prefixes:
        for core in list(cores):
            if core.startswith(prefix) and len(core) > len(prefix):
                cores.add(core[len(prefix) :])
    cores.discard(bare)
    for target in sorted(names):
        t_scope, t_bare = _split_scope(target)
        if (scope is None or scope == t_scope) and t_bare in cores:
            return NameVerdict("combosquat", target)
    return None

"""Version order per ecosystem: semver for npm, PEP 440 (`packaging`) for PyPI.

`parse_version` returns None for a string that is not an exact version in that ecosystem (a range,
a tag, garbage): such a spec is unpinned, and no advisory range can be decided for it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from toolwitness.lazyre import lazy_compile
from toolwitness.plainclass import plainclass

if TYPE_CHECKING:
    from packaging.version import Version

_SEMVER = lazy_compile(
    r"v?(0|[1-9]\d{0,15})\.(0|[1-9]\d{0,15})\.(0|[1-9]\d{0,15})"
    r"(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?"
)
_MAX_VERSION_CHARS = 128


@plainclass(frozen=True)
class SemVer:
    major: int
    minor: int
    patch: int
    prerelease: tuple[str, ...] = ()

    def key(self) -> tuple[Any, ...]:
        # A release sorts after all of its prereleases; numeric identifiers sort before
        # alphanumeric ones and compare as numbers (semver 2.0.0, section 11).
        pre = tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in self.prerelease)
        return (self.major, self.minor, self.patch, 0 if self.prerelease else 1, pre)


def parse_semver(text: str) -> SemVer | None:
    if len(text) > _MAX_VERSION_CHARS:
        return None
    match = _SEMVER.fullmatch(text.strip())
    if match is None:
        return None
    major, minor, patch, pre = match.groups()
    return SemVer(int(major), int(minor), int(patch), tuple(pre.split(".")) if pre else ())


def _semver_key(text: str) -> tuple[Any, ...] | None:
    if text == "0":
        return SemVer(0, 0, 0, ("0",)).key()  # "0" = before every version, prereleases included
    parsed = parse_semver(text)
    return None if parsed is None else parsed.key()


def _pep440_key(text: str) -> Version | None:
    if len(text) > _MAX_VERSION_CHARS:
        return None
    from packaging.version import InvalidVersion, Version  # a PyPI package only

    try:
        return Version(text)
    except InvalidVersion:
        return None


@lru_cache(maxsize=4096)
def version_key(ecosystem: str, text: str) -> Any | None:
    """A comparable key for `text`, or None if it is not an exact version there."""
    if ecosystem == "npm":
        return _semver_key(text)
    if ecosystem == "pypi":
        return _pep440_key(text)
    return None


def is_exact_version(ecosystem: str, text: str | None) -> bool:
    if not text:
        return False
    if ecosystem == "pypi":
        return _pep440_key(text) is not None and "*" not in text
    if ecosystem == "npm":
        return parse_semver(text) is not None
    return False


def in_range(ecosystem: str, version: str, introduced: str, fixed: str | None) -> bool | None:
    """True/False when decidable, None when a version does not parse."""
    v = version_key(ecosystem, version)
    low = version_key(ecosystem, introduced)
    high = version_key(ecosystem, fixed) if fixed is not None else None
    if v is None or low is None or (fixed is not None and high is None):
        return None
    return bool(low <= v and (high is None or v < high))

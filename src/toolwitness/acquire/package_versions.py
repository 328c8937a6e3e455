"""npm version ranges, to pick a dependency's artifact from a local folder the way npm would.

The grammar of node-semver's ranges (docs.npmjs.com/cli/v10/configuring-npm/package-json#
dependencies, github.com/npm/node-semver#ranges): `||` alternatives of space-separated
comparators (`<`, `<=`, `>`, `>=`, `=`), X-ranges (`1.x`, `1.2.*`, `*`, ``), tilde (`~1.2.3`),
caret (`^0.2.3`) and hyphen ranges (`1.2.3 - 2.3.4`). As in npm, a prerelease version
satisfies a range only if a comparator names a prerelease of the same major.minor.patch.
Versions and ranges are parsed with anchored patterns and bounded lengths; anything else is
"no match", never an error.
"""

from __future__ import annotations

import re

_VERSION = re.compile(
    r"^v?(0|[1-9]\d{0,15})\.(0|[1-9]\d{0,15})\.(0|[1-9]\d{0,15})"
    r"(?:-([0-9A-Za-z.-]{1,128}))?(?:\+[0-9A-Za-z.-]{1,128})?$"
)
_PARTIAL = re.compile(
    r"^v?(\*|x|X|\d{1,16})(?:\.(\*|x|X|\d{1,16})(?:\.(\*|x|X|\d{1,16})"
    r"(?:-([0-9A-Za-z.-]{1,128}))?(?:\+[0-9A-Za-z.-]{1,128})?)?)?$"
)
_OPERATOR = re.compile(r"^(<=|>=|<|>|=|\^|~>|~)?\s*(.*)$")
_MAX_RANGE = 512

Version = tuple[int, int, int, tuple[str, ...]]
_Comparator = tuple[str, Version]


def parse_version(text: str) -> Version | None:
    match = _VERSION.match(text.strip())
    if match is None:
        return None
    pre = tuple(match.group(4).split(".")) if match.group(4) else ()
    return int(match.group(1)), int(match.group(2)), int(match.group(3)), pre


def _pre_key(pre: tuple[str, ...]) -> tuple[tuple[int, int, str], ...]:
    return tuple((0, int(p), "") if p.isdigit() else (1, 0, p) for p in pre)


def compare(a: Version, b: Version) -> int:
    if a[:3] != b[:3]:
        return -1 if a[:3] < b[:3] else 1
    if a[3] == b[3]:
        return 0
    if not a[3] or not b[3]:  # a release is above its prereleases
        return 1 if not a[3] else -1
    return -1 if _pre_key(a[3]) < _pre_key(b[3]) else 1


def satisfies(version_text: str, range_text: str) -> bool:
    version = parse_version(version_text)
    if version is None or len(range_text) > _MAX_RANGE:
        return False
    for alternative in range_text.split("||"):
        comparators = _comparators(alternative.strip())
        if comparators is not None and _all(version, comparators):
            return True
    return False


def _all(version: Version, comparators: list[_Comparator]) -> bool:
    for op, bound in comparators:
        order = compare(version, bound)
        ok = {"<": order < 0, "<=": order <= 0, ">": order > 0, ">=": order >= 0, "=": order == 0}
        if not ok[op]:
            return False
    if version[3]:  # a prerelease: only where a comparator names one of the same x.y.z
        return any(bound[3] and bound[:3] == version[:3] for _, bound in comparators)
    return True


def _comparators(text: str) -> list[_Comparator] | None:
    hyphen = re.fullmatch(r"(\S+)\s+-\s+(\S+)", text)
    if hyphen is not None:
        low, high = _partial(hyphen.group(1)), _partial(hyphen.group(2))
        if low is None or high is None:
            return None
        return _desugar(">=", low) + _desugar("<=", high)
    out: list[_Comparator] = []
    tokens = re.sub(r"(<=|>=|<|>|=|\^|~)\s+", r"\1", text).split()
    for token in tokens or ["*"]:
        match = _OPERATOR.match(token)
        parsed = _partial(match.group(2)) if match is not None else None
        if match is None or parsed is None:
            return None
        out += _desugar(match.group(1) or "", parsed)
    return out


_Partial = tuple[int | None, int | None, int | None, tuple[str, ...]]


def _partial(text: str) -> _Partial | None:
    match = _PARTIAL.match(text or "*")
    if match is None:
        return None
    nums = [None if g is None or g in "*xX" else int(g) for g in match.groups()[:3]]
    for index in (1, 2):  # `1.x.3` is `1.x`
        if nums[index - 1] is None:
            nums[index] = None
    pre = tuple(match.group(4).split(".")) if match.group(4) and nums[2] is not None else ()
    return nums[0], nums[1], nums[2], pre


def _desugar(op: str, p: _Partial) -> list[_Comparator]:
    major, minor, patch, pre = p
    low: Version = (major or 0, minor or 0, patch or 0, pre)
    if major is None:
        return [] if op in ("", "=", ">=", "<=", "^", "~", "~>") else [("<", (0, 0, 0, ("0",)))]
    if op in ("^",):
        if major > 0 or minor is None:
            return [(">=", low), ("<", (major + 1, 0, 0, ("0",)))]
        if minor > 0 or patch is None:
            return [(">=", low), ("<", (0, minor + 1, 0, ("0",)))]
        return [(">=", low), ("<", (0, 0, patch + 1, ("0",)))]
    if op in ("~", "~>"):
        if minor is None:
            return [(">=", low), ("<", (major + 1, 0, 0, ("0",)))]
        return [(">=", low), ("<", (major, minor + 1, 0, ("0",)))]
    if patch is not None:  # a full version: the operator as written
        return [(op or "=", low)]
    upper: Version = (major + 1, 0, 0, ("0",)) if minor is None else (major, minor + 1, 0, ("0",))
    if op in ("", "="):
        return [(">=", low), ("<", upper)]
    if op == ">":
        return [(">=", upper)]
    if op == "<=":
        return [("<", upper)]
    return [(op, low)]  # >= 1.2 is >= 1.2.0; < 1.2 is < 1.2.0

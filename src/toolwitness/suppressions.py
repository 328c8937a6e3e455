"""Suppressions: an accepted finding, written down with the reason it is accepted.

File format (YAML, `--suppressions FILE`)::

    suppressions:
      - rule: TW-CAP-012                 # required, an existing rule id
        tool: "read_*"                   # optional, a tool name or glob (fnmatch, case-sensitive)
        server: server-filesystem        # optional, a server id or glob
        justification: paths are confined to allowed roots in code   # required, non-empty

Anything else is an input error (exit 2). A suppressed finding leaves the score and the
thresholds but stays in the report under `suppressed`, with its justification.
TW-META-005 (a check crashed) cannot be suppressed: an incomplete scan never reads as clean.
"""

from __future__ import annotations

from collections.abc import Iterable
from fnmatch import fnmatchcase
from pathlib import Path

from toolwitness.errors import InputError
from toolwitness.files import read_regular_text
from toolwitness.findings import Finding
from toolwitness.lazyre import lazy_compile
from toolwitness.plainclass import plainclass
from toolwitness.result import SuppressedFinding
from toolwitness.rules import RuleRegistry
from toolwitness.yamlload import load_untrusted_yaml

_MAX_BYTES = 1024 * 1024
_MAX_ENTRIES = 5000
_MAX_FIELD = 200
_MAX_JUSTIFICATION = 4000
_RULE_ID = lazy_compile(r"TW-[A-Z]{2,5}-[0-9]{3}")
_KEYS = frozenset({"rule", "tool", "server", "justification"})
UNSUPPRESSIBLE = frozenset({"TW-META-005"})


@plainclass(frozen=True)
class Suppression:
    rule: str
    justification: str
    tool: str | None = None
    server: str | None = None

    def matches(self, server_id: str, finding: Finding) -> bool:
        if finding.rule_id != self.rule:
            return False
        if self.server is not None and not fnmatchcase(server_id, self.server):
            return False
        if self.tool is None:
            return True
        return finding.tool is not None and fnmatchcase(finding.tool, self.tool)


def _text(entry: dict[str, object], key: str, where: str, source: str, limit: int) -> str | None:
    value = entry.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise InputError(
            f"{key!r} must be a non-empty string of at most {limit} characters",
            source=source,
            path=where,
        )
    return value.strip()


def parse_suppressions(text: str, source: str) -> tuple[Suppression, ...]:
    if len(text.encode("utf-8")) > _MAX_BYTES:
        raise InputError("suppressions file over 1 MiB", source=source)
    doc = load_untrusted_yaml(text, source, what="suppressions file")
    if (
        not isinstance(doc, dict)
        or set(doc) != {"suppressions"}
        or not isinstance(doc["suppressions"], list)
    ):
        raise InputError(
            "expected a mapping with one key, 'suppressions', holding a list", source=source
        )
    entries = doc["suppressions"]
    if len(entries) > _MAX_ENTRIES:
        raise InputError(f"more than {_MAX_ENTRIES} suppressions", source=source)
    out: list[Suppression] = []
    for i, entry in enumerate(entries):
        where = f"$.suppressions[{i}]"
        if not isinstance(entry, dict):
            raise InputError("each suppression must be a mapping", source=source, path=where)
        unknown = sorted(str(k) for k in entry if k not in _KEYS)
        if unknown:
            raise InputError(
                f"unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(_KEYS))}",
                source=source,
                path=where,
            )
        rule = _text(entry, "rule", where, source, _MAX_FIELD)
        if rule is None or not _RULE_ID.fullmatch(rule):
            raise InputError(
                "'rule' must be a rule id such as TW-CAP-001", source=source, path=where
            )
        if rule in UNSUPPRESSIBLE:
            raise InputError(
                f"{rule} (a check crashed) cannot be suppressed", source=source, path=where
            )
        justification = _text(entry, "justification", where, source, _MAX_JUSTIFICATION)
        if justification is None:
            raise InputError(
                "a suppression needs a written 'justification'", source=source, path=where
            )
        out.append(
            Suppression(
                rule=rule,
                justification=justification,
                tool=_text(entry, "tool", where, source, _MAX_FIELD),
                server=_text(entry, "server", where, source, _MAX_FIELD),
            )
        )
    return tuple(out)


def load_suppressions(path: Path) -> tuple[Suppression, ...]:
    text = read_regular_text(path, _MAX_BYTES, what="suppressions file")
    return parse_suppressions(text, str(path))


def check_known(suppressions: Iterable[Suppression], rules: RuleRegistry) -> None:
    """A suppression for a rule that does not exist is a typo that would silently do nothing."""
    for s in suppressions:
        if s.rule not in rules:
            raise InputError(
                f"suppression names unknown rule {s.rule}; `toolwitness rules` lists them"
            )


def split_suppressed(
    server_id: str, findings: Iterable[Finding], suppressions: Iterable[Suppression]
) -> tuple[list[Finding], list[SuppressedFinding]]:
    kept: list[Finding] = []
    dropped: list[SuppressedFinding] = []
    active = list(suppressions)
    for finding in findings:
        match = next((s for s in active if s.matches(server_id, finding)), None)
        if match is None or finding.rule_id in UNSUPPRESSIBLE:
            kept.append(finding)
        else:
            dropped.append(SuppressedFinding(finding=finding, justification=match.justification))
    return kept, dropped

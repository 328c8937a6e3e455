"""A baseline: the findings a team has accepted, recorded by fingerprint.

    toolwitness scan tools.json --write-baseline toolwitness-baseline.json   # record today's
    toolwitness scan tools.json --baseline toolwitness-baseline.json         # report only new ones

A finding in the baseline is treated like a suppressed one: it leaves the score and the gates and
stays in the report under `suppressed` ("accepted in baseline FILE"). Matching is by fingerprint
(`finding_fingerprint`), never by line number or order, so reformatting a catalog or moving a
handler keeps the baseline valid, while a changed payload is reported again. A crashed check
(TW-META-005) is never recorded or accepted: an incomplete scan must not read as clean.

The file is JSON, sorted, without timestamps::

    {"schema": "toolwitness.baseline/1",
     "findings": [{"fingerprint": "tw1:…", "rule_id": "TW-INJ-014", "server": "notes",
                   "tool": "search", "location": "tools[1].description"}]}

Only `fingerprint` and `rule_id` are used for matching; the rest is there for review. Reading it
is hostile input: bounded, strict JSON, unknown keys and malformed fingerprints are exit 2.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from toolwitness.acquire.hostile_json import parse_json_bytes
from toolwitness.acquire.limits import InputLimits
from toolwitness.errors import InputError, UsageError
from toolwitness.files import read_regular
from toolwitness.finding_fingerprint import FINGERPRINT, finding_fingerprint
from toolwitness.findings import Finding
from toolwitness.plainclass import plainclass
from toolwitness.result import ScanResult
from toolwitness.suppressions import UNSUPPRESSIBLE, Suppression

SCHEMA = "toolwitness.baseline/1"
MAX_ENTRIES = 100_000
_RULE_ID = re.compile(r"TW-[A-Z]{2,5}-[0-9]{3}")
_KEYS = frozenset({"fingerprint", "rule_id", "server", "tool", "location"})


@plainclass(frozen=True)
class BaselineSuppression(Suppression):
    """Every baselined finding of one rule: matched by fingerprint, not by tool or server."""

    fingerprints: frozenset[str] = frozenset()

    def matches(self, server_id: str, finding: Finding) -> bool:
        if finding.rule_id != self.rule:
            return False
        return finding_fingerprint(server_id, finding) in self.fingerprints


def load_baseline(path: Path, limits: InputLimits | None = None) -> tuple[BaselineSuppression, ...]:
    limits = limits or InputLimits()
    source = str(path)
    data = read_regular(path, limits.max_file_bytes, what="baseline")
    doc = parse_json_bytes(data, source, limits)
    if not isinstance(doc, dict) or set(doc) != {"schema", "findings"} or doc["schema"] != SCHEMA:
        raise InputError(
            f'not a baseline: expected {{"schema": "{SCHEMA}", "findings": [...]}} '
            "(written by --write-baseline)",
            source=source,
        )
    entries = doc["findings"]
    if not isinstance(entries, list) or len(entries) > MAX_ENTRIES:
        raise InputError(f"'findings' must be a list of at most {MAX_ENTRIES}", source=source)
    by_rule: dict[str, set[str]] = defaultdict(set)
    for i, entry in enumerate(entries):
        rule, fingerprint = _entry(entry, source, f"$.findings[{i}]")
        by_rule[rule].add(fingerprint)
    justification = f"accepted in baseline {path}"
    return tuple(
        BaselineSuppression(rule=rule, justification=justification, fingerprints=frozenset(fps))
        for rule, fps in sorted(by_rule.items())
        if rule not in UNSUPPRESSIBLE
    )


def _entry(entry: Any, source: str, where: str) -> tuple[str, str]:
    if not isinstance(entry, dict):
        raise InputError("each baseline entry must be an object", source=source, path=where)
    unknown = sorted(str(k) for k in entry if k not in _KEYS)
    if unknown:
        raise InputError(
            f"unknown key(s) {', '.join(unknown)}; allowed: {', '.join(sorted(_KEYS))}",
            source=source,
            path=where,
        )
    fingerprint, rule = entry.get("fingerprint"), entry.get("rule_id")
    if not isinstance(fingerprint, str) or not FINGERPRINT.fullmatch(fingerprint):
        raise InputError("'fingerprint' must look like tw1:<32 hex>", source=source, path=where)
    if not isinstance(rule, str) or not _RULE_ID.fullmatch(rule):
        raise InputError(
            "'rule_id' must be a rule id such as TW-CAP-001", source=source, path=where
        )
    for key in ("server", "tool", "location"):
        if entry.get(key) is not None and not isinstance(entry[key], str):
            raise InputError(f"{key!r} must be a string", source=source, path=where)
    return rule, fingerprint


def baseline_document(result: ScanResult) -> dict[str, Any]:
    """Every finding of `result`, reported or already accepted, except crashed checks."""
    rows: dict[str, dict[str, Any]] = {}
    for server in result.servers:
        findings = [*server.findings, *(s.finding for s in server.suppressed)]
        for finding in findings:
            if finding.rule_id in UNSUPPRESSIBLE:
                continue
            fingerprint = finding_fingerprint(server.id, finding)
            rows[fingerprint] = {
                "fingerprint": fingerprint, "rule_id": finding.rule_id, "server": server.id,
                "tool": finding.tool, "location": finding.location,
            }  # fmt: skip
    ordered = sorted(
        rows.values(),
        key=lambda r: (r["server"], r["rule_id"], r["tool"] or "", r["location"], r["fingerprint"]),
    )
    return {"schema": SCHEMA, "findings": ordered}


def write_baseline_file(path: Path, result: ScanResult) -> int:
    doc = baseline_document(result)
    try:
        path.write_text(json.dumps(doc, indent=2, ensure_ascii=True) + "\n", encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror}") from None
    return len(doc["findings"])
